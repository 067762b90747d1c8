#!/bin/sh
# conv=excl, nocreat, notrunc, sparse, fsync and fdatasync act on the
# output file as GNU dd's do, and seek= cuts the file unless notrunc.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 5000 /dev/urandom > fix/in || framework_failure_
head -c 3000 /dev/urandom > fix/old || framework_failure_
{ head -c 65536 /dev/zero; printf x; head -c 65536 /dev/zero; } > fix/holey \
  || framework_failure_

diff_run_ notrunc dd if=in of=old conv=notrunc bs=100 count=3
diff_run_ trunc dd if=in of=old bs=100 count=3
diff_run_ seek-cuts dd if=in of=old bs=100 seek=1 count=1
diff_run_ seek-notrunc dd if=in of=old bs=100 seek=1 count=1 conv=notrunc
diff_run_ excl-exists dd if=in of=old conv=excl
diff_run_ excl-new dd if=in of=new conv=excl
diff_run_ nocreat-missing dd if=in of=new conv=nocreat
diff_run_ nocreat-exists dd if=in of=old conv=nocreat
diff_run_ sparse dd if=holey of=out conv=sparse bs=100
diff_run_ sparse-tail dd if=/dev/zero of=out conv=sparse bs=1000 count=10
diff_run_ sparse-pipe-out sh -c 'dd if=holey conv=sparse bs=100 | cat > out'
diff_run_ fsync dd if=in of=out conv=fsync
diff_run_ fdatasync dd if=in of=out conv=fdatasync

# The sparse copy really has holes where the blocks were zero.
dd if=fix/holey of=sparse conv=sparse bs=4096 status=none || fail=1
cmp fix/holey sparse || fail=1
test $fail = 1 || test "$(stat -c %b sparse)" -lt "$(stat -c %b fix/holey)" \
  || skip_ "this file system does not make holes"

Exit $fail
