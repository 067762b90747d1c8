#!/bin/sh
# --preserve=links keeps hard links among the copies, also where -L makes them.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/t || framework_failure_
printf 'a\n' > fix/d/a || framework_failure_
ln fix/d/a fix/d/sub/hard || framework_failure_
ln -s a fix/d/sl || framework_failure_
printf 'b\n' > fix/b || framework_failure_
ln fix/b fix/b2 || framework_failure_
ln -s b fix/to-b || framework_failure_

diff_run_ tree cp -r --preserve=links d copy
diff_run_ tree-without cp -r d copy
diff_run_ operands cp --preserve=links b b2 t
diff_run_ L-tree cp -rL --preserve=links d copy
diff_run_ L-operands cp -L --preserve=links b to-b t
diff_run_ no-preserve-links cp -a --no-preserve=links d copy

Exit $fail
