#!/bin/sh
# A full output device: GNU dd's two messages ("error writing" for the
# direct path and the last block, "writing to" for reblocked output),
# the counts, and the exit status.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd
test -w /dev/full || skip_ "no /dev/full"

mkdir fix || framework_failure_
head -c 5000 /dev/urandom > fix/in || framework_failure_

diff_run_ full-reblock dd if=in of=/dev/full
diff_run_ full-bs dd if=in of=/dev/full bs=512
diff_run_ full-last-block dd if=in of=/dev/full ibs=100 obs=10000
diff_run_ full-seek-zeros sh -c 'dd if=in of=/dev/full seek=1 bs=10 count=1'

Exit $fail
