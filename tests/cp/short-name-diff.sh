#!/bin/sh
# Run by a path (/usr/bin/cp, ./cp), cp starts every diagnostic with
# "cp: " as GNU 9.10's does, gnulib's own among them: argmatch's for
# each option with a list of arguments, "write error" when standard
# output is full, "memory exhausted".

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir ours gnu && echo data > f || framework_failure_
ln -s "$ours_dir_/cp" ours/cp && ln -s "$gnu_dir_/cp" gnu/cp \
  || framework_failure_

# Run cp by the path $1/cp with the rest as arguments, into $1.out and
# $1.err, the directory's name masked in the "Try" line.
run_by_path_ ()
{
  side_=$1; shift
  "$PWD/$side_/cp" "$@" > "$side_.out" 2> "$side_.err-raw"
  echo $? >> "$side_.out"
  sed "s|$PWD/$side_/|DIR/|" "$side_.err-raw" > "$side_.err"
}

for args in --sparse=foo --backup=foo --reflink=foo --update=foo \
            --preserve=foo --no-preserve=foo; do
  run_by_path_ ours $args f g
  run_by_path_ gnu $args f g
  compare gnu.err ours.err || fail=1
  compare gnu.out ours.out || fail=1
done

# Only the name and the words are compared: musl's stdio may lose the
# error's number before close_stdout reports it.
if test -w /dev/full; then
  for side in ours gnu; do
    rm -f g
    "$PWD/$side/cp" -v f g > /dev/full 2> $side.err-full
    sed 's/: write error.*/: write error/' $side.err-full > $side.err
  done
  compare gnu.err ours.err || fail=1
fi

# cpdd's own: argmatch for the hash options, and a buffer too large.
for args in --verify=foo --print-hash=foo; do
  run_by_path_ ours $args f g
  sed -n 1p ours.err | grep "^cp: invalid argument" > /dev/null \
    || { cat ours.err; fail=1; }
done
run_by_path_ ours --buffer-size=1E --io-method=read f g2
grep -E '^cp: (memory exhausted|invalid buffer size)' ours.err > /dev/null \
  || { cat ours.err; fail=1; }

Exit $fail
