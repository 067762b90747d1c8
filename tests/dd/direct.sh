#!/bin/sh
# iflag=direct and oflag=direct: aligned blocks go through direct I/O,
# and a short last block is written after turning O_DIRECT off, as GNU
# dd does; output and report match GNU's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

head -c 4096 /dev/zero > probe || framework_failure_
dd if=probe of=probe.out oflag=direct bs=4096 status=none 2>/dev/null \
  || skip_ "this file system has no direct I/O"

mkdir fix || framework_failure_
head -c 20000 /dev/urandom > fix/in || framework_failure_

diff_run_ direct-in dd if=in of=out iflag=direct bs=4096
diff_run_ direct-out dd if=in of=out oflag=direct bs=4096
diff_run_ direct-both dd if=in of=out iflag=direct oflag=direct bs=8192
diff_run_ direct-unaligned-out dd if=in of=out oflag=direct bs=1000
diff_run_ direct-reblock dd if=in of=out oflag=direct ibs=512 obs=4096
diff_run_ direct-nocache dd if=in of=out iflag=direct,nocache

Exit $fail
