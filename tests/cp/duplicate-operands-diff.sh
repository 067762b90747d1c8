#!/bin/sh
# An operand given twice, by the same name or another way to the same
# directory entry, and a directory reached twice.  A directory's second
# copy must never remove what its first copy made.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/s/d fix/t fix/a1 fix/b1 fix/sub || framework_failure_
printf 'f\n' > fix/s/d/f || framework_failure_
ln fix/s/d/f fix/s/d/g || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'a1\n' > fix/a1/f || framework_failure_
printf 'b1\n' > fix/b1/f || framework_failure_
printf 'x\n' > fix/sub/x || framework_failure_
ln -s sub fix/lsub || framework_failure_
ln -s s fix/ls || framework_failure_
ln -s a fix/la || framework_failure_

# A directory twice: GNU warns and keeps its copy.
diff_run_ dir-twice cp -a s s t
diff_run_ dir-twice-r cp -r s s t
diff_run_ dir-twice-dot cp -a s ./s/ t
diff_run_ dir-twice-slash cp -r s/ s t
diff_run_ dir-twice-verbose cp -av s s t
diff_run_ dir-twice-al cp -al s s t
diff_run_ dir-twice-au cp -au s s t
diff_run_ dir-twice-ab cp -ab s s t
diff_run_ dir-twice-numbered cp -a --backup=numbered s s t
diff_run_ dir-twice-remove cp -a --remove-destination s s t
diff_run_ dir-twice-L cp -aL s s t
diff_run_ dir-twice-again sh -c 'cp -a s t && cp -a s s t'
diff_run_ dir-three-times cp -r s s s t
diff_run_ dir-via-link cp -rH ls s t
diff_run_ dir-via-link-L cp -rL ls s t

# A directory reached again inside another operand is not linked.
diff_run_ dir-reached-again cp -r s/d s t
diff_run_ dir-reached-again-a cp -a s/d s t
diff_run_ dir-reached-again-L cp -rL s/d s t

# A file twice: a warning, unless backups are made.
diff_run_ file-twice cp a a t
diff_run_ file-twice-dot cp a ./a t
diff_run_ file-twice-sub cp sub/x ./sub//x t
diff_run_ file-via-dir-link cp sub/x lsub/x t
diff_run_ file-twice-l cp -l a a t
diff_run_ file-twice-L cp -L la la t
diff_run_ file-twice-b cp -b a a t
diff_run_ file-twice-b-dot cp -b a ./a t
diff_run_ file-twice-numbered cp --backup=numbered a a t
diff_run_ file-twice-numbered-via-link cp --backup=numbered sub/x lsub/x t
diff_run_ two-files-one-name cp a1/f b1/f t
diff_run_ two-files-one-name-b cp -b a1/f b1/f t
diff_run_ two-files-one-name-f cp -f a1/f b1/f t
diff_run_ two-files-one-name-l cp -l a1/f b1/f t
diff_run_ two-files-one-name-n cp -n a1/f b1/f t
diff_run_ two-files-one-name-u cp -u a1/f b1/f t
diff_run_ two-files-one-name-i cp -i a1/f b1/f t

printf 'y\ny\n' > two-files-one-name-i-yes.in || framework_failure_
diff_run_ two-files-one-name-i-yes cp -i a1/f b1/f t

# A first copy that failed or was skipped.
mkdir fix/t/a2 || framework_failure_
cp fix/a fix/a2 || framework_failure_
diff_run_ first-failed cp a2 a2 t
diff_run_ first-failed-b cp -b a2 a2 t
rm -rf fix/t/a2 || framework_failure_
mkdir fix/u && printf 'old\n' > fix/u/a && touch -d 2030-01-01 fix/u/a \
  || framework_failure_
diff_run_ first-skipped-n cp -n a a u
diff_run_ first-skipped-u cp -u a a u
diff_run_ first-skipped-u-b cp -bu a a u
touch -d 2000-01-01 fix/a1/f && printf 'old\n' > fix/u/f \
  && touch -d 2010-01-01 fix/u/f || framework_failure_
diff_run_ first-skipped-then-newer cp -u a1/f b1/f u

Exit $fail
