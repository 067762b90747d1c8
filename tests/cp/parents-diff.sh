#!/bin/sh
# --parents recreates each source's leading directories under the target.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/t fix/e/sub || framework_failure_
printf 'a\n' > fix/d/sub/a || framework_failure_
printf 'b\n' > fix/b || framework_failure_
chmod 750 fix/d || framework_failure_
chmod 700 fix/d/sub || framework_failure_
touch -d '2004-05-06 07:08:09' fix/d fix/d/sub fix/d/sub/a || framework_failure_
mkdir -p fix/t2/d || framework_failure_
printf 'x\n' > fix/t3 || framework_failure_
mkdir fix/t4 && printf 'not a dir\n' > fix/t4/d || framework_failure_
printf 'not a dir\n' > fix/t4/gone || framework_failure_

diff_run_ file cp --parents d/sub/a t
diff_run_ verbose cp -v --parents d/sub/a t
diff_run_ existing-parent cp -v --parents d/sub/a t2
diff_run_ two cp --parents d/sub/a b t
diff_run_ dir-no-r cp --parents d/sub t
diff_run_ dir-r cp -rv --parents d/sub/ t
diff_run_ target-not-dir cp --parents d/sub/a t3
diff_run_ parent-is-file cp --parents d/sub/a t4
# A non-directory in the way is refused before the source is looked at.
diff_run_ parent-is-file-no-source cp --parents gone/. t4
diff_run_ t-option cp --parents -t t d/sub/a
diff_run_ umask sh -c 'umask 077 && cp --parents d/sub/a t'
DIFF_TIMES=1; export DIFF_TIMES
diff_run_ p sh -c 'cp -p --parents d/sub/a t; r=$?; touch -d 2000-01-01 t; exit $r'
unset DIFF_TIMES

Exit $fail
