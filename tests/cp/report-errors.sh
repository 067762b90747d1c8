#!/bin/sh
# A --report or --failed file that can't be opened stops cp before it
# copies anything; one that can't be written is said so once, at the
# end the exit status is 1, and the copy is made all the same.  Neither
# may be a file the copy reads or writes.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"

mkdir -p s/sub || framework_failure_
echo a > s/a && echo b > s/sub/b || framework_failure_

# Can't be opened: nothing is copied.
for opt in --report --failed; do
  cp -r $opt=nodir/r s d > out 2> err && fail=1
  echo "cp: failed to open 'nodir/r': No such file or directory" > exp
  compare exp err || fail=1
  test -e d && { echo "$opt: copied"; fail=1; }
done

# Inside the tree copied, or the copy: refused, and the source kept.
cp -r --report=s/r s d > out 2> err && fail=1
echo "cp: --report 's/r' is inside the source directory 's'" > exp
compare exp err || fail=1
test -e s/r && { echo "s/r left"; fail=1; }
test -e d && { echo "copied"; fail=1; }

# Can't be written: said once, exit 1, the copy whole.
if test -w /dev/full; then
  cp -r --report=/dev/full s d > out 2> err && fail=1
  echo "cp: error writing '/dev/full': No space left on device" > exp
  compare exp err || fail=1
  diff -r s d || fail=1
  rm -rf d

  mkdir d && cp -r --failed=/dev/full s/a nosuch d 2> err && fail=1
  diff -r s/a d/a || fail=1
  grep -Fx "cp: error writing '/dev/full': No space left on device" err \
    > /dev/null || { cat err; fail=1; }
  rm -rf d

  cp -r --report=- s d > /dev/full 2> err && fail=1
  grep 'write error' err > /dev/null || { cat err; fail=1; }
  test "$(wc -l < err)" = 1 || { echo "said more than once"; cat err; fail=1; }
  diff -r s d || fail=1
  rm -rf d
fi

Exit $fail
