#!/bin/sh
# --reflink=always fails as GNU cp does where files cannot share
# extents: "failed to clone DEST from SOURCE" with the reason, exit 1.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/xfer
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
cpdd_has_ HAVE_FICLONE || skip_ "cloning (FICLONE) is not compiled in"

echo data > a || framework_failure_

# check_ DEST: ours and GNU's say the same about cloning into DEST.
check_ ()
{
  rm -f "$1"
  "$gnu_dir_/cp" --reflink=always a "$1" 2> gnu.err
  gnu_rc=$?
  test $gnu_rc = 0 && return 0
  rm -f "$1"
  returns_ 1 xfer-copy --reflink=always a "$1" 2> ours.err || fail=1
  sed "s|^\(.*/\)*cp:|xfer-copy:|" gnu.err > exp
  sed 's,^.*/xfer-copy:,xfer-copy:,' ours.err > got
  compare exp got || fail=1
}

# The work directory: ext4 cannot clone (tmpfs neither).
check_ b

# Across file systems nothing can.
if test "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs; then
  shm=$(mktemp -d /dev/shm/cpdd-xfer.XXXXXX) || framework_failure_
  cleanup_ () { rm -rf "$shm"; }
  check_ "$shm/b"
fi

Exit $fail
