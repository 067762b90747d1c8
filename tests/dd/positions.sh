#!/bin/sh
# skip=/iseek= and seek=/oseek=: seeking in files, reading over pipe
# input, refusing to seek a pipe output, skipping past the end (which
# only a positive size tells), and offsets too large for the file or
# for off_t.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 5000 /dev/urandom > fix/in || framework_failure_
head -c 3000 /dev/urandom > fix/old || framework_failure_
: > fix/empty || framework_failure_

diff_run_ iseek dd if=in of=out iseek=2 count=1
diff_run_ oseek dd if=in of=old oseek=2 count=1
diff_run_ skip-end dd if=in of=out skip=9
diff_run_ skip-past-end dd if=in of=out skip=11
diff_run_ skip-empty dd if=empty of=out skip=1
diff_run_ skip-empty-bytes dd if=empty of=out skip=1B
# Files of /proc have a size of 0 but data.
diff_run_ skip-proc dd if=/proc/version of=out skip=10 bs=1 count=5
diff_run_ skip-proc-past-end dd if=/proc/version of=out skip=99999 bs=1
diff_run_ skip-pipe sh -c 'cat in | dd skip=3 bs=1000 count=1 > out'
diff_run_ skip-pipe-past-end sh -c 'cat in | dd skip=11 > out'
diff_run_ seek-pipe sh -c 'dd if=in seek=2 count=1 | cat > out'
diff_run_ skip-huge dd if=in of=out skip=99999999999999999
diff_run_ seek-huge dd if=in of=out seek=99999999999999999
diff_run_ seek-too-far dd if=in of=out seek=1E bs=1 count=1
diff_run_ seek-too-far-old dd if=in of=old seek=1E bs=1 count=1
diff_run_ seek-too-far-notrunc dd if=in of=out seek=1E bs=1 count=1 \
  conv=notrunc
diff_run_ skip-zero-dev dd if=/dev/zero of=out skip=99999999999999999 count=1

Exit $fail
