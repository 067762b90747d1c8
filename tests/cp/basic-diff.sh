#!/bin/sh
# cp copies regular files to a name and into a directory as GNU cp does.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/d || framework_failure_
printf 'alpha\n' > fix/a || framework_failure_
printf 'beta\n' > fix/b || framework_failure_
: > fix/empty || framework_failure_
printf 'old contents, longer than the new\n' > fix/existing \
  || framework_failure_
chmod 640 fix/b || framework_failure_

diff_run_ to-new-name cp a new
diff_run_ into-dir cp a b d
diff_run_ into-dir-slash cp a d/
diff_run_ empty-file cp empty e2
diff_run_ overwrite-truncates cp a existing
diff_run_ keeps-dest-mode cp b existing
diff_run_ target-dir cp -t d a b
diff_run_ no-target-dir cp -T a d2
diff_run_ verbose cp -v a b d

Exit $fail
