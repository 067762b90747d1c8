#!/bin/sh
# Two operands with one name: the second copy backs up the first when
# backups are numbered, and is refused with the other backup types.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/a fix/b fix/c fix/d || framework_failure_
printf 'a\n' > fix/a/f || framework_failure_
printf 'b\n' > fix/b/f || framework_failure_
printf 'old\n' > fix/d/f || framework_failure_

diff_run_ numbered cp --backup=numbered a/f b/f c
diff_run_ numbered-verbose cp -v --backup=numbered a/f b/f c
diff_run_ numbered-existing-dest cp --backup=numbered a/f b/f d
diff_run_ numbered-f cp -f --backup=numbered a/f b/f c
diff_run_ numbered-l cp -l --backup=numbered a/f b/f c
diff_run_ numbered-u cp -u --backup=numbered a/f b/f c
diff_run_ simple cp --backup=simple a/f b/f c
diff_run_ existing cp --backup=existing a/f b/f c
diff_run_ b cp -b a/f b/f c
diff_run_ existing-numbered sh -c 'touch c/f.~1~ && cp --backup=existing a/f b/f c'
diff_run_ three cp --backup=numbered a/f b/f a/f c

Exit $fail
