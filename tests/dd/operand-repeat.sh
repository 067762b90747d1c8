#!/bin/sh
# A later count=, skip= (iseek=) or seek= (oseek=) replaces an earlier
# one whole: a 'B' suffix on the earlier one does not make the later
# one count bytes, while iflag= and oflag= byte flags still apply.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 1000 /dev/urandom > fix/in || framework_failure_

diff_run_ count-B-then-blocks dd if=in of=out count=5B count=1 bs=100
diff_run_ count-blocks-then-B dd if=in of=out count=1 count=5B bs=100
diff_run_ count-B-flag dd if=in of=out count=5B count=1 bs=100 \
  iflag=count_bytes
diff_run_ skip-B-then-blocks dd if=in of=out skip=5B skip=1 bs=100
diff_run_ iseek-B-then-skip dd if=in of=out iseek=5B skip=1 bs=100
diff_run_ skip-B-then-iseek dd if=in of=out skip=5B iseek=1 bs=100
diff_run_ seek-B-then-blocks dd if=in of=out seek=5B seek=1 bs=100 count=1
diff_run_ seek-B-then-oseek dd if=in of=out seek=5B oseek=1 bs=100 count=1
diff_run_ seek-B-flag dd if=in of=out seek=5B seek=1 bs=100 count=1 \
  oflag=seek_bytes

Exit $fail
