#!/bin/sh
# mpicp's progress line on rank 0 counts the bytes another rank copies
# while it copies them, not only once it answers for the whole file:
# rank 1 copies a file slowly (the shim makes each of its writes to it
# wait), and rank 0's line shows part of the file copied before the
# end.  The writes take seconds in all whatever the machine's speed,
# and rank 0 redraws its line every second meanwhile.  The --stats
# that follow say that rank 1 copied the file.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_

# 32 writes of 64 KiB, each after a quarter of a second.  A directory
# with no subdirectory: rank 0 sends the file to rank 1, the only
# other rank, whole, as it is smaller than a range.
size=2097152
mkdir d || framework_failure_
head -c $size /dev/urandom > d/big || framework_failure_

rm -f fault.log || framework_failure_
mpirun_ 2 -x LD_PRELOAD="$faultshim_" -x FAULT_RANK=1 \
  -x FAULT_OP=$rel_write_ops_ -x FAULT_FD_PATH='*/copy/big' \
  -x FAULT_MODE=slow -x FAULT_SLEEP_MS=250 \
  -x FAULT_DISABLE=copy_file_range,sendfile -x FAULT_LOG="$PWD/fault.log" \
  mpicp -r --io-method=read --buffer-size=64K --progress=always \
    --stats=json d copy > out 2> err || fail=1
cmp d/big copy/big || fail=1
compare /dev/null out || fail=1
test -s fault.log || { echo "rank 1 never wrote slowly"; fail=1; }

# The counts of the progress lines, each drawn over the last after a
# carriage return, and the statistics after them.
tr '\r' '\n' < err > lines || framework_failure_
sed -n 's/^\([0-9][0-9]*\) bytes* .*copied.*/\1/p' lines > counts \
  || framework_failure_
partial=$(awk -v size=$size '0 < $1 && $1 < size' counts | wc -l)
test "$partial" -ge 1 \
  || { echo "no progress line shows part of the file:"; cat lines; fail=1; }

ranks='"ranks": \[\{"rank": 0, "bytes": 0, "files": 0\},'
ranks="$ranks"' \{"rank": 1, "bytes": 2097152, "files": 1\}\]\}$'
grep -E "\"bytes\": $size, .*\"files\": 1, .*$ranks" lines > /dev/null \
  || { echo "not rank 1's copy:"; cat lines; fail=1; }

Exit $fail
