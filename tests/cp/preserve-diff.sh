#!/bin/sh
# -p, --preserve and --no-preserve keep or drop mode, owner, times and set-ID bits.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/t || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 's\n' > fix/suid || framework_failure_
printf 'b\n' > fix/d/sub/b || framework_failure_
printf 'old\n' > fix/existing || framework_failure_
chmod 4755 fix/suid || framework_failure_
chmod 2750 fix/d/sub || framework_failure_
chmod 1757 fix/d || framework_failure_
chmod 640 fix/a || framework_failure_
chown 65534:65534 fix/a fix/d/sub/b fix/suid 2>/dev/null
touch -d '2002-03-04 05:06:07.987654321' fix/a fix/suid fix/d/sub/b \
  fix/d/sub fix/d || framework_failure_

DIFF_TIMES=ns; export DIFF_TIMES
diff_run_ p cp -p a suid new
diff_run_ p-tree cp -rp d copy
diff_run_ preserve-default cp --preserve a new
diff_run_ preserve-all cp --preserve=all a new
diff_run_ preserve-times cp --preserve=timestamps a new
diff_run_ preserve-list cp --preserve=mode,timestamps a new
diff_run_ p-no-mode cp -p --no-preserve=mode a new
diff_run_ p-existing cp -p a existing
unset DIFF_TIMES
diff_run_ a-no-all cp -a --no-preserve=all d copy
diff_run_ no-preserve-mode-exec cp --no-preserve=mode suid new
diff_run_ preserve-mode cp --preserve=mode suid new
diff_run_ preserve-ownership cp --preserve=ownership a new
diff_run_ suid-dropped cp suid new
diff_run_ dir-modes cp -r d copy
diff_run_ umask-077 sh -c 'umask 077 && cp -r d a copy && cp -p a p77'
diff_run_ existing-keeps-mode cp suid existing
diff_run_ bad-attr cp --preserve=mode,bogus a new
diff_run_ bad-no-preserve cp --no-preserve=foo a new
diff_run_ ambiguous-attr cp --preserve=m a new

Exit $fail
