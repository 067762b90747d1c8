#!/bin/sh
# cpdd-bench compare --fs=KIND: the run happens on a new file system of
# that kind, which is gone afterwards; where files can be cloned there
# (XFS), the reflink rows appear and clone, and the method rows copy.
# Bad kinds and runs without root are refused.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench
. "$srcdir/tests/diff-helpers.sh"

returns_ 2 cpdd-bench compare --fs=zfs . > out 2> err || fail=1
grep "invalid file system kind: 'zfs'" err > /dev/null || fail=1

require_root_
command -v mkfs.xfs > /dev/null || skip_ "no mkfs.xfs (Debian xfsprogs)"
cpdd_has_ HAVE_FICLONE || skip_ "built without FICLONE: no clones to show"

mkdir d || framework_failure_
# A small run on XFS, whose clones tests/fs/reflink.sh checks: here,
# the rows and the options each tool ran with.
cpdd-bench compare --fs=xfs --size 4M --runs 1 --no-syscalls \
  --tools='cp,cpdd-cp,cpdd-reflink,cpdd-read,cpdd-offload' \
  --csv sum.csv d > out 2> err || { cat err; fail=1; }
cat err
grep 'copying on a new xfs file system' err > /dev/null || fail=1
for tool in cp cpdd-cp cpdd-reflink cpdd-read cpdd-offload; do
  grep "^hot,$tool,1,4194304," sum.csv > /dev/null \
    || { echo "no row for $tool"; fail=1; }
done
grep '^hot,cpdd-read,.*--reflink=never --io-method=read' sum.csv \
  > /dev/null || fail=1
grep '^hot,cpdd-reflink,.*--reflink=always' sum.csv > /dev/null || fail=1
# Nothing is left: no mount, no image, no loop device.
test -z "$(ls -A d)" || { ls -lA d; fail=1; }
grep " $PWD/d/" /proc/mounts && fail=1

Exit $fail
