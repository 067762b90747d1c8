#!/bin/sh
# cp -a --resume on a FUSE file system that reports no holes
# (tests/shim/plainfuse.c): data a crash lost reads there as zeros in a
# copy of the source's size and time, which only its data tells from a
# complete one; --resume compares it whole and copies again what differs.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/cp/resume-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
require_root_
make_fs_ fuse "$PWD/mnt" || skip_ "no FUSE file system here"

cd mnt || framework_failure_
MiB=1048576
head -c 5000000 /dev/urandom > f || framework_failure_
touch -d '2001-02-03 04:05:06.7' f || framework_failure_

# Zeros in the middle: the copy looks complete by its size and time.
# Only the MiB of zeros is copied again.
cp -a f g || framework_failure_
dd if=/dev/zero of=g bs=$MiB seek=2 count=1 conv=notrunc status=none \
  || framework_failure_
touch -d '2001-02-03 04:05:06.7' g || framework_failure_
cmp -s f g && framework_failure_
cp -a --resume --stats f g 2> err || { cat err; fail=1; }
cmp f g || fail=1
test "$(stat_figure_ skipped err)" = $((5000000 - MiB)) || { cat err; fail=1; }

# A complete copy is still kept whole.
cp -a --resume --stats f g 2> err || { cat err; fail=1; }
test "$(stat_figure_ copied err)" = 0 || { cat err; fail=1; }

Exit $fail
