#!/bin/sh
# --remove-destination and -f replace destinations; a dangling symlink is not written through.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/d || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'b\n' > fix/b || framework_failure_
printf 'target\n' > fix/target || framework_failure_
ln -s target fix/link || framework_failure_
ln -s nowhere fix/dangling || framework_failure_
ln fix/b fix/b-hard || framework_failure_

diff_run_ remove cp --remove-destination a b
diff_run_ remove-verbose cp -v --remove-destination a b
diff_run_ remove-link cp --remove-destination a link
diff_run_ remove-missing cp --remove-destination -v a new
diff_run_ remove-hard-link cp --remove-destination a b-hard
diff_run_ through-link cp a link
diff_run_ dangling cp a dangling
diff_run_ dangling-force cp -f a dangling
diff_run_ dangling-remove cp --remove-destination a dangling
diff_run_ force cp -f a b
diff_run_ force-verbose cp -fv a b
diff_run_ force-long cp --force a b
diff_run_ truncates-in-place sh -c 'cp a b && test b -ef b-hard'

Exit $fail
