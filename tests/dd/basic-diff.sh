#!/bin/sh
# dd copies with the operands of the foundation (if of bs ibs obs count
# skip seek status) and reports exactly as GNU dd does.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 100000 /dev/urandom > fix/in || framework_failure_
printf 'x' > fix/one || framework_failure_
: > fix/empty || framework_failure_
head -c 3000 /dev/urandom > fix/out-existing || framework_failure_

diff_run_ default dd if=in of=out
diff_run_ bs dd if=in of=out bs=4096
diff_run_ ibs-obs dd if=in of=out ibs=1000 obs=3000
diff_run_ count dd if=in of=out bs=1000 count=7
diff_run_ skip dd if=in of=out bs=1000 skip=3
diff_run_ skip-past-end dd if=in of=out bs=1000 skip=300
diff_run_ seek dd if=one of=out-existing bs=100 seek=5
diff_run_ seek-new dd if=one of=new bs=100 seek=5
diff_run_ one-byte dd if=one of=out
diff_run_ empty dd if=empty of=out
diff_run_ status-none dd if=in of=out status=none
diff_run_ status-noxfer dd if=in of=out status=noxfer
diff_run_ stdout dd if=in bs=10000 count=2
diff_run_ missing-input dd if=nope of=out
diff_run_ missing-outdir dd if=in of=nodir/out
diff_run_ kilo dd if=in of=out bs=1000 count=1
diff_run_ kibi dd if=in of=out bs=1024 count=1
diff_run_ mega dd if=in of=out bs=1M

# Standard input from a pipe gives partial records as GNU counts them.
cp fix/in stdin.in || framework_failure_
diff_run_ stdin dd of=out bs=7000

Exit $fail
