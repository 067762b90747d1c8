#!/bin/sh
# A 100 MiB random file is copied byte for byte, and the report has the
# same lines as GNU dd's but for the time and rate.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

head -c 104857600 /dev/urandom > big || framework_failure_
dd if=big of=big.copy bs=1M 2> err.ours || fail=1
cmp big big.copy || fail=1
"$gnu_dir_/dd" if=big of=big.gnu bs=1M 2> err.gnu || framework_failure_
mask_dd_times_ < err.ours > ours || framework_failure_
mask_dd_times_ < err.gnu | sed "s,^$gnu_dir_/dd:,dd:," > gnu \
  || framework_failure_
compare gnu ours || fail=1

Exit $fail
