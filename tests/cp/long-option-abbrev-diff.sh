#!/bin/sh
# Every abbreviation of a GNU cp long option means what it means to
# GNU cp, or is ambiguous in GNU's words, even where it also
# abbreviates one of cpdd's own options; cpdd's own options answer to
# their full names and to the abbreviations GNU leaves free.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

# GNU cp names all its long options when "--=" (the empty prefix) is
# ambiguous.
gnu_names=$("$gnu_dir_/cp" --=x 2>&1 | sed -n "s/.*possibilities: //p" \
             | tr -d "'" | sed 's/--//g') || framework_failure_
set -- $gnu_names
test $# -ge 29 || framework_failure_

mkdir scratch && printf 'a\n' > scratch/a || framework_failure_

# Run "cp ARG a" as ours and as GNU's; compare standard error and the
# exit status (--help and --version print their own words).
try_ ()
{
  ( cd scratch && PATH="$ours_dir_:$PATH" cp "$1" a > /dev/null 2> ../err.ours
    echo $? > ../rc.ours )
  ( cd scratch && PATH="$gnu_dir_:$PATH" cp "$1" a > /dev/null 2> ../err.gnu
    echo $? > ../rc.gnu )
  cmp -s err.gnu err.ours && cmp -s rc.gnu rc.ours && return
  echo "differs from GNU's: cp $1 a" >&2
  diff err.gnu err.ours >&2
  fail=1
}

for name in $gnu_names; do
  prefix=
  rest=$name
  while test -n "$rest"; do
    prefix=$prefix$(printf '%s' "$rest" | cut -c1)
    rest=$(printf '%s' "$rest" | cut -c2-)
    try_ "--$prefix"
    try_ "--$prefix=bogus"
  done
done
try_ --=x
try_ --

# The words that show which of cpdd's options took "=bogus".
own_error_ ()
{
  case $1 in
    buffer-size) echo 'invalid buffer size' ;;
    uncached) echo "'--$1' doesn't allow an argument" ;;
    *) echo "for '--$1'" ;;
  esac
}

for name in buffer-size direct io-method progress stats uncached; do
  prefix=
  rest=$name
  while test -n "$rest"; do
    prefix=$prefix$(printf '%s' "$rest" | cut -c1)
    rest=$(printf '%s' "$rest" | cut -c2-)
    printf '%s\n' $gnu_names | grep "^$prefix" > /dev/null && continue
    returns_ 1 cp "--$prefix=bogus" scratch/a scratch/b 2> err || fail=1
    grep -F -- "$(own_error_ $name)" err > /dev/null \
      || { echo "--$prefix is not --$name" >&2; cat err >&2; fail=1; }
  done
done
cp --bu=4K --io=read --un scratch/a scratch/b > /dev/null || fail=1
compare scratch/a scratch/b || fail=1

# Where an abbreviation is an option's argument or an operand, it is
# left alone; after an operand, it is still an option, unless
# POSIXLY_CORRECT is set.
mkdir fix && printf 'a\n' > fix/a && printf 'old\n' > fix/b \
  && printf 'a~\n' > 'fix/a~' && mkdir fix/d || framework_failure_
diff_run_ backup-is-src cp --b=simple 'a~' a
diff_run_ after-operands cp a b --b=simple
diff_run_ suffix-short cp -S --b a b
diff_run_ suffix-cluster cp -bS --b a b
diff_run_ suffix-long cp --su --b a b
diff_run_ target-long cp --ta d --de a
diff_run_ end-of-options cp -- a --b
diff_run_ posixly-correct env POSIXLY_CORRECT=1 cp a --b
diff_run_ posixly-correct-option env POSIXLY_CORRECT=1 cp --b=t a b
diff_run_ ambiguous-late cp -v a b --r
diff_run_ invalid-before-ambiguous cp -K --s a b
diff_run_ help-before-ambiguous sh -c 'cp --h --s > /dev/null'
diff_run_ debug-or-dereference cp --de a b
diff_run_ keep-abbrev cp --ke a b
diff_run_ update-abbrev cp --up=none a b

Exit $fail
