#!/bin/sh
# Permission errors seen by an unprivileged user: unreadable sources, unwritable directories, -f.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

require_root_
mkdir -p fix/ro fix/locked fix/d || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'secret\n' > fix/secret || framework_failure_
printf 'x\n' > fix/locked/x || framework_failure_
printf 'protected\n' > fix/protected || framework_failure_
printf 's\n' > fix/suid || framework_failure_
printf 'inside\n' > fix/d/in || framework_failure_
chmod 000 fix/secret || framework_failure_
chmod 555 fix/ro || framework_failure_
chmod 700 fix/locked || framework_failure_
chmod 444 fix/protected || framework_failure_
chmod 4755 fix/suid || framework_failure_
printf 'setuid, read-only\n' > fix/ro-suid || framework_failure_
chmod 4444 fix/ro-suid || framework_failure_
printf 'n\n' > i-unwritable.in || framework_failure_
printf 'n\n' > i-unwritable-f.in || framework_failure_
printf 'n\n' > i-unwritable-r.in || framework_failure_
printf 'y\n' > i-unwritable-yes.in || framework_failure_
printf 'n\n' > i-root.in || framework_failure_
chmod 777 fix || framework_failure_
chmod 755 . || framework_failure_

as_nobody='setpriv --reuid=65534 --regid=65534 --clear-groups'
$as_nobody true 2>/dev/null || skip_ "setpriv cannot switch to uid 65534"

diff_run_ unreadable $as_nobody cp secret new
diff_run_ unwritable-dir $as_nobody cp a ro/
diff_run_ unsearchable $as_nobody cp locked/x new
diff_run_ unreadable-dir $as_nobody cp -r locked new
diff_run_ unwritable-file $as_nobody cp a protected
diff_run_ force-unwritable-file $as_nobody cp -f a protected
diff_run_ p-ownership-dropped $as_nobody cp -p suid new
diff_run_ preserve-ownership $as_nobody cp --preserve=ownership a new
diff_run_ a-tree $as_nobody cp -a d copy
diff_run_ i-unwritable $as_nobody cp -i a protected
diff_run_ i-unwritable-f $as_nobody cp -if a ro-suid
diff_run_ i-unwritable-r $as_nobody cp -i --remove-destination a ro-suid
diff_run_ i-unwritable-yes $as_nobody cp -i a protected
diff_run_ i-root cp -i a protected
diff_run_ remove-destination-ro $as_nobody cp --remove-destination a ro/x

Exit $fail
