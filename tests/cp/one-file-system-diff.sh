#!/bin/sh
# -x copies a mount point found inside a tree but not what is mounted there.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_root_

mkdir -p src/m src/sub || framework_failure_
printf 'a\n' > src/a || framework_failure_
printf 'b\n' > src/sub/b || framework_failure_
cleanup_ () { umount "$src/m" 2>/dev/null; }
src=$PWD/src
mount -t tmpfs cpdd-test "$src/m" || skip_ "cannot mount a tmpfs here"
printf 'mounted\n' > "$src/m/f" || framework_failure_
mkdir "$src/m/deeper" || framework_failure_

diff_run_ x cp -rx "$src" copy
diff_run_ one-file-system cp -r --one-file-system "$src" copy
diff_run_ without cp -r "$src" copy
diff_run_ x-verbose sh -c 'mkdir copy && cp -rvx "$1/sub" "$1/m" copy' sh "$src"
diff_run_ x-operand cp -rx "$src/m" copy
diff_run_ x-archive cp -ax "$src" copy

Exit $fail
