#!/bin/sh
# On XFS (reflink=1) and Btrfs, where files can share extents: cp
# --reflink=always and --reflink=auto clone, as GNU's cp does, and the
# copy really shares the source's extents; --reflink=never and
# --sparse=never do not.  Between two file systems --reflink=always
# fails as GNU's does, leaving what GNU's leaves.  Also a file large
# enough for cp --jobs to split into ranges is cloned whole; a clone
# is verified by reading both files.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
require_root_
require_gnu_ cp
command -v filefrag > /dev/null || skip_ "no filefrag (Debian e2fsprogs)"
cpdd_has_ HAVE_FICLONE || skip_ "built without FICLONE"

make_fs_kinds_ xfs btrfs
test -n "$fs_kinds_" || skip_ "neither XFS nor Btrfs can be made here"
DIFF_BLOCKS=1
echo "file systems:${kinds-$fs_kinds_}"

top=$PWD
for kind in $fs_kinds_; do
  cd "$top/$kind" || framework_failure_
  mkdir fix fix/d || framework_failure_
  head -c 4M /dev/urandom > fix/big || framework_failure_
  # Written inside its size, so that XFS allocates nothing ahead of it
  # (see pairs.sh).
  truncate -s 2M fix/holey \
    && printf x | dd of=fix/holey conv=notrunc status=none \
    && printf y | dd of=fix/holey bs=1M seek=1 conv=notrunc status=none \
    || framework_failure_
  head -c 300000 /dev/urandom > fix/d/f || framework_failure_
  sync || framework_failure_

  for reflink in always auto never; do
    diff_run_ $kind-$reflink cp --reflink=$reflink big copy
    diff_run_ $kind-$reflink-holey cp --reflink=$reflink holey copy
  done
  diff_run_ $kind-always-tree cp -a --reflink=always d copy
  diff_run_ $kind-always-sparse-never cp --reflink=always --sparse=never \
    big copy

  # What the clones share, and what a copy made otherwise does not.
  for how in '--reflink=always' '--reflink=auto' '' \
             '--reflink=always --jobs=4 -r'; do
    rm -rf new && env CPDD_CHUNK_SIZE=1M cp $how fix/big new || fail=1
    test -d new && set -- new/big || set -- new
    cmp fix/big "$1" || fail=1
    shares_extents_ "$1" \
      || { echo "$kind: cp $how made no clone"; fail=1; }
  done
  # A clone is checked by reading both files (cp --verify), also one
  # that --jobs would have split; a byte of the clone turned over before
  # it is read back is caught.
  for how in '' '--jobs=2'; do
    rm -f new && env CPDD_CHUNK_SIZE=1M cp --debug --verify $how fix/big new \
      > verify.out || fail=1
    grep -q 'reflink: yes, .*hash: source read again, read back: ' \
      verify.out || { cat verify.out; fail=1; }
    if test -f "$abs_top_builddir/tests/shim/faultshim.so"; then
      rm -f new && env CPDD_CHUNK_SIZE=1M \
        LD_PRELOAD="$abs_top_builddir/tests/shim/faultshim.so" \
        FAULT_MODE=corrupt FAULT_OP=open FAULT_AT=3000000 \
        FAULT_FD_PATH='*/new' cp --verify $how fix/big new 2> bad.err
      test $? = 1 || { echo "$kind: corrupt clone $how"; fail=1; }
      grep -q "^cp: 'new' differs from 'fix/big' when read back$" bad.err \
        || { cat bad.err; fail=1; }
    fi
  done
  for how in '--reflink=never' '--sparse=never' \
             '--reflink=never --io-method=offload'; do
    rm -f new && cp $how fix/big new && cmp fix/big new || fail=1
    ! shares_extents_ new \
      || { echo "$kind: cp $how made a clone"; fail=1; }
  done
done
cd "$top" || framework_failure_

# Between file systems a clone cannot be made: --reflink=always fails
# and --reflink=auto copies, on every pair of those made here, and to
# and from tmpfs.
if make_fs_ tmpfs "$top/tmpfs"; then
  fs_kinds_="$fs_kinds_ tmpfs"
  mkdir tmpfs/fix && head -c 100000 /dev/urandom > tmpfs/fix/big \
    || framework_failure_
fi
for from in $fs_kinds_; do
  for to in $fs_kinds_; do
    test $from = $to && continue
    cd "$top/$from" || framework_failure_
    for reflink in always auto; do
      diff_run_into_ $from-$to-$reflink "$top/$to/into" \
        cp --reflink=$reflink big "$top/$to/into/big"
    done
  done
done
cd "$top" || framework_failure_

Exit $fail
