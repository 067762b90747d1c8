#!/bin/sh
# Files of awkward sizes copy byte for byte on tmpfs (/dev/shm) with
# every --io-method and every --direct mode.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

test "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs \
  || skip_ "/dev/shm is not tmpfs"
shm=$(mktemp -d /dev/shm/cpdd-xfer.XXXXXX) || skip_ "cannot write /dev/shm"
cleanup_ () { rm -rf "$shm"; }

. "$abs_srcdir/tests/xfer/matrix.sh" "$shm"

Exit $fail
