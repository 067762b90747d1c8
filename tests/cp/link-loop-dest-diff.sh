#!/bin/sh
# A destination that is a loop of symbolic links can't be opened; -f
# replaces it with the copy, without asking or comparing times first,
# while without -f it is an error.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/d || framework_failure_
printf 'data\n' > fix/f || framework_failure_
ln -s f fix/to-f || framework_failure_
ln -s self fix/self || framework_failure_
ln -s pong fix/ping || framework_failure_
ln -s ping fix/pong || framework_failure_
ln -s deep/x fix/deep || framework_failure_
printf 'n\n' > fi.in || framework_failure_
cp fi.in fn.in || framework_failure_

diff_run_ f cp -f f self
diff_run_ plain cp f self
diff_run_ fT cp -fT f self
diff_run_ fv cp -fv f self
diff_run_ fa cp -fa f self
diff_run_ fL cp -fL f self
diff_run_ fH cp -fH to-f self
diff_run_ fP cp -fP to-f self
diff_run_ fu cp -fu f self
diff_run_ fi cp -fi f self
diff_run_ fn cp -fn f self
diff_run_ f-attr cp -f --attributes-only f self
diff_run_ posix env POSIXLY_CORRECT=1 cp -f f self
diff_run_ pair cp -f f ping
diff_run_ deep cp -f f deep
diff_run_ u cp -u f self
diff_run_ dir cp -rf d self
diff_run_ b cp -fb f self

Exit $fail
