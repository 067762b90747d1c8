#!/bin/sh
# Copying onto an existing set-user-ID or set-group-ID file that already
# has the source's owner and group: GNU cp leaves the owner alone, so
# the set-ID bits a chown would clear stay, with the source's
# permissions beside them.  A file with another owner is given the
# source's, and loses them.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
test "$(id -u)" = 0 || skip_ "giving a file to another owner needs root"

mkdir fix fix/dst || framework_failure_
printf 'a\n' > fix/f || framework_failure_
chmod 444 fix/f || framework_failure_
printf 'b\n' > fix/g || framework_failure_
chmod 444 fix/g || framework_failure_
chown 65534 fix/g || framework_failure_
for n in suid sgid both; do
  : > fix/dst/$n || framework_failure_
done
chmod 4755 fix/dst/suid || framework_failure_
chmod 2755 fix/dst/sgid || framework_failure_
chmod 6755 fix/dst/both || framework_failure_

# Keeping the set-ID bits beside the source's permissions is how GNU
# cp sets them through libacl; built without ACL support, cp sets the
# whole mode, as GNU cp built so does.  Only the owner cases remain.
mode_opts='-p -a --preserve=mode,ownership --preserve=mode'
cpdd_has_ USE_ACL || mode_opts=
for opt in --preserve=ownership $mode_opts; do
  tag=$(echo "x$opt" | tr -c 'a-z0-9\n' _)
  diff_run_ "$tag-suid" cp $opt f dst/suid
  diff_run_ "$tag-sgid" cp $opt f dst/sgid
  diff_run_ "$tag-other-owner" cp $opt g dst/both
done

Exit $fail
