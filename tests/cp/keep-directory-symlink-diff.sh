#!/bin/sh
# --keep-directory-symlink copies a directory into the directory that
# a symbolic link in the destination leads to, as GNU cp 9.10 does:
# only where --copy-contents is given too, and not where the link
# would be moved aside or removed first, or linked over (-b,
# --remove-destination, -l, -s).  A backup of the link is left to
# the tests of backups.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/s/d/e fix/s/d/e/deeper fix/t/real fix/t/other || framework_failure_
printf 'f\n' > fix/s/d/f || framework_failure_
printf 'g\n' > fix/s/d/e/g || framework_failure_
printf 'old\n' > fix/t/real/f || framework_failure_
chmod 750 fix/s/d || framework_failure_
touch -d '2001-01-01' fix/s/d || framework_failure_
ln -s real fix/t/d || framework_failure_
ln -s d fix/t/chain || framework_failure_
ln -s nowhere fix/t/dangling || framework_failure_
ln -s loop fix/t/loop || framework_failure_
printf 'file\n' > fix/t/file || framework_failure_
ln -s file fix/t/to-file || framework_failure_
# A link deeper in the tree, below a directory the copy enters.
ln -s ../other fix/t/real/e || framework_failure_
for name in chain dangling loop to-file; do
  mkdir fix/s/$name && printf '%s\n' $name > fix/s/$name/x \
    || framework_failure_
done

keep='--keep-directory-symlink --copy-contents'
diff_run_ without cp -r s/d t
diff_run_ keep-alone cp -r --keep-directory-symlink s/d t
diff_run_ contents-alone cp -r --copy-contents s/d t
diff_run_ keep cp -rv $keep s/d t
diff_run_ keep-T cp -rTv $keep s t
diff_run_ keep-operand cp -rT $keep s/d t/d
diff_run_ keep-archive cp -a $keep s/d t
diff_run_ keep-chain cp -r $keep s/chain t
diff_run_ keep-dangling cp -r $keep s/dangling t
diff_run_ keep-loop cp -r $keep s/loop t
diff_run_ keep-loop-force cp -rf $keep s/loop t
diff_run_ keep-to-file cp -r $keep s/to-file t
diff_run_ keep-remove cp -r --remove-destination $keep s/d t
diff_run_ keep-hard-link cp -rl $keep s/d t
diff_run_ keep-symlink cp -rs $keep s/d t
diff_run_ keep-dereference cp -rL $keep s/d t
diff_run_ keep-no-clobber cp -rn $keep s/d t
diff_run_ keep-none-fail cp -r --update=none-fail $keep s/d t
diff_run_ keep-parents cp -r --parents $keep s/d t
diff_run_ keep-abbrev cp -r --k --cop s/d t

Exit $fail
