#!/bin/sh
# Copying a tree onto an existing one: merging, replacing, refusing, and what -v says.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/e/d fix/f/d/a fix/g fix/m/d fix/n/d || framework_failure_
printf 'a\n' > fix/d/a || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'z\n' > fix/e/d/a || framework_failure_
ln -s a fix/d/sl || framework_failure_
ln -s sub fix/d/to-sub || framework_failure_
ln -s d fix/to-d || framework_failure_
mkdir fix/empty && ln -s empty fix/to-empty || framework_failure_
mkfifo fix/e/d/sl || framework_failure_
printf 'z\n' > fix/g/d || framework_failure_
printf 'm\n' > fix/m/d/a || framework_failure_
printf 'n\n' > fix/n/d/a || framework_failure_
printf 'y\n' > i-merge.in || framework_failure_
printf 'n\n' > i-merge-no.in || framework_failure_

# Output is sorted: the order of a directory's entries depends on the
# file system.
diff_run_ rv-existing sh -c 'cp -rv d e > o; r=$?; sort o; rm o; exit $r'
diff_run_ remove-r sh -c 'cp -rv --remove-destination d e > o; r=$?; sort o; rm o; exit $r'
diff_run_ bv-tree sh -c 'cp -rbv d e > o; r=$?; sort o; rm o; exit $r'
diff_run_ i-merge cp -riT m n
diff_run_ i-merge-no cp -riT m n
diff_run_ n-dir cp -rn d e
diff_run_ u-dir cp -ru d e
diff_run_ l-dir-exists sh -c 'cp -rl d e 2> o; r=$?; sort o >&2; rm o; exit $r'
diff_run_ dir-onto-file-inside cp -r d g
diff_run_ file-onto-dir-inside cp -r d f
diff_run_ a-link-onto-file cp -a d/sl g/d
diff_run_ a-onto-link cp -a a d/sl
# Copying a directory into itself through a link to it.  The directory
# is otherwise empty: where the new entry sorts among others depends
# on the inode each side's file system gives it (see recursive-diff).
diff_run_ into-self-via-link cp -r empty to-empty

Exit $fail
