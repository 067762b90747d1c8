#!/bin/sh
# Destinations that are symbolic links to directories, and symbolic links as parents.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/g || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'a\n' > fix/d/a || framework_failure_
ln -s d fix/to-d || framework_failure_
ln -s ../a fix/g/outside || framework_failure_

diff_run_ P-link-into-dir cp -P to-d g
diff_run_ rT-link cp -rT d to-d
diff_run_ into-link-dir cp a to-d
diff_run_ T-link-dir cp -T a to-d
diff_run_ double-slash cp a d//
diff_run_ parents-link cp -v --parents to-d/a g
diff_run_ H-inside cp -rH to-d copy
diff_run_ rs-abs cp -rs /dev/null g/x
diff_run_ copy-link-target cp -r g copy
diff_run_ s-dir cp -rs d copy

Exit $fail
