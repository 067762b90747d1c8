#!/bin/sh
# --backup, -b, -S and the VERSION_CONTROL and SIMPLE_BACKUP_SUFFIX variables name backups as GNU cp does.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/d || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'b\n' > fix/b || framework_failure_
printf 'c\n' > fix/c || framework_failure_
printf 'b1\n' > fix/c.~1~ || framework_failure_
printf 'old\n' > fix/d/a || framework_failure_

diff_run_ b cp -b a b
diff_run_ b-verbose cp -bv a b
diff_run_ simple cp --backup=simple a b
diff_run_ never cp --backup=never a b
diff_run_ numbered cp --backup=numbered a b
diff_run_ numbered-t cp --backup=t a b
diff_run_ numbered-twice sh -c 'cp --backup=t a b && cp --backup=t -v c b'
diff_run_ existing-numbered cp --backup=existing -v a c
diff_run_ existing-simple cp --backup=nil -v a b
diff_run_ none cp --backup=none a b
diff_run_ off cp --backup=off -v a b
diff_run_ suffix cp -S .bak -v a b
diff_run_ suffix-long cp --suffix=.orig a b
diff_run_ into-dir cp -bv a d
diff_run_ no-dest cp -bv a new
diff_run_ env-version-control env VERSION_CONTROL=numbered cp -bv a b
diff_run_ env-suffix env SIMPLE_BACKUP_SUFFIX=.sav cp -bv a b
diff_run_ env-bad env VERSION_CONTROL=bogus cp -b a b
diff_run_ arg-beats-env env VERSION_CONTROL=numbered cp --backup=simple -v a b
diff_run_ bad-type cp --backup=bogus a b
diff_run_ ambiguous-type cp --backup=n a b
printf 'old b\n' > fix/b~ || framework_failure_
diff_run_ destroys-source cp -b b~ b
diff_run_ force-same cp -bf a a
diff_run_ force-same-verbose cp -bfv a a
diff_run_ same-no-force cp -b a a
diff_run_ with-no-clobber cp -bn a b

Exit $fail
