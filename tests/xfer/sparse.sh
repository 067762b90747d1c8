#!/bin/sh
# Every method keeps holes: --sparse=auto copies the source's holes
# (SEEK_DATA/SEEK_HOLE), --sparse=always also turns zero blocks into
# holes, including a trailing one, and --sparse=never fills them in.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./tests/xfer

mkdir d || framework_failure_
. "$abs_srcdir/tests/xfer/sparse-checks.sh" d

Exit $fail
