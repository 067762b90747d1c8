#!/bin/sh
# A 100 MiB random file is copied byte for byte.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

head -c 104857600 /dev/urandom > big || framework_failure_
cp big big.copy || fail=1
cmp big big.copy || fail=1

Exit $fail
