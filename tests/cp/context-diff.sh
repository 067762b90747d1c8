#!/bin/sh
# -Z, --context and --preserve=context behave as GNU cp's do without SELinux.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

test -d /sys/fs/selinux && skip_ "SELinux is enabled here"
mkdir fix || framework_failure_
printf 'a\n' > fix/a || framework_failure_

diff_run_ Z cp -Z a new
diff_run_ context cp --context a new
diff_run_ context-ctx cp --context=system_u:object_r:tmp_t:s0 a new
diff_run_ preserve-context cp --preserve=context a new
diff_run_ a-preserve-context cp -a --preserve=context a new
diff_run_ preserve-all cp --preserve=all a new
diff_run_ a cp -a a new
diff_run_ no-preserve-context cp --preserve=context --no-preserve=context a new

Exit $fail
