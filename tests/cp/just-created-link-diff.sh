#!/bin/sh
# A symbolic link that cp made from one operand is not written through
# by a later operand of the same name, whether it leads somewhere or
# nowhere, and even where POSIXLY_CORRECT has a planted dangling link
# followed.  -n, -u and -i decide first; a link that is to be replaced
# (-b, --remove-destination, -l) is refused as any just-created file.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/a fix/b fix/c fix/a2 fix/b2 || framework_failure_
ln -s ../outside fix/a/1 || framework_failure_
printf 'payload\n' > fix/b/1 || framework_failure_
ln -s ../outside2 fix/a2/1 || framework_failure_
printf 'payload\n' > fix/b2/1 || framework_failure_
printf 'keep\n' > fix/outside2 || framework_failure_
touch -d '2000-01-01' fix/outside2 && touch -d '2010-01-01' fix/b/1 fix/b2/1 \
  || framework_failure_
for t in existing-i dangling-i posix-i posix-n; do
  printf 'y\n' > $t.in || framework_failure_
done
printf 'n\n' > existing-in.in || framework_failure_

for v in dangling existing; do
  o=a; test $v = existing && o=a2
  s=b; test $v = existing && s=b2
  diff_run_ $v cp -dR $o/1 $s/1 c
  diff_run_ $v-posix env POSIXLY_CORRECT=1 cp -dR $o/1 $s/1 c
  diff_run_ $v-f cp -dRf $o/1 $s/1 c
  diff_run_ $v-v cp -dRv $o/1 $s/1 c
  diff_run_ $v-a cp -a $o/1 $s/1 c
  diff_run_ $v-attr cp -dR --attributes-only $o/1 $s/1 c
  diff_run_ $v-n cp -dRn $o/1 $s/1 c
  diff_run_ $v-u cp -dRu $o/1 $s/1 c
  diff_run_ $v-b cp -dRb $o/1 $s/1 c
  diff_run_ $v-remove cp -dR --remove-destination $o/1 $s/1 c
  diff_run_ $v-l cp -dRl $o/1 $s/1 c
done
diff_run_ existing-i cp -dRi a2/1 b2/1 c
diff_run_ existing-in cp -dRi a2/1 b2/1 c
diff_run_ dangling-i cp -dRi a/1 b/1 c
diff_run_ posix-i env POSIXLY_CORRECT=1 cp -dRi a/1 b/1 c
diff_run_ posix-n env POSIXLY_CORRECT=1 cp -dRn a/1 b/1 c

Exit $fail
