#!/bin/sh
# mpicp splits large files into ranges that different ranks copy, and
# the copy is GNU cp's: contents, holes, times; as an operand too.
# CPDD_CHUNK_SIZE, a knob for the tests, makes ranges of 1 MiB.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_mpicp_
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

mkdir fix fix/tree fix/tree/sub || framework_failure_
dd if=/dev/urandom of=fix/tree/sub/dense bs=1M count=5 status=none \
  || framework_failure_
# Data in the second range and at the end; the ranges between are all
# hole.
dd if=/dev/urandom of=fix/tree/sub/sparse bs=64K count=2 seek=20 \
  status=none || framework_failure_
dd if=/dev/urandom of=fix/tree/sub/sparse bs=64K count=1 seek=150 \
  conv=notrunc status=none || framework_failure_
truncate -s 12M fix/tree/sub/sparse || framework_failure_
printf 'small\n' > fix/tree/sub/small || framework_failure_
touch -d '2003-04-05 06:07:08.9' fix/tree/sub/dense fix/tree/sub \
  || framework_failure_

# The blocks FILE takes, which GNU's copy and ours must share.
blocks_ () { stat -c %b "$1"; }

for n in 2 4; do
  ( CPDD_TEST_MPI=$n
    . "$srcdir/tests/diff-helpers.sh"
    DIFF_TIMES=ns diff_run_ tree-$n cp -a tree copy
    diff_run_ operands-$n cp -p tree/sub/sparse \
      tree/sub/dense tree/sub/small tree
    exit $fail ) || fail=1
  test "$(blocks_ tree-$n.ours/copy/sub/sparse)" \
       = "$(blocks_ tree-$n.gnu/copy/sub/sparse)" \
    || { echo "$n ranks: the tree's sparse copy has other blocks"; fail=1; }
  test "$(blocks_ operands-$n.ours/tree/sparse)" \
       = "$(blocks_ operands-$n.gnu/tree/sparse)" \
    || { echo "$n ranks: the operand's sparse copy has other blocks"; fail=1; }
done

# Rank 0's --stats count what every rank copied, as cp's do.
stats_ () { sed -n 's/^\([0-9]*\) bytes .*/\1/p; s/^\([0-9]* files\),.*/\1/p'; }
cp --stats -a fix/tree stats-cp 2> stats-cp.err || fail=1
mpirun_ 4 mpicp --stats -a fix/tree stats-mpi 2> stats-mpi.err || fail=1
stats_ < stats-cp.err > stats-cp.n || framework_failure_
stats_ < stats-mpi.err > stats-mpi.n || framework_failure_
test -s stats-cp.n || fail=1
compare stats-cp.n stats-mpi.n || fail=1

# The ranges went to more than one rank: each opens the copy again,
# which rank 0 created.  The directory copied holds that file alone,
# so that what rank 0 sends is decided whatever the timing: it sends
# each range to the rank with the fewest ranges not answered for, the
# first from the one after the last it chose among equals, and it has
# room for all 5 ranges on the 3 other ranks.  So the first two go to
# ranks 1 and 2, even if rank 1 answered before the second was sent.
# (In fix/tree/sub, the 12 ranges of sparse could fill every rank's
# room before rank 0 came to dense, which it then copied itself but
# for the ranges of the ranks that happened to answer in time.)
if command -v strace > /dev/null 2>&1; then
  mkdir fix/ranges && cp fix/tree/sub/dense fix/ranges/dense \
    || framework_failure_
  mpirun_ 4 strace -qq -ff -e trace=openat -o trace mpicp -a fix/ranges \
    copy || fail=1
  cmp fix/ranges/dense copy/dense || fail=1
  opened=$(grep '"dense", O_WRONLY' trace.* | grep -v O_CREAT \
           | cut -d: -f1 | sort -u | wc -l)
  test "$opened" -ge 2 \
    || { echo "the ranges of dense were opened by $opened rank(s)"; fail=1; }
fi

Exit $fail
