#!/bin/sh
# conv=swab swaps byte pairs, carrying an odd byte across input blocks,
# and writes a final odd byte unswapped.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
printf 'abcdefghijklmnopq' > fix/odd || framework_failure_
head -c 10000 /dev/urandom > fix/rand || framework_failure_

diff_run_ swab-odd dd if=odd of=out conv=swab
diff_run_ swab-odd-ibs dd if=odd of=out conv=swab ibs=3 obs=5
diff_run_ swab-bs dd if=rand of=out conv=swab bs=777
diff_run_ swab-ucase dd if=odd of=out conv=swab,ucase ibs=1

Exit $fail
