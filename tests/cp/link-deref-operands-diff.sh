#!/bin/sh
# With -H or -L and --preserve=links, operands that lead to one file
# are copied as links to one copy, even when the file has one name.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/t || framework_failure_
printf 'a\n' > fix/a || framework_failure_
ln -s a fix/la || framework_failure_
ln -s a fix/lb || framework_failure_

diff_run_ H cp -H --preserve=links la lb t
diff_run_ L cp -L --preserve=links la lb t
diff_run_ aH cp -aH la lb t
diff_run_ aL cp -aL la lb a t
diff_run_ aH-file cp -aH la a t
diff_run_ H-no-preserve cp -H la lb t
diff_run_ a cp -a la lb a t
diff_run_ RH cp -RH --preserve=links a la t

Exit $fail
