#!/bin/sh
# Short reads from a pipe: partial records, the one-time "partial read"
# warning when bs= is counted or skipped, and iflag=fullblock, which
# gathers whole blocks instead.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
# The writer waits for the first read to take its first bytes alone.
slow_writer_ ab cdefghij > fix/slow || framework_failure_

diff_run_ partial sh -c 'sh slow | dd bs=4 > out'
diff_run_ partial-warn sh -c 'sh slow | dd bs=4 count=3 > out'
diff_run_ partial-warn-none sh -c 'sh slow | dd bs=4 count=3 status=none > out'
diff_run_ partial-skip sh -c 'sh slow | dd bs=4 skip=1 > out'
diff_run_ partial-reblock sh -c 'sh slow | dd ibs=4 obs=3 count=3 > out'
diff_run_ fullblock sh -c 'sh slow | dd bs=4 iflag=fullblock count=2 > out'
diff_run_ fullblock-skip sh -c 'sh slow | dd bs=4 skip=1 iflag=fullblock > out'
diff_run_ fullblock-out dd oflag=fullblock

Exit $fail
