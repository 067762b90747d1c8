#!/bin/sh
# --attributes-only copies attributes and leaves the data alone.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d || framework_failure_
printf 'source data\n' > fix/a || framework_failure_
printf 'kept\n' > fix/existing || framework_failure_
printf 'x\n' > fix/d/x || framework_failure_
chmod 4751 fix/a || framework_failure_
touch -d '2003-01-01 00:00:00' fix/a || framework_failure_

diff_run_ new cp --attributes-only a new
diff_run_ existing cp --attributes-only a existing
DIFF_TIMES=1; export DIFF_TIMES
diff_run_ existing-p cp --attributes-only -p a existing
diff_run_ tree cp -a --attributes-only d copy

Exit $fail
