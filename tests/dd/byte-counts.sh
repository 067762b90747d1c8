#!/bin/sh
# count=, skip= and seek= in bytes: through iflag=count_bytes,
# skip_bytes and oflag=seek_bytes, or through a 'B' in the number; and
# the misplaced byte flags that GNU dd 9.10 accepts without effect.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 5000 /dev/urandom > fix/in || framework_failure_
head -c 3000 /dev/urandom > fix/old || framework_failure_

diff_run_ count-bytes dd if=in of=out iflag=count_bytes count=1000 bs=300
diff_run_ skip-bytes dd if=in of=out iflag=skip_bytes skip=100 bs=300 count=2
diff_run_ seek-bytes dd if=in of=old oflag=seek_bytes seek=100 bs=300 count=1
diff_run_ count-B dd if=in of=out count=3B
diff_run_ count-kB dd if=in of=out count=1kB
diff_run_ skip-B dd if=in of=out skip=4900B
diff_run_ seek-B dd if=in of=old seek=7B bs=2 count=1
diff_run_ misplaced dd if=in of=out iflag=seek_bytes oflag=count_bytes,skip_bytes count=1
diff_run_ count-bytes-pipe sh -c 'cat in | dd bs=4 iflag=count_bytes,fullblock count=4099 > out'

Exit $fail
