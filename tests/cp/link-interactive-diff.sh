#!/bin/sh
# -l -i: a destination the user agrees to replace is replaced by the link.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/s fix/t || framework_failure_
printf 's\n' > fix/s/f || framework_failure_
printf 't\n' > fix/t/f || framework_failure_
printf 'y\n' > yes.in || framework_failure_
printf 'n\n' > no.in || framework_failure_

cp yes.in li-yes.in && diff_run_ li-yes cp -li s/f t/f
cp yes.in liv-yes.in && diff_run_ liv-yes cp -liv s/f t/f
cp yes.in lib-yes.in && diff_run_ lib-yes cp -lib s/f t/f
cp no.in li-no.in && diff_run_ li-no cp -li s/f t/f
cp yes.in li-dir-yes.in && diff_run_ li-dir-yes cp -li s/f t
diff_run_ lu cp -lu s/f t/f

Exit $fail
