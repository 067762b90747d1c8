#!/bin/sh
# mpicp --print-hash, --hash-file and --verify on 3 ranks: the lines of
# the files the other ranks copy come back with their answers and are
# printed by rank 0 alone, into one file with --hash-file; a copy
# corrupted before it is read back fails --verify on whichever rank
# copies it, and so does a range of a large file.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_

mkdir t || framework_failure_
for d in 1 2 3 4; do
  mkdir t/d$d || framework_failure_
  for f in 1 2 3 4 5; do
    head -c $((d * f * 10000)) /dev/urandom > t/d$d/f$f || framework_failure_
  done
done
: > t/empty || framework_failure_

# The lines, in any order, are sha256sum's for the copies.
mpirun_ 3 mpicp -r --print-hash --verify t c1 > c1.lines 2> c1.err || fail=1
test -s c1.err && { cat c1.err; fail=1; }
LC_ALL=C sort c1.lines > c1.sorted || framework_failure_
find c1 -type f | LC_ALL=C sort | xargs sha256sum | LC_ALL=C sort > c1.want \
  || framework_failure_
compare c1.want c1.sorted || fail=1

# --hash-file: one file, written by rank 0, that sha256sum -c accepts.
mpirun_ 3 mpicp -r --hash-file=sums t c2 > c2.out 2> c2.err || fail=1
test -s c2.out && { cat c2.out; fail=1; }
test "$(wc -l < sums)" = 21 || { cat sums; fail=1; }
sha256sum -c sums > /dev/null || fail=1

# One copy turned over before its read-back, on any rank.
mpirun_ 3 -x LD_PRELOAD="$faultshim_" -x FAULT_MODE=corrupt \
  -x FAULT_OP=open -x FAULT_AT=5000 -x 'FAULT_FD_PATH=*/c3/d3/f4' \
  mpicp -r --verify t c3 2> c3.err
status=$?
test $status = 1 || { echo "exit $status"; fail=1; }
printf "mpicp: 'c3/d3/f4' differs from 't/d3/f4' when read back\n" \
  > c3.want || framework_failure_
compare c3.want c3.err || fail=1
cmp -s t/d3/f4 c3/d3/f4 && { echo "not corrupted"; fail=1; }

# A large file in ranges, each read back on the rank that copies it;
# a byte turned over on its way to storage fails the file, which is
# kept whole.
mkdir big || framework_failure_
head -c 6M /dev/urandom > big/file || framework_failure_
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE
mpirun_ 3 -x CPDD_CHUNK_SIZE mpicp -r --verify --debug big c4 > c4.out \
  2> c4.err || fail=1
test -s c4.err && { cat c4.err; fail=1; }
grep -q 'ranges: 6, hash: as copied, read back: ' c4.out \
  || { cat c4.out; fail=1; }
cmp big/file c4/file || fail=1
mpirun_ 3 -x CPDD_CHUNK_SIZE -x LD_PRELOAD="$faultshim_" \
  -x FAULT_MODE=corrupt -x FAULT_OP=write,pwrite,pwritev2 \
  -x FAULT_AT=3500000 -x 'FAULT_FD_PATH=*/c5/file' \
  mpicp -r --verify big c5 2> c5.err
status=$?
test $status = 1 || { echo "exit $status"; fail=1; }
printf "mpicp: 'c5/file' differs from 'big/file' when read back\n" \
  > c5.want || framework_failure_
compare c5.want c5.err || fail=1
test "$(stat -c %s c5/file)" = 6291456 || fail=1

Exit $fail
