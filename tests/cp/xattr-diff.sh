#!/bin/sh
# Extended attributes and ACLs are copied with --preserve=xattr, -a and -p (ACLs), and not otherwise.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

require_xattrs_
mkdir -p fix/d || framework_failure_
printf 'a\n' > fix/a || framework_failure_
printf 'b\n' > fix/d/b || framework_failure_
python3 -c '
import os, struct
os.setxattr("fix/a", "user.colour", b"blue")
os.setxattr("fix/d/b", "user.size", b"\x00\x01big")
os.setxattr("fix/d", "user.dir", b"yes")
# An access ACL granting uid 65534 read access: u::rw-,u:65534:r--,g::r--,m::r--,o::r--
acl = struct.pack("<I", 2)
for tag, perm, ident in ((1, 6, 0xffffffff), (2, 4, 65534), (4, 4, 0xffffffff),
                         (0x10, 4, 0xffffffff), (0x20, 4, 0xffffffff)):
    acl += struct.pack("<HHI", tag, perm, ident)
os.setxattr("fix/a", "system.posix_acl_access", acl)
' || skip_ "cannot set extended attributes or ACLs"

DIFF_XATTRS=1; export DIFF_XATTRS
diff_run_ plain cp a new
diff_run_ preserve-xattr cp --preserve=xattr a new
diff_run_ archive cp -a a d copy
# -p carries ACLs only where cp was built with ACL support (without
# libacl, as in the 32-bit and musl builds, it sets the permissions).
if cpdd_has_ USE_ACL; then
  diff_run_ p-keeps-acl cp -p a new
  diff_run_ mode-keeps-acl cp --preserve=mode a new
fi
# A source without extended attributes, whose copy would have an ACL
# of its own: inherited from the default ACL of the directory it is
# made in, or on the file it replaces.  The copy ends with the
# source's permissions alone, as GNU's.
if cpdd_has_ USE_ACL && command -v setfacl > /dev/null; then
  mkdir fix/inherit fix/plaind && printf 'p\n' > fix/plain \
    && printf 'o\n' > fix/old-acl \
    && setfacl -d -m u:65534:rwx fix/inherit \
    && setfacl -m u:65534:rw fix/old-acl || framework_failure_
  diff_run_ archive-into-default-acl cp -a plain inherit
  diff_run_ archive-onto-acl cp -a plain old-acl
  diff_run_ p-onto-acl cp -p plain old-acl
  diff_run_ archive-dir-into-default-acl cp -a plaind inherit
fi
diff_run_ xattr-tree cp -r --preserve=xattr d copy
diff_run_ no-preserve-xattr cp -a --no-preserve=xattr d copy

Exit $fail
