#!/bin/sh
# An I/O error or a full disk met by cp --direct with reads and writes
# in flight together (the reader thread's queue) is reported as GNU cp
# reports it, and the copy is cut back to a prefix of the source with
# no gap, as long as every block before the failed one.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp
require_faultshim_
fail=0

# The reader thread calls pread and pwrite, which the shim sees.
CPDD_IO_URING=0 && export CPDD_IO_URING || framework_failure_
check_queue_ . 'reader thread'

# 45 whole 64 KiB blocks and a tail: the 16 buffers go round the ring.
head -c 3000000 /dev/urandom > src || framework_failure_
printf 'small\n' > small || framework_failure_

# run_fault_ SIDE END MODE AT [FAULT_DISABLE=...] -- CMD...
run_fault_ ()
{
  rf_side_=$1 rf_end_=$2 rf_mode_=$3 rf_at_=$4; shift 4
  rm -rf d && mkdir d || framework_failure_
  fault_run_ $rf_side_ $rf_end_ '*/d/src' FAULT_MODE=$rf_mode_ \
    FAULT_AT=$rf_at_ "$@"
}

# The first block, the middle of a block after the ring has wrapped, a
# block boundary, and the tail after the last whole block.
for at in 0 1500000 1441792 2990000; do
  # Every block before the one the fault hits was copied.
  keep=$(($at / 65536 * 65536))
  for fault in read:eio write:eio write:enospc; do
    end=${fault%:*} mode=${fault#*:}
    what="cp $rel_queue_opts_ with $mode on ${end}s at $at"
    run_fault_ ours $end $mode $at -- timeout 60 cp $rel_queue_opts_ \
      src small d
    check_no_crash_ "$what" $(cat ours.rc)
    test -s fault.log || { echo "$what: the fault was not met"; fail=1; }
    cmp small d/small || { echo "$what: the next file was not copied"; fail=1; }
    is_prefix_ d/src src \
      || { echo "$what: the partial copy has wrong bytes"; fail=1; }
    size=$(stat -c %s d/src) || framework_failure_
    test $size -ge $keep \
      || { echo "$what: only $size bytes kept, not $keep"; fail=1; }
    for f in rc err out; do mv ours.$f ours.$f-keep || framework_failure_; done

    # GNU cp copies with read and write when copy_file_range is not
    # there.
    run_fault_ gnu $end $mode $at FAULT_DISABLE=copy_file_range -- \
      timeout 60 cp src small d
    test -s fault.log || framework_failure_
    for f in rc err out; do mv ours.$f-keep ours.$f || framework_failure_; done
    compare_sides_ "$what"
  done
done

Exit $fail
