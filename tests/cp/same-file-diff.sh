#!/bin/sh
# Copying a file onto itself, through hard or symbolic links, is refused as GNU cp refuses it.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/d || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'b\n' > fix/b || framework_failure_
ln fix/a fix/hard || framework_failure_
ln -s a fix/soft || framework_failure_
ln -s b fix/soft-b || framework_failure_
ln -s soft fix/soft-soft || framework_failure_

diff_run_ same-name cp a a
diff_run_ dot-slash cp a ./a
diff_run_ hard-link cp a hard
diff_run_ dest-symlink cp a soft
diff_run_ src-symlink cp soft a
diff_run_ P-src-symlink cp -P soft a
diff_run_ P-unrelated cp -P soft-b a
diff_run_ symlink-chain cp a soft-soft
diff_run_ P-same-link cp -P soft soft
diff_run_ remove-dest-soft cp --remove-destination a soft
diff_run_ remove-dest-same cp --remove-destination a a
diff_run_ remove-dest-same-dot cp --remove-destination a ./a
diff_run_ dir-T cp -rT d d
diff_run_ R-file-symlink cp -R a soft
diff_run_ a-same cp -a a a

Exit $fail
