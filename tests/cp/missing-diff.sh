#!/bin/sh
# Sources that are missing, dangling or reached through a non-directory fail as in GNU cp.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d fix/x || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'xa\n' > fix/x/a || framework_failure_
ln -s nowhere fix/dangling || framework_failure_

diff_run_ missing cp nope new
diff_run_ missing-r cp -r nope new
diff_run_ dangling cp dangling new
diff_run_ dangling-r cp -r dangling new
diff_run_ enotdir-source cp a/b new
diff_run_ enotdir-dest cp a a/b
diff_run_ enotdir-dest-r cp -r d a/b
diff_run_ just-created cp a x/a d
diff_run_ just-created-verbose cp -v a x/a d
diff_run_ missing-then-ok cp nope a d
diff_run_ same-name-twice cp a a d
diff_run_ file-onto-dir cp a d/..
diff_run_ no-dest-dir cp a nodir/sub/x
diff_run_ empty-name cp '' new

Exit $fail
