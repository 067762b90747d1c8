#!/bin/sh
# -R copies directory trees, refuses to copy a directory into itself and omits directories without -R.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub/deeper fix/e fix/empty fix/chain/sub/deeper \
  fix/loop/sub || framework_failure_
printf 'c\n' > fix/chain/sub/deeper/c || framework_failure_
printf 'a\n' > fix/d/a || framework_failure_
printf 'b\n' > fix/d/sub/b || framework_failure_
printf 'c\n' > fix/d/sub/deeper/c || framework_failure_
printf 'f\n' > fix/f || framework_failure_
chmod 750 fix/d/sub || framework_failure_

diff_run_ new-tree cp -R d copy
diff_run_ lowercase-r cp -r d copy
diff_run_ long-option cp --recursive d copy
diff_run_ into-existing cp -r d e
diff_run_ merge-twice sh -c 'cp -r d copy && cp -r d/. copy'
diff_run_ verbose cp -rv chain copy
diff_run_ empty-dir cp -r empty e2
# cp stops reading a directory once it meets the copy it is making
# inside it, and where that new entry sorts among the others depends
# on the inode the file system gives it, separately for each side.
# So the directory copied into itself holds nothing else.
diff_run_ into-itself cp -r empty empty/x
diff_run_ into-itself-deep cp -r loop loop/sub/x
diff_run_ into-itself-verbose cp -rv loop loop/sub/x
diff_run_ onto-itself-dir cp -r empty empty
diff_run_ omit-dir cp d f e
diff_run_ omit-dir-many cp d f d/sub e
diff_run_ dir-onto-file cp -r d f
diff_run_ dir-onto-file-T cp -rT d f
diff_run_ new-dest-slash cp -r d copy/
diff_run_ file-and-dir cp -r f d e
diff_run_ T-merge cp -rT d e

Exit $fail
