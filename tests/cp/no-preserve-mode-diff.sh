#!/bin/sh
# --no-preserve=mode gives new files the default permissions less the
# umask: 0666 for files, FIFOs and devices, 0777 for directories and
# sockets; and no ACL, even one a default ACL of their directory gave.
# A new directory keeps the set-group-ID bit it inherits.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d fix/sticky fix/sgid || framework_failure_
chmod 2775 fix/sgid || framework_failure_
printf 'a\n' > fix/d/f || framework_failure_
mkfifo fix/d/fifo || framework_failure_
chmod 600 fix/d/f fix/d/fifo && chmod 1750 fix/sticky || framework_failure_
mknod fix/d/null c 1 3 2>/dev/null && chmod 600 fix/d/null
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("fix/d/sock")' \
  2>/dev/null && chmod 600 fix/d/sock

for mask in 022 077 000 027; do
  diff_run_ mask$mask sh -c "umask $mask && mkdir copy &&
    cp -R --no-preserve=mode d sticky copy"
  diff_run_ all$mask sh -c "umask $mask && cp -R --preserve=all --no-preserve=mode d copy"
  # A directory made in a set-group-ID directory keeps the bit it
  # inherits, but not the sticky bit of its source.
  diff_run_ sgid$mask sh -c "umask $mask &&
    cp -R --no-preserve=mode d sticky sgid"
done

# A default ACL on the destination directory (u::rwx, u:65534:r-x,
# g::rwx, m::rwx, o::---), which new files inherit.  Only cp built
# with ACL support can take the inherited ACL away again.
if python3 -c '
import os, struct
acl = struct.pack("<I", 2)
for tag, perm, ident in ((1, 7, 0xffffffff), (2, 5, 65534), (4, 7, 0xffffffff),
                         (0x10, 7, 0xffffffff), (0x20, 0, 0xffffffff)):
    acl += struct.pack("<HHI", tag, perm, ident)
os.mkdir("fix/acl")
os.setxattr("fix/acl", "system.posix_acl_default", acl)' 2>/dev/null \
   && cpdd_has_ USE_ACL; then
  DIFF_XATTRS=1; export DIFF_XATTRS
  diff_run_ acl sh -c 'umask 022 && cp -R --no-preserve=mode d/* sticky acl'
  diff_run_ acl-plain sh -c 'umask 022 && cp -R d/* sticky acl'
fi

Exit $fail
