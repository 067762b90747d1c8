#!/bin/sh
# -l makes hard links instead of copies, following symbolic links unless -P.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/t || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'b\n' > fix/b || framework_failure_
printf 'c\n' > fix/d/sub/c || framework_failure_
ln -s a fix/soft || framework_failure_
ln -s ../a fix/d/up || framework_failure_

diff_run_ link cp -l a new
diff_run_ link-long cp --link a new
diff_run_ link-verbose cp -lv a new
diff_run_ into-dir cp -l a b t
diff_run_ exists cp -l a b
diff_run_ exists-force cp -lf a b
diff_run_ same-again sh -c 'cp -l a x && cp -lv a x'
diff_run_ follows cp -l soft new
diff_run_ P cp -lP soft new
diff_run_ tree cp -rl d copy
diff_run_ with-s cp -l -s a new
diff_run_ dir-no-r cp -l d copy

Exit $fail
