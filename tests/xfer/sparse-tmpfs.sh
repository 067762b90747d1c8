#!/bin/sh
# On tmpfs too, every method keeps holes: --sparse=auto copies the
# source's holes, --sparse=always also turns zero blocks into holes,
# and --sparse=never fills them in.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./tests/xfer

test "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs \
  || skip_ "/dev/shm is not tmpfs"
shm=$(mktemp -d /dev/shm/cpdd-xfer.XXXXXX) || skip_ "cannot write /dev/shm"
cleanup_ () { rm -rf "$shm"; }

. "$abs_srcdir/tests/xfer/sparse-checks.sh" "$shm"

Exit $fail
