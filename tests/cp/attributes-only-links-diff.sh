#!/bin/sh
# --attributes-only onto an existing file keeps its data and its other
# names: a destination with several links is not recreated, and a
# link, FIFO or device copied as itself is not made in its place
# (only --remove-destination, -b, or -f for a link, replace it).

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix || framework_failure_
printf 'new attributes\n' > fix/src || framework_failure_
chmod 640 fix/src || framework_failure_
printf 'precious data\n' > fix/dst || framework_failure_
ln fix/dst fix/dst-other-name || framework_failure_
printf 'lone data\n' > fix/lone || framework_failure_
ln -s src fix/link || framework_failure_
ln -s nowhere fix/dangling || framework_failure_
mkfifo fix/fifo || framework_failure_

diff_run_ a-linked cp -a --attributes-only src dst
diff_run_ links-linked cp --attributes-only --preserve=links src dst
diff_run_ a-link-src cp -a --attributes-only link lone
diff_run_ P-link-src cp -P --attributes-only link lone
diff_run_ link-onto-dangling cp -a --attributes-only link dangling
diff_run_ link-onto-linked cp -a --attributes-only link dst
diff_run_ fifo-a cp -a --attributes-only fifo lone
diff_run_ fifo-R cp -R --attributes-only fifo lone
diff_run_ fifo-Rf cp -Rf --attributes-only fifo lone
diff_run_ link-f cp -Pf --attributes-only link lone
diff_run_ link-fv cp -afv --attributes-only link dst
diff_run_ link-f-dangling cp -Pf --attributes-only link dangling
diff_run_ link-b cp -Pb --attributes-only link lone
diff_run_ link-remove cp -a --remove-destination --attributes-only link lone
diff_run_ remove-linked cp --remove-destination --attributes-only src dst

Exit $fail
