#!/bin/sh
# A read error in one range of a large file, on one rank of mpicp: the
# message is GNU cp's (with mpicp's name), the exit status 1, the rest
# of the tree is copied whole, and what is left of the failed file is
# what our cp --jobs leaves when the same read fails: the copy cut back
# to where the failed range starts, which GNU cp and our cp leave too
# when the read that fails is the first of a range.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp
require_mpicp_
require_faultshim_
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

# No subdirectory: one could be given to a rank that asks for work
# before rank 0 reaches t/big, and which ranks copy its ranges would
# then depend on the timing.
mkdir t || framework_failure_
head -c 6M /dev/urandom > t/big || framework_failure_
head -c 5M /dev/urandom > t/other-big || framework_failure_
head -c 100000 /dev/urandom > t/mid || framework_failure_
printf 'small\n' > t/small || framework_failure_
touch -d '2003-04-05 06:07:08.9' t/big t/mid || framework_failure_

# The reads of t/big fail, through read and pread alike; the calls
# that copy in the kernel are refused, so that every program reads
# (and says "error reading", not "error copying").
src=t
fault_path='*/t/big'
fault_opts='FAULT_OP=read,pread,preadv2 FAULT_MODE=eio
  FAULT_DISABLE=copy_file_range,sendfile'

# mpicp on 3 ranks, with the shim and the FAULT_* settings given, all
# passed through mpirun to the ranks; the output goes to mpi-NAME.
mpi_eio_ ()
{
  me_name_=$1; shift
  me_x_=
  for me_v_ in $fault_opts "$@" FAULT_LOG=$PWD/fault.log; do
    me_x_="$me_x_ -x $me_v_"
  done
  rm -f fault.log || framework_failure_
  mpirun_ 3 -x LD_PRELOAD="$faultshim_" -x FAULT_FD_PATH="$fault_path" $me_x_ \
    mpicp -a $src mpi-$me_name_ \
    2> mpi-$me_name_.err
  echo $? > mpi-$me_name_.rc
}

# PROGRAM's copy of $src into NAME, with the read at offset AT failing.
serial_eio_ ()
{
  se_name_=$1 se_at_=$2; shift 2
  with_faults_ $fault_opts FAULT_FD_PATH="$fault_path" FAULT_AT=$se_at_ \
    FAULT_LOG=$PWD/fault-$se_name_ -- "$@" -a $src $se_name_ 2> $se_name_.err
  echo $? > $se_name_.rc
}

# What a copy is: each entry's type, size, mode and times, and the
# data.  A failed copy keeps the time it was last written, which no two
# copies share.
listing_ ()
{
  (cd "$1" && find . -printf '%p %y %s %m %T@\n' | LC_ALL=C sort \
     && find . -type f | LC_ALL=C sort | xargs md5sum) \
    | sed 's|^\(\./big f [0-9]* [0-7]*\) .*|\1|'
}

# Compare mpicp's copy NAME with the others', the read at AT failing:
# all say the same and exit 1, and mpicp's copy is the same as those
# of SIDES (gnu, ours, jobs), and no longer than GNU's.
check_against_ ()
{
  ca_name_=$1 ca_at_=$2; shift 2
  rm -rf gnu ours jobs || framework_failure_
  serial_eio_ gnu $ca_at_ "$gnu_dir_/cp"
  serial_eio_ ours $ca_at_ "$ours_dir_/cp"
  serial_eio_ jobs $ca_at_ "$ours_dir_/cp" --jobs=2
  test -s fault-gnu || framework_failure_
  sed 's/^[^:]*: /mpicp: /' gnu.err > exp-err || framework_failure_
  grep "^mpicp: error reading '$src/big': " exp-err > /dev/null \
    || framework_failure_
  echo 1 > exp-rc
  for side in gnu ours jobs mpi-$ca_name_; do
    compare exp-rc $side.rc || fail=1
    sed 's/^[^:]*: /mpicp: /' $side.err > $side.err-n || framework_failure_
    compare exp-err $side.err-n || fail=1
    listing_ $side > $side.list || framework_failure_
  done
  for side in "$@"; do
    compare $side.list mpi-$ca_name_.list || fail=1
  done
  is_prefix_ mpi-$ca_name_/big gnu/big || fail=1
  # Nothing but t/big went wrong.
  listing_ $src | grep -v ' \./big$' | grep -v '^\./big ' > rest-t \
    || framework_failure_
  listing_ mpi-$ca_name_ | grep -v ' \./big$' | grep -v '^\./big ' \
    > rest-mpi || framework_failure_
  compare rest-t rest-mpi || fail=1
}

# The offsets of the reads that failed, from the shim's log.
failed_at_ ()
{
  test ! -f fault.log || sed 's/^[a-z]* at \([0-9]*\) len .*/\1/' fault.log
}

# The read at the start of the fourth range fails, whichever rank
# copies that range.
at=3145728
mpi_eio_ at FAULT_AT=$at
test "$(failed_at_)" = $at \
  || { echo "reads failed at: $(failed_at_)"; fail=1; }
check_against_ at $at gnu ours jobs

# A read in the middle of a range fails: as cp --jobs, mpicp cuts the
# copy back to where that range starts (the bytes of the range before
# the failed read may not all be written), short of what a copy in one
# go leaves.
at=3670016
mpi_eio_ mid FAULT_AT=$at
test "$(failed_at_)" = $at \
  || { echo "reads failed at: $(failed_at_)"; fail=1; }
check_against_ mid $at jobs
test "$(stat -c %s mpi-mid/big)" = 3145728 || fail=1

# Rank 1's first read of the large file fails, in whichever range it
# copies first, and no other rank's: the shim, counting in each process,
# would fail one read on each rank that copies a range.  The directory
# copied holds that file alone, so that rank 1 is sent its first range
# whatever the timing: rank 0's first message goes to rank 1, as every
# rank is as busy as the others, and rank 1 copies what it is sent in
# order.  (In t, a range of another file could come first, and rank 1
# be too busy for any range of t/big.)
mkdir t1 && cp -p t/big t1/big || framework_failure_
src=t1 fault_path='*/t1/big'
mpi_eio_ rank1 FAULT_RANK=1 FAULT_AT=0 FAULT_LEN=6291456 FAULT_COUNT=1
at=$(failed_at_)
test "$at" = 0 || { echo "rank 1's reads failed at: $at"; fail=1; }
check_against_ rank1 0 gnu ours jobs

Exit $fail
