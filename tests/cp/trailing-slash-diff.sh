#!/bin/sh
# Trailing slashes on sources and destinations, and
# --strip-trailing-slashes: a source copied into a directory loses its
# trailing slashes before it is looked up, so a symbolic link to a
# directory named with a slash is a link again, and messages name the
# source without them.  GNU cp 9.10 keeps them where a source is copied
# to a name (two operands).

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/t || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'c\n' > fix/d/sub/c || framework_failure_
ln -s d fix/to-d || framework_failure_
ln -s a fix/to-a || framework_failure_
ln -s nowhere fix/dangling || framework_failure_

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

diff_run_ strip-link-r-t cp -rv --strip-trailing-slashes -t t to-d/
diff_run_ strip-link-r-dir cp -rv --strip-trailing-slashes to-d// t
diff_run_ strip-link-P-dir cp -Pv --strip-trailing-slashes to-d/ t
diff_run_ strip-link-H-dir cp -rHv --strip-trailing-slashes to-d/ t
diff_run_ strip-link-no-r cp -v --strip-trailing-slashes to-d/ t
diff_run_ strip-dir-no-r cp -v --strip-trailing-slashes d/// t
diff_run_ strip-file-slash cp -v --strip-trailing-slashes a// t
diff_run_ strip-file-link-slash cp -v --strip-trailing-slashes to-a/ t
diff_run_ strip-dangling-slash cp -Pv --strip-trailing-slashes dangling/ t
diff_run_ strip-missing-slash cp -v --strip-trailing-slashes nowhere/ t
diff_run_ strip-parents cp -rv --parents --strip-trailing-slashes to-d/ d/sub/ t
diff_run_ strip-abbreviated cp -rv --st -t t to-d/
diff_run_ strip-two-operands cp -rv --strip-trailing-slashes to-d/ copy
diff_run_ strip-two-operands-file cp -v --strip-trailing-slashes a/ copy

Exit $fail
