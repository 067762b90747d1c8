#!/bin/sh
# cp --direct --resume on a disk of 4096-byte logical sectors (ext4 on
# a loop device): the copy continues from an aligned offset with direct
# I/O, and is the uninterrupted copy's; a hole a power cut left in a
# copy that looks complete is filled.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
. "$srcdir/tests/cp/resume-helpers.sh"
# After rel-helpers.sh, whose cleanup_ (of mounts it makes, none here)
# this one's replaces: the loop file system must be unmounted.
. "$srcdir/tests/fs/fs-helpers.sh"
require_root_
require_faultshim_
cpdd_has_ HAVE_O_DIRECT || skip_ "direct I/O is not compiled in"
make_fs_ ext4-4k "$PWD/mnt" || skip_ "no ext4 on 4096-byte sectors here"

cd mnt || framework_failure_
head -c 5000001 /dev/urandom > f || framework_failure_
touch -d '2001-02-03 04:05:06.7' f || framework_failure_
MiB=1048576

for p in -a ''; do
  rm -f g
  kill_at_ 3500000 '*/g' cp $p --direct --buffer-size=256K f g
  cmp -s f g && { echo "$p: copied whole before the kill"; fail=1; }
  cp $p --direct --buffer-size=256K --resume --stats --debug f g \
    > debug 2> err \
    || { cat err; fail=1; }
  cmp f g || fail=1
  test -z "$p" || test "$(stat -c %Y f)" = "$(stat -c %Y g)" || fail=1
  grep 'direct I/O: both' debug > /dev/null || { cat debug; fail=1; }
  test "$(stat_figure_ skipped err)" -ge $((2 * MiB)) || { cat err; fail=1; }
done

# Complete, but for a stretch a power cut lost: its data never written
# back, the size and time kept.
cp -a f g || framework_failure_
sync g || framework_failure_
fallocate -p -o $MiB -l $MiB g || framework_failure_
touch -d '2001-02-03 04:05:06.7' g || framework_failure_
cp -a --direct --resume --stats f g 2> err || { cat err; fail=1; }
cmp f g || fail=1
test "$(stat_figure_ copied err)" = $MiB || { cat err; fail=1; }

Exit $fail
