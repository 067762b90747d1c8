#!/bin/sh
# cp -a --resume after a crash of cp -a --jobs=2 onto the crash-simulating
# file system (CRASH-MODEL), the large files copied in ranges of 1 MiB:
# the state a crash leaves at a point, in either variant, copied to a
# plain directory and resumed there with the same command, becomes the
# whole source tree, byte for byte, attributes included.  Those states
# hold files never synced (empty), and files of their full size whose
# unsynced ranges read as zeros.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
. "$srcdir/tests/fs/crash-lib.sh"

mkdir -p tree/dst/sub || framework_failure_
head -c 1048577 /dev/urandom > tree/dst/one && head -c 3000000 /dev/urandom \
  > tree/dst/sub/three && head -c 4194304 /dev/urandom > tree/dst/four \
  && printf 'small\n' > tree/dst/small && printf 'x\n' > tree/dst/sub/x \
  && ln -s ../small tree/dst/sub/l && chmod 640 tree/dst/sub/three \
  && touch -d '2001-02-03 04:05:06.5' tree/dst/sub || framework_failure_

crash_mount_
CPDD_CHUNK_SIZE=1048576 cp -a --jobs=2 tree/dst mnt/ || fail=1
crash_unmount_

check_resumed () {
  CPDD_CHUNK_SIZE=1048576 cp -a --jobs=2 --resume tree/dst $1/ \
    && crash_same_tree_ tree $1
}
crash_variants_='lost eager kill'
crash_sweep_ check_resumed 1 $(($crash_last_ + 1))
crash_summary_
test $crash_violations_ = 0 || fail=1

Exit $fail
