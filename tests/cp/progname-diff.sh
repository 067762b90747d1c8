#!/bin/sh
# Run by a name with a directory in it, cp and dd start their
# diagnostics with the last component of that name, as GNU's do, and
# show the name whole where GNU's do: in prompts and the usage hint.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_gnu_ dd

mkdir gnu ours || framework_failure_
for side in gnu ours; do
  if test $side = gnu; then dir=$gnu_dir_; else dir=$ours_dir_; fi
  ln -s "$dir/cp" $side/copier && ln -s "$dir/dd" $side/dumper \
    || framework_failure_
  echo a > $side/a && echo b > $side/b || framework_failure_
  ( cd $side || exit 1
    "$PWD/copier" missing x
    "$PWD/copier" --bogus-option a x
    echo n | "$PWD/copier" -i a b
    "$PWD/dumper" if=missing
    "$PWD/dumper" bogus=1
  ) 2>&1 | sed "s,$PWD/$side/,DIR/," > $side.out
done
compare gnu.out ours.out || fail=1

Exit $fail
