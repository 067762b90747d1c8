#!/bin/sh
# Skipping past the end of the input is reported on standard error at
# every status= level but none, which prints nothing at all.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
printf 'twelve bytes' > fix/in || framework_failure_

for level in none noxfer progress none,noxfer noxfer,none; do
  diff_run_ file-$level dd if=in of=out skip=2 status=$level
  diff_run_ bytes-$level dd if=in of=out skip=13B bs=4 status=$level
  diff_run_ pipe-$level sh -c "cat in | dd of=out skip=3 status=$level"
done
diff_run_ default dd if=in of=out skip=2
diff_run_ none-later dd if=in of=out skip=2 status=noxfer status=none

Exit $fail
