#!/bin/sh
# cp's diagnostics and exit status match GNU cp's on common errors.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/d || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'b\n' > fix/b || framework_failure_

diff_run_ no-args cp
diff_run_ one-arg cp a
diff_run_ missing-source cp nope x
diff_run_ missing-among-many cp a nope d
diff_run_ omit-dir cp d x
diff_run_ same-file cp a a
diff_run_ same-file-via-dir cp a ./
diff_run_ no-such-dest-dir cp a nodir/x
diff_run_ dest-not-dir cp a b/
diff_run_ many-to-file cp a b c
diff_run_ many-to-nondir cp a b b
diff_run_ file-onto-dir cp -T a d
diff_run_ t-not-dir cp -t a b
diff_run_ t-and-T cp -t d -T a
diff_run_ bad-option cp --no-such-option a b
diff_run_ extra-operand-T cp -T a b c

Exit $fail
