#!/bin/sh
# mpicp's progress line on rank 0 counts the bytes another rank copies
# while it copies them, not only once it answers for the whole file:
# rank 1 copies a file whose reads the shim holds back, a byte at a
# time, until rank 0's line has shown part of the file copied, as a
# share of the tree that rank 0 counted; only then can the copy end.
# The --stats that follow say that rank 1 copied the file.  With four
# ranks, the one line sums the bytes of three ranks or more.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_

# A directory with no subdirectory: rank 0 sends the file to rank 1,
# the only other rank, whole, as it is smaller than a range.
size=2097152
mkdir d || framework_failure_
head -c $size /dev/urandom > d/big || framework_failure_

rm -f fault.log || framework_failure_
# err is read while the job runs: it must be there before the job
# starts writing to it.
touch held err || framework_failure_
mpirun_ 2 -x LD_PRELOAD="$faultshim_" -x FAULT_RANK=1 \
  -x FAULT_OP=$rel_read_ops_ -x FAULT_FD_PATH='*/d/big' \
  -x FAULT_MODE=hold -x FAULT_FLAG="$PWD/held" -x FAULT_SLEEP_MS=10 \
  -x FAULT_DISABLE=copy_file_range,sendfile -x FAULT_LOG="$PWD/fault.log" \
  mpicp -r --io-method=read --buffer-size=64K --progress=always \
    --stats=json d copy > out 2> err &
job=$!

# The progress lines, each drawn over the last after a carriage
# return, and the statistics after them; those that show some of the
# file copied and some not, of its size as the total.
counts_ ()
{
  tr '\r' '\n' < err > lines || framework_failure_
}
partial_re='^[1-9][0-9.]* [kM]?B of 2\.1 MB \([0-9][0-9]?%\) written to cache'
partial_ () { counts_; grep -E "$partial_re" lines; }
partial_or_ended_ () { partial_ > /dev/null || process_ended_ $job; }
wait_until_ 300 partial_or_ended_
rm -f held || framework_failure_
wait $job || fail=1
cmp d/big copy/big || fail=1
compare /dev/null out || fail=1
test -s fault.log || { echo "rank 1 was never held back"; fail=1; }
partial_ > /dev/null \
  || { echo "no progress line shows part of the file:"; cat lines; fail=1; }

share='"busy_seconds": [0-9.]+, "steals": [0-9]+'
ranks='"ranks": \[\{"rank": 0, "bytes": 0, "files": 0, '"$share"'\},'
ranks="$ranks"' \{"rank": 1, "bytes": 2097152, "files": 1, '"$share"'\}\]\}$'
grep -E "\"bytes\": $size, .*\"files\": 1, .*$ranks" lines > /dev/null \
  || { echo "not rank 1's copy:"; cat lines; fail=1; }

# Four ranks, one line: twelve files of 2 MiB, each held once its
# copy is 1 MiB in, wherever it is copied.  A rank copies one file at
# a time, so rank 0's line can show 3 MiB copied, and more, only as
# the sum of three ranks' bytes or more, as they go.
mkdir e || framework_failure_
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  head -c $size /dev/urandom > e/f$i || framework_failure_
done
echo 1048576 > held && : > err || framework_failure_
mpirun_ 4 -x LD_PRELOAD="$faultshim_" \
  -x FAULT_OP=$rel_read_ops_ -x FAULT_FD_PATH='*/e/f*' \
  -x FAULT_MODE=hold -x FAULT_FLAG="$PWD/held" -x FAULT_SLEEP_MS=10 \
  -x FAULT_DISABLE=copy_file_range,sendfile \
  mpicp -r --io-method=read --buffer-size=64K --progress=always \
    --stats=json e copy4 > out 2> err &
job=$!
summed_re='^[3-9]\.[0-9] MB of 25 MB \([0-9]+%\) written to cache'
summed_ () { counts_; grep -E "$summed_re" lines; }
summed_or_ended_ () { summed_ > /dev/null || process_ended_ $job; }
wait_until_ 300 summed_or_ended_
rm -f held || framework_failure_
wait $job || fail=1
summed_ > /dev/null \
  || { echo "4 ranks: no line sums three ranks' bytes:"; cat lines; fail=1; }
# One line, rank 0's: every line drawn has the tree's total.
grep -E ' of ' lines | grep -v -E ' of 25 MB \(' \
  && { echo "4 ranks: a line of another total"; fail=1; }
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  cmp e/f$i copy4/f$i || fail=1
done

Exit $fail
