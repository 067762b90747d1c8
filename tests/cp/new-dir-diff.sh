#!/bin/sh
# What goes into a directory the copy made is created there without
# asking about an earlier file of its name, whatever the options that
# ask about one: -i, -n, -u, --backup, -f, --remove-destination.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/t fix/t/sub fix/old fix/s fix/s/in || framework_failure_
printf 'a\n' > fix/t/f || framework_failure_
printf 'b\n' > fix/t/sub/g || framework_failure_
ln -s f fix/t/l || framework_failure_
ln fix/t/f fix/t/hard || framework_failure_
mkfifo fix/t/p || framework_failure_
printf 'x\n' > fix/old/f || framework_failure_

diff_run_ plain cp -r t new
diff_run_ archive cp -a t new
diff_run_ verbose cp -av t new
diff_run_ interactive cp -ri t new
diff_run_ no-clobber cp -rn t new
diff_run_ update cp -ru t new
diff_run_ backup cp -a --backup=numbered t new
diff_run_ force cp -rf t new
diff_run_ remove cp -a --remove-destination t new
diff_run_ links cp -rl t new
diff_run_ symbolic cp -rs "$PWD/fix/t" new
diff_run_ into-existing cp -av t old
diff_run_ twice cp -a t t new
# Into itself, from a directory of one entry: with more, what is
# copied before the error depends on the order entries are read in,
# which differs between the fixture's copies for GNU and for us.
diff_run_ into-self cp -a s s/in

Exit $fail
