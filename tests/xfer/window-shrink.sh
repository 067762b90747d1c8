#!/bin/sh
# The mmap window reader reports a file that shrinks under it as a read
# error and exits 1, never dying of SIGBUS.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./tests/xfer
. "$srcdir/tests/diff-helpers.sh"

page=$(getconf PAGESIZE) || framework_failure_
if emulated_; then
  test "$("${abs_top_builddir-$PWD/..}/tests/cross/probe" sigbus probe)" = yes \
    || skip_ "the emulator ($emulated_machine_) gives a SIGBUS a wrong address"
fi

for how in read write zero next; do
  head -c $((3 * page)) /dev/zero > f || framework_failure_
  returns_ 1 window-shrink $how f out 2> err || fail=1
  gnu_libc_words_ err
  echo "window-shrink: error reading 'f': Input/output error" > exp
  compare exp err || fail=1
done

Exit $fail
