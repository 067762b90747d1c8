#!/bin/sh
# FIFOs, device nodes and sockets are recreated with -R and read as data without it.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

require_root_
mkdir -p fix/d || framework_failure_
printf 'a\n' > fix/a || framework_failure_
special_files_ fix fix/d

diff_run_ fifo-r cp -r fifo new
diff_run_ fifo-a cp -a fifo new
diff_run_ device-r cp -R null new
diff_run_ device-plain cp null new
diff_run_ device-copy-contents cp -R --copy-contents null new
diff_run_ socket-r cp -r sock new
diff_run_ socket-plain cp sock new
diff_run_ tree cp -a d copy
diff_run_ tree-verbose-over cp -rv fifo a
diff_run_ onto-existing-device sh -c 'cp -r null a && cp -rv fifo a'

Exit $fail
