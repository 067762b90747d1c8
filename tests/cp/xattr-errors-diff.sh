#!/bin/sh
# Failures to copy extended attributes: --preserve=xattr reports each and
# fails, --preserve=all reports all but a lack of support, -a none, and
# --attributes-only reports them all but fails only as --preserve=xattr.
# Attributes /etc/xattr.conf says to skip are left out.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_xattrs_

mkdir fix || framework_failure_
printf 'a\n' > fix/a || framework_failure_
python3 -c 'import os; os.setxattr("fix/a", "user.keep", b"1")' \
  || framework_failure_

# The fixture is copied with cp -a, which leaves out the attribute to be
# skipped: give it to each copy of the fixture first.
DIFF_XATTRS=1; export DIFF_XATTRS
for opts in --preserve=xattr -a --preserve=all; do
  diff_run_ skip-listed$opts sh -c 'python3 -c "
import os
os.setxattr(\"a\", \"user.Beagle.index\", b\"2\")" && cp "$@" a copy' sh "$opts"
done
unset DIFF_XATTRS

# Each case: options, separated by colons.
all_options='--preserve=xattr --preserve=all -a -a:--preserve=all
             --preserve=all:-a -a:--preserve=xattr --attributes-only:-a
             --attributes-only:--preserve=xattr -p:--preserve=xattr
             --preserve=mode,xattr'

# A value too big for this file system's attributes, from /dev/shm,
# where one fits.
shm=
cleanup_ () { test -z "$shm" || rm -rf "$shm"; umount ram 2>/dev/null; }
if shm=$(mktemp -d /dev/shm/cpdd-xattr.XXXXXX) \
   && printf 'big\n' > "$shm/big" \
   && python3 -c '
import os, sys
os.setxattr(sys.argv[1] + "/big", "user.big", b"x" * 20000)
try:
    os.setxattr("fix/a", "user.big", b"x" * 20000)
except OSError:
    sys.exit(0)
sys.exit(1)' "$shm"; then
  python3 -c 'import os; os.removexattr("fix/a", "user.big")' 2>/dev/null
  for opts in $all_options; do
    tag=big$(printf '%s' "$opts" | tr -c 'a-z\n' _)
    diff_run_ "$tag" cp $(printf '%s' "$opts" | tr : ' ') "$shm/big" copy
  done
fi

# A file system without extended attributes: ramfs, which takes root
# to mount.
mkdir ram || framework_failure_
if mount -t ramfs cpdd-xattr ram 2>/dev/null; then
  ram=$PWD/ram
  for opts in $all_options; do
    tag=ramfs$(printf '%s' "$opts" | tr -c 'a-z\n' _)
    diff_run_ "$tag" sh -c 'cp "$@" a "$0/copy"; r=$?; rm -f "$0/copy"
                            exit $r' "$ram" $(printf '%s' "$opts" | tr : ' ')
  done
fi

Exit $fail
