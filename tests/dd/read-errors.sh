#!/bin/sh
# Read errors: without conv=noerror dd stops and reports; with noerror
# it reports each error and goes on; with noerror,sync the bad blocks
# become padding.  A directory as input fails every read.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix fix/dir || framework_failure_

diff_run_ read-error dd if=dir of=out
diff_run_ noerror-sync dd if=dir of=out conv=noerror,sync count=3
diff_run_ noerror-sync-none dd if=dir of=out conv=noerror,sync count=2 \
  status=none
diff_run_ noerror-sync-block dd if=dir of=out conv=noerror,sync,block \
  cbs=10 count=2 ibs=16
diff_run_ skip-read-error dd if=dir of=out skip=1 iflag=directory

Exit $fail
