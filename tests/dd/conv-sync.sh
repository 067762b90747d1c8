#!/bin/sh
# conv=sync pads short input blocks to ibs with NULs (spaces with block
# or unblock), with and without bs=.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 5000 /dev/urandom > fix/in || framework_failure_

diff_run_ sync-reblock dd if=in of=out conv=sync ibs=1000 obs=700
diff_run_ sync-bs dd if=in of=out conv=sync bs=3000
diff_run_ sync-count dd if=in of=out conv=sync bs=3000 count=1
diff_run_ sync-twice dd if=in of=out conv=sync,sync ibs=4096

Exit $fail
