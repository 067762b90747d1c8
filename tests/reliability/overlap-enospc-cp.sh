#!/bin/sh
# cp --direct with reads and writes in flight together, through io_uring
# or the reader thread, reports a really full file system as GNU cp
# does, and leaves a prefix of the source with no gap.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp
fail=0

mount_tiny_fs_ 1m mnt
# Twice the file system: 16 buffers of 64 KiB are in flight when the
# space runs out, and io_uring's may be written in any order.
head -c 2000000 /dev/urandom > big || framework_failure_

for queue in io_uring thread; do
  rm -rf mnt/* || framework_failure_
  if test $queue = io_uring; then
    unset CPDD_IO_URING
    io_uring_expected_ mnt || continue
  else
    CPDD_IO_URING=0 && export CPDD_IO_URING || framework_failure_
    check_queue_ mnt 'reader thread'
  fi
  what="cp $rel_queue_opts_ through the $rel_queue_kind_"

  rm -rf mnt/* || framework_failure_
  run_as_ gnu timeout 60 cp big mnt/big
  test "$(cat gnu.rc)" = 1 || framework_failure_
  rm -rf mnt/* || framework_failure_
  run_as_ ours timeout 60 cp $rel_queue_opts_ big mnt/big
  compare_sides_ "$what"
  check_no_crash_ "$what" $(cat ours.rc)
  is_prefix_ mnt/big big \
    || { echo "$what: the partial copy has wrong bytes"; fail=1; }
done

Exit $fail
