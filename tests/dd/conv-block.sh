#!/bin/sh
# conv=block and conv=unblock turn lines into cbs-sized records and back,
# counting truncated records, also with sync, swab and EBCDIC.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
printf 'abc def\nxyzzy     \nlonglonglonglong\n\n  lead\ntail' > fix/lines \
  || framework_failure_
printf 'one     two     three   x       ' > fix/recs || framework_failure_

diff_run_ block dd if=lines of=out conv=block cbs=8
diff_run_ block-one-truncated dd if=lines of=out conv=block cbs=12
diff_run_ block-small-ibs dd if=lines of=out conv=block cbs=4 ibs=3 obs=5
diff_run_ block-sync dd if=lines of=out conv=block,sync cbs=8 ibs=7
diff_run_ block-ebcdic dd if=lines of=out conv=ebcdic,block cbs=10
diff_run_ block-swab dd if=lines of=out conv=swab,block cbs=6 ibs=5
diff_run_ unblock dd if=recs of=out conv=unblock cbs=8
diff_run_ unblock-lines dd if=lines of=out conv=unblock cbs=5
diff_run_ unblock-sync dd if=recs of=out conv=unblock,sync cbs=5 ibs=7 obs=3
diff_run_ unblock-ascii dd if=recs of=out conv=ascii,unblock cbs=8
diff_run_ block-no-cbs dd if=lines of=out conv=block
diff_run_ block-unblock-no-cbs dd if=lines of=out conv=block,unblock
diff_run_ block-and-unblock dd if=lines of=out conv=block,unblock cbs=8

Exit $fail
