#!/bin/sh
# -s makes symbolic links instead of copies; relative ones only in the working directory.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'b\n' > fix/b || framework_failure_

diff_run_ symlink cp -s a new
diff_run_ symlink-long cp --symbolic-link a new
diff_run_ verbose cp -sv a new
diff_run_ relative-elsewhere cp -s a d/new
diff_run_ relative-dotdot cp -s a d/../new
diff_run_ relative-dot cp -s a ./new
diff_run_ exists cp -s a b
diff_run_ exists-force cp -sf a b
diff_run_ into-dir-relative cp -s a b d
diff_run_ same cp -s a a
diff_run_ dir-no-r cp -s d new
diff_run_ dir-r-relative cp -rs d new
diff_run_ absolute-elsewhere cp -sv /dev/null d/null

Exit $fail
