#!/bin/sh
# An unprivileged user copies the extended attributes of read-only files
# and directories too: the copy stays writable by its owner until they
# are set, then gets the permissions it is to have.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_xattrs_
test "$(id -u)" = 0 || skip_ "needs root, to run cp as another user"

mkdir fix || framework_failure_
chown 65534 fix && chmod 755 . || framework_failure_
as_nobody () { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody sh -c 'printf "a\n" > fix/f && mkdir fix/d && printf "b\n" > fix/d/g' \
  || skip_ "user 65534 cannot work here"
python3 -c '
import os
os.setxattr("fix/f", "user.a", b"1")
os.setxattr("fix/d", "user.d", b"2")
os.setxattr("fix/d/g", "user.g", b"3")
' || framework_failure_
chmod 444 fix/f fix/d/g && chmod 555 fix/d || framework_failure_
as_nobody test -w fix || skip_ "user 65534 cannot write here"

# Each case: options, separated by colons.
DIFF_XATTRS=1; export DIFF_XATTRS
for opts in --preserve=xattr -p:--preserve=xattr -a \
            --preserve=xattr,ownership --no-preserve=mode:--preserve=xattr; do
  tag=$(printf '%s' "$opts" | tr -c 'a-z\n' _)
  for f in f d; do
    diff_run_ "$f$tag" setpriv --reuid=65534 --regid=65534 --clear-groups \
      cp -R $(printf '%s' "$opts" | tr : ' ') $f copy
  done
done

Exit $fail
