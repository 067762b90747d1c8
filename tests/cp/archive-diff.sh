#!/bin/sh
# -a and -d copy symbolic links, FIFOs and hard links as such and keep modes, owners and times.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/t fix/chain/sub || framework_failure_
printf 'c\n' > fix/chain/sub/c || framework_failure_
printf 'a\n' > fix/d/a || framework_failure_
ln fix/d/a fix/d/sub/hard || framework_failure_
ln -s a fix/d/rel-link || framework_failure_
ln -s /nonexistent fix/d/dangling || framework_failure_
ln -s sub fix/d/dir-link || framework_failure_
mkfifo fix/d/fifo || framework_failure_
chmod 600 fix/d/a || framework_failure_
chmod 711 fix/d/sub || framework_failure_
touch -d '2001-02-03 04:05:06.123456789' fix/d/sub fix/d/a fix/d \
  || framework_failure_
printf 'x\n' > fix/x || framework_failure_
ln fix/x fix/y || framework_failure_

DIFF_TIMES=ns; export DIFF_TIMES
diff_run_ archive cp -a d copy
diff_run_ archive-long cp --archive d copy
diff_run_ archive-verbose cp -av chain copy
unset DIFF_TIMES
diff_run_ archive-into cp -a d t
diff_run_ archive-again sh -c 'cp -a d copy && cp -a d copy'
diff_run_ archive-links-across-operands cp -a x y t
diff_run_ d-option cp -d d/rel-link d/dangling t
diff_run_ d-links-across-operands cp -d x y t
diff_run_ d-recursive cp -dR d copy
diff_run_ link-no-d cp x y t

Exit $fail
