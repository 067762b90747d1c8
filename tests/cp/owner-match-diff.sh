#!/bin/sh
# -a and -p give a new file the source's owner and group whether or not
# it was created with them: a set-group-ID directory gives its own
# group, which the copy must not keep.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_root_

mkdir fix fix/sg fix/t || framework_failure_
printf 'a\n' > fix/mine || framework_failure_
printf 'b\n' > fix/theirs || framework_failure_
printf 'c\n' > fix/setid || framework_failure_
printf 'd\n' > fix/t/f || framework_failure_
chown nobody:nogroup fix/theirs || framework_failure_
chmod 6755 fix/setid || framework_failure_
chgrp nogroup fix/sg || framework_failure_
chmod 2775 fix/sg || framework_failure_
cp fix/mine fix/sg/old || framework_failure_

diff_run_ same-owner cp -a mine copy
diff_run_ other-owner cp -a theirs copy
diff_run_ set-id cp -a setid copy
diff_run_ set-id-p cp -p setid copy
diff_run_ sgid-dir cp -a mine sg
diff_run_ sgid-dir-p cp -p setid sg
diff_run_ sgid-dir-plain cp mine sg
# The directory made there inherits the set-group-ID bit, which the
# source's permissions, preserved exactly, take away.
diff_run_ sgid-dir-tree cp -a t sg
diff_run_ sgid-dir-tree-r cp -r t sg
diff_run_ sgid-existing cp -a mine sg/old
diff_run_ sgid-existing-p cp -p theirs sg/old

Exit $fail
