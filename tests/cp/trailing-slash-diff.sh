#!/bin/sh
# Trailing slashes on sources and destinations, and --strip-trailing-slashes.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/t || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'c\n' > fix/d/sub/c || framework_failure_
ln -s d fix/to-d || framework_failure_
ln -s a fix/to-a || framework_failure_

diff_run_ dir-slash-source cp -r d/ copy
diff_run_ dir-slashes-source cp -r d// t
diff_run_ link-slash-follows cp -r to-d/ copy
diff_run_ strip-link cp -r --strip-trailing-slashes to-d/ copy
diff_run_ strip-file cp --strip-trailing-slashes a/ new
diff_run_ file-slash cp a/ new
diff_run_ file-link-slash cp to-a/ new
diff_run_ new-dest-slash cp a new/
diff_run_ existing-dir-slash cp a t/
diff_run_ r-new-dest-slash cp -r d copy/
diff_run_ T-slash cp -T a t/

Exit $fail
