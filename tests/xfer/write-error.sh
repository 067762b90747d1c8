#!/bin/sh
# A write error stops the copy with GNU cp's diagnostic and exit
# status, whatever the method.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

test -w /dev/full || skip_ "no /dev/full"
head -c 300000 /dev/urandom > in || framework_failure_

returns_ 1 "$gnu_dir_/cp" in /dev/full 2> gnu.err || framework_failure_
sed "s,^$gnu_dir_/cp:,cp:," gnu.err > exp || framework_failure_

for method in auto read mmap offload; do
  returns_ 1 cp --io-method=$method in /dev/full 2> err || fail=1
  compare exp err || fail=1
done

Exit $fail
