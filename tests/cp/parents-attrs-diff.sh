#!/bin/sh
# --parents: which leading directories are made, with what permissions,
# times and extended attributes, what is said about them, and what is
# left behind when a source cannot be copied.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/d/sub fix/s/g fix/r/q fix/t fix/t2/d/sub fix/t3/d \
  || framework_failure_
printf 'a\n' > fix/d/sub/a || framework_failure_
printf 'f\n' > fix/f || framework_failure_
printf 'h\n' > fix/s/g/h || framework_failure_
printf 'w\n' > fix/r/q/w || framework_failure_
chmod 750 fix/d && chmod 2710 fix/d/sub || framework_failure_
chmod 1777 fix/s && chmod 1750 fix/s/g || framework_failure_
chmod 500 fix/r/q fix/r || framework_failure_
chmod 700 fix/t2/d fix/t2/d/sub fix/t3/d || framework_failure_
touch -d '2003-04-05 06:07:08' fix/d fix/d/sub fix/s fix/s/g \
  || framework_failure_

# A source whose leading directory is a file: nothing is made.
diff_run_ file-as-dir cp --parents f/x t
diff_run_ file-as-dir-deeper cp -v --parents d/sub/a/x t
diff_run_ missing-dir cp -v --parents nodir/x t

# Permissions of new leading directories, with and without their
# sources' set-group-ID and sticky bits.
diff_run_ modes cp -v --parents d/sub/a s/g/h t
diff_run_ modes-umask sh -c 'umask 027 && cp -v --parents d/sub/a s/g/h t'
diff_run_ no-preserve-mode cp -v --parents --no-preserve=mode d/sub/a s/g/h t
diff_run_ no-preserve-mode-umask \
  sh -c 'umask 077 && cp --parents --no-preserve=mode d/sub/a t'
diff_run_ unwritable cp -v --parents r/q/w t
diff_run_ unwritable-p cp -p --parents r/q/w t

# -p gives leading directories their sources' permissions and times;
# those already there too, unless all of them are.
DIFF_TIMES=1; export DIFF_TIMES
diff_run_ p-new sh -c 'cp -p --parents d/sub/a s/g/h t; r=$?
                       touch -d 2000-01-01 t; exit $r'
diff_run_ p-existing sh -c 'cp -pv --parents d/sub/a t2; r=$?
                            touch -d 2000-01-01 t2 t2/d/sub; exit $r'
diff_run_ p-partly-existing sh -c 'cp -pv --parents d/sub/a t3; r=$?
                                   touch -d 2000-01-01 t3; exit $r'
unset DIFF_TIMES
diff_run_ existing cp -v --parents d/sub/a t2

# An absolute source keeps its leading slash in what is said.
mkdir -p abs/x/y && printf 'z\n' > abs/x/y/z || framework_failure_
diff_run_ absolute cp -v --parents "$PWD/abs/x/y/z" t
diff_run_ absolute-slashes cp -v --parents "/$PWD/abs//x/y/z" t
diff_run_ absolute-target-slash cp -v --parents "$PWD/abs/x/y/z" t/
diff_run_ relative-target-slashes cp -v --parents d/sub/a t//

# --path is GNU's old name for --parents.
diff_run_ path cp -v --path d/sub/a t
diff_run_ path-abbrev cp -v --pat d/sub/a t

# Leading directories get no extended attributes, even with -a.
if python3 -c 'import os; os.setxattr("fix/d", "user.k", b"v")' 2>/dev/null
then
  python3 -c '
import os
for f in ("fix/d/sub", "fix/d/sub/a", "fix/s", "fix/s/g"):
    os.setxattr(f, "user.k", b"v")' || framework_failure_
  DIFF_XATTRS=1; export DIFF_XATTRS
  diff_run_ xattr-a cp -a --parents d/sub/a s/g/h t
  diff_run_ xattr-preserve cp --preserve=xattr --parents d/sub/a t
  diff_run_ xattr-a-existing cp -a --parents d/sub/a t2
  unset DIFF_XATTRS
fi

Exit $fail
