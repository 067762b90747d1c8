#!/bin/sh
# The crash tests' negative control: cp -r, which syncs nothing, onto
# the crash-simulating file system (CRASH-MODEL).  A crash right after
# it has exited 0 must lose data in both variants: were the copy kept,
# the model would keep what was never made durable, and the other
# crash tests could not fail.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
. "$srcdir/tests/fs/crash-lib.sh"

mkdir -p src/d/e || framework_failure_
printf 'one\n' > src/a && head -c 70000 /dev/urandom > src/d/b \
  && printf x > src/d/e/c && ln -s a src/l || framework_failure_

crash_mount_
cp -r src mnt/dst || fail=1
# The copy itself is whole, as the program sees it.
diff -r src mnt/dst || fail=1
crash_mark_
crash_unmount_

echo "Violations are expected here: the copy was never made durable."
check_copy () { diff -r src $1/dst > /dev/null 2>&1; }
crash_sweep_ check_copy $crash_at_ $crash_at_
crash_summary_
test $crash_violations_ = 2 \
  || { echo "the model kept data never synced"; fail=1; }

Exit $fail
