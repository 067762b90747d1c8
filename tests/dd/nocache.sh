#!/bin/sh
# iflag=nocache and oflag=nocache: copies are unchanged, count=0 only
# drops the cache, and where that is impossible (a pipe) dd says so.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 300000 /dev/urandom > fix/in || framework_failure_

diff_run_ nocache dd if=in of=out iflag=nocache oflag=nocache
diff_run_ nocache-bs dd if=in of=out iflag=nocache oflag=nocache bs=64K
diff_run_ nocache-count0-in dd if=in iflag=nocache count=0
diff_run_ nocache-count0-out sh -c 'dd if=in of=in oflag=nocache conv=notrunc count=0'
diff_run_ nocache-count0-pipe-in sh -c 'cat in | dd iflag=nocache count=0'
diff_run_ nocache-count0-pipe-out sh -c 'dd if=in oflag=nocache count=0 | cat'

Exit $fail
