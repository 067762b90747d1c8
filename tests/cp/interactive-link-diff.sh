#!/bin/sh
# -i through a destination link asks about what the link leads to: an
# unwritable target gets the question about its mode, unless the link
# itself is replaced (-b, --remove-destination).

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

require_root_
mkdir fix || framework_failure_
printf 'new\n' > fix/src || framework_failure_
printf 'read-only\n' > fix/target || framework_failure_
chmod 444 fix/target || framework_failure_
ln -s target fix/link || framework_failure_
chmod 777 fix || framework_failure_
chmod 755 . || framework_failure_
for t in i i-yes if if-yes i-remove i-b; do
  printf 'n\n' > $t.in || framework_failure_
done
printf 'y\n' > i-yes.in && printf 'y\n' > if-yes.in || framework_failure_

as_nobody='setpriv --reuid=65534 --regid=65534 --clear-groups'
$as_nobody true 2>/dev/null || skip_ "setpriv cannot switch to uid 65534"

diff_run_ i $as_nobody cp -i src link
diff_run_ i-yes $as_nobody cp -i src link
diff_run_ if $as_nobody cp -if src link
diff_run_ if-yes $as_nobody cp -if src link
diff_run_ i-remove $as_nobody cp -i --remove-destination src link
diff_run_ i-b $as_nobody cp -ib src link

Exit $fail
