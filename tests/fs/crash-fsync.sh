#!/bin/sh
# cp -a --fsync onto the crash-simulating file system (CRASH-MODEL),
# alone and with --jobs=2: once cp has exited 0, a crash loses nothing, data and attributes, in
# both variants; before that, every file a crash keeps a name for, where
# only synced directories keep names, is whole.  First the same checks
# of a copy synced by hand, file by file and then directory by
# directory, deepest first: the harness sees no violation where none is.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
. "$srcdir/tests/fs/crash-lib.sh"

mkdir -p tree/dst/sub/deep tree/dst/empty || framework_failure_
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  printf 'file %s\n' $i > tree/dst/f$i && printf '%s\n' $i > tree/dst/sub/g$i \
    || framework_failure_
done
head -c 300000 /dev/urandom > tree/dst/sub/deep/big && ln -s ../f1 tree/dst/sub/l \
  && ln tree/dst/f2 tree/dst/sub/deep/hard && chmod 600 tree/dst/f3 \
  && chmod 750 tree/dst/sub && touch -d '2001-02-03 04:05:06.123456789' \
     tree/dst/f4 tree/dst/empty || framework_failure_

# Files whose name survives a crash are whole: their lines of the digest
# (but for the count of links) are the source's.
whole_files () { awk '$2 == "f" { sub(/ links=[0-9]+/, ""); print }' "$1"; }
whole_files $(crash_digest_ tree) > want-files
check_named () {
  whole_files $(crash_digest_ $1) | grep -vxFf want-files >&2 && return 1
  return 0
}
check_end () { crash_same_tree_ tree $1; }

for how in by-hand cp-fsync cp-fsync-jobs; do
  rm -rf mnt.back && crash_mount_
  case $how in
    by-hand) cp -a tree/dst mnt/ && find mnt/dst -type f -exec sync {} + \
               && find mnt/dst -depth -type d -exec sync {} + && sync mnt ;;
    cp-fsync) cp -a --fsync tree/dst mnt/ ;;
    cp-fsync-jobs) cp -a --fsync --jobs=2 tree/dst mnt/ ;;
  esac || fail=1
  crash_mark_; crash_unmount_; crash_points_=0 crash_states_=0 crash_violations_=0
  crash_variants_=lost; crash_sweep_ check_named 1 $(($crash_at_ - 1))
  crash_variants_='lost eager'; crash_sweep_ check_end $crash_at_ $crash_at_
  echo "$how: $(crash_summary_)"
  test $crash_violations_ = 0 || fail=1
done

Exit $fail
