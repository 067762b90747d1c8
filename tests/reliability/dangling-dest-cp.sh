#!/bin/sh
# cp refuses to write through a dangling destination symlink, which
# could make it create a file anywhere, with GNU cp's message.

# Expected to fail until src/copy.c is fixed.  "cp a dang", where dang
# is a symlink to a file that does not exist:
#   GNU:  cp: not writing through dangling symlink 'dang'   (exit 1)
#   ours: cp: cannot create regular file 'dang': File exists (exit 1)
# Ours does not follow the link either; only the message differs.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/d || framework_failure_
printf 'new\n' > fix/a || framework_failure_
ln -s nowhere fix/dang && ln -s ../nowhere fix/d/a || framework_failure_

diff_run_ dangling cp a dang
diff_run_ dangling-in-dir cp a d

Exit $fail
