#!/bin/sh
# A file capability (security.capability) survives --preserve=xattr, -a
# and --preserve=all: the owner, whose change clears it, is set first.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
test "$(id -u)" = 0 || skip_ "giving a file away and setcap need root"
require_xattrs_

mkdir fix || framework_failure_
printf 'tool\n' > fix/tool || framework_failure_
chown 65534 fix/tool || framework_failure_
setcap cap_net_bind_service=ep fix/tool 2>/dev/null \
  || skip_ "setcap cannot set file capabilities here"
getcap fix/tool | grep cap_net_bind_service > /dev/null \
  || skip_ "getcap does not show file capabilities here"

DIFF_XATTRS=1; export DIFF_XATTRS
# Each case: options, separated by colons.
for opts in --preserve=xattr --preserve=all -a -p:--preserve=xattr \
            --preserve=ownership,xattr; do
  tag=$(printf '%s' "$opts" | tr -c 'a-z\n' _)
  diff_run_ "$tag" cp $(printf '%s' "$opts" | tr : ' ') tool copy
  getcap "$tag.ours/copy" | grep cap_net_bind_service > /dev/null \
    || { echo "$opts lost the capability" >&2; fail=1; }
done

Exit $fail
