#!/bin/sh
# -i asks before overwriting and reads the answer from stdin; -n never overwrites.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'b\n' > fix/b || framework_failure_
printf 'y\n' > yes.in || framework_failure_
printf 'n\n' > no.in || framework_failure_
printf 'yes\n' > yes-word.in || framework_failure_
printf 'y\nn\n' > y-then-n.in || framework_failure_
mkdir fix/d || framework_failure_
printf 'old\n' > fix/d/a || framework_failure_
printf 'old\n' > fix/d/b || framework_failure_

cp yes.in i-yes.in && diff_run_ i-yes cp -i a b
cp no.in i-no.in && diff_run_ i-no cp -i a b
cp yes-word.in i-yes-word.in && diff_run_ i-yes-word cp -i a b
diff_run_ i-eof cp -i a b
diff_run_ i-new cp -i a new
cp y-then-n.in i-two.in && diff_run_ i-two cp -i a b d
cp yes.in i-long.in && diff_run_ i-long cp --interactive a b
cp yes.in i-then-n.in && diff_run_ i-then-n cp -i -n a b
cp yes.in n-then-i.in && diff_run_ n-then-i cp -n -i a b
cp no.in i-force.in && diff_run_ i-force cp -i -f a b
cp yes.in i-verbose.in && diff_run_ i-verbose cp -iv a b
diff_run_ n cp -n a b
diff_run_ n-verbose cp -nv a b d
diff_run_ n-long cp --no-clobber a new
diff_run_ n-force cp -nf a b

Exit $fail
