#!/bin/sh
# cp refuses to write through a dangling destination symlink, which
# could make it create a file anywhere, with GNU cp's message.

# "cp a dang", where dang is a symlink to a file that does not exist:
#   cp: not writing through dangling symlink 'dang'   (exit 1)
# and not "cannot create regular file 'dang': File exists".

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/d || framework_failure_
printf 'new\n' > fix/a || framework_failure_
ln -s nowhere fix/dang && ln -s ../nowhere fix/d/a || framework_failure_

diff_run_ dangling cp a dang
diff_run_ dangling-in-dir cp a d

Exit $fail
