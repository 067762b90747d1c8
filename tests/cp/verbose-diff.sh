#!/bin/sh
# What -v prints, and in which order against diagnostics, for links,
# removals, backups and failures.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_root_

mkdir -p fix/d fix/ro || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'b\n' > fix/b || framework_failure_
printf 'c\n' > fix/c || framework_failure_
ln -s a fix/sl || framework_failure_
ln -s nowhere fix/dang || framework_failure_
mkfifo fix/fifo || framework_failure_
chmod 444 fix/c || framework_failure_
chmod 555 fix/ro || framework_failure_
chmod 777 fix || framework_failure_
chmod 755 . || framework_failure_
as_nobody='setpriv --reuid=65534 --regid=65534 --clear-groups'
$as_nobody true 2>/dev/null || skip_ "setpriv cannot switch to uid 65534"

diff_run_ lfv cp -lfv a b
diff_run_ sfv cp -sfv a b
diff_run_ f-open-fail-v $as_nobody cp -fv a c
diff_run_ rdv cp -rv --remove-destination sl b
diff_run_ P-link cp -Pv sl b
diff_run_ s-r-file cp -rsv a x
diff_run_ l-remove cp -lv --remove-destination a b
diff_run_ b-l cp -lbv a b
diff_run_ b-s cp -sbv a b
diff_run_ b-P cp -Pbv sl b
diff_run_ b-dir cp -rbv d b
diff_run_ i-l cp -li a b
diff_run_ parents-b cp --parents -bv a d
diff_run_ attr-only-link cp --attributes-only -P sl x
diff_run_ u-n cp -un a b
diff_run_ T-dir-into-new cp -rT d newd
diff_run_ dir-t cp -r -t d a
diff_run_ self-t cp -r -t d d
diff_run_ v-nodir cp -v a nodir/x
diff_run_ v-ro $as_nobody cp -v a ro/
diff_run_ v-l-exists cp -lv a b
diff_run_ v-s-exists cp -sv a b
diff_run_ v-s-rel cp -sv a d/x
diff_run_ v-missing cp -v nope x
diff_run_ v-same cp -v a a
diff_run_ v-dangling cp -v a dang
diff_run_ v-dir-onto-file cp -rv d a
diff_run_ v-file-onto-dir cp -v a d/..
diff_run_ v-fifo-exists cp -rv fifo a
Exit $fail
