#!/bin/sh
# -P, -L and -H choose which symbolic links in the sources are followed.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/t || framework_failure_
printf 'a\n' > fix/d/a || framework_failure_
ln -s a fix/d/to-a || framework_failure_
ln -s sub fix/d/to-sub || framework_failure_
ln -s d fix/to-d || framework_failure_
ln -s d/a fix/to-file || framework_failure_
ln -s nowhere fix/dangling || framework_failure_
# Each directory holds one cycle, so the diagnostics come in one order.
mkdir -p fix/loop fix/up/sub || framework_failure_
printf 'l\n' > fix/loop/f || framework_failure_
ln -s . fix/loop/self || framework_failure_
ln -s .. fix/up/sub/back || framework_failure_

diff_run_ default-follows cp to-file t
diff_run_ P-file cp -P to-file t
diff_run_ no-dereference-long cp --no-dereference to-file t/x
diff_run_ L-file cp -L to-file t
diff_run_ H-file cp -H to-file t
diff_run_ r-keeps-links cp -r to-d copy
diff_run_ r-slash-follows cp -r to-d/ copy
diff_run_ rL cp -rL to-d copy
diff_run_ rH cp -rH to-d copy
diff_run_ rP cp -rP d copy
diff_run_ dereference-long cp -R --dereference d copy
diff_run_ dangling-default cp dangling t
diff_run_ dangling-P cp -P dangling t
diff_run_ dangling-L cp -rL dangling t
diff_run_ last-wins cp -L -P to-file t
diff_run_ cyclic-self cp -rL loop copy
diff_run_ cyclic-up cp -rL up copy
diff_run_ cyclic-H cp -rH loop/self copy

Exit $fail
