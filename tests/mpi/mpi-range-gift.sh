#!/bin/sh
# A large file in a subtree that a rank was given is split too: that
# rank copies its ranges one after another and gives ranges to the
# ranks that ask it for work meanwhile, so more than one rank reads
# the file, and the copy is whole.
# Rank 0 first copies a FIFO's contents, which this test holds back
# until the other ranks have asked it for work: it then gives the
# subtree away as soon as it makes its directory.  The first read of
# the large file in each process waits until the test lets it go on,
# so that the ranks refused by rank 0 ask the one copying meanwhile;
# the fault shim's log has a line for each such process.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

mkdir t t/sub dst || framework_failure_
head -c 6M /dev/urandom > t/sub/big || framework_failure_
printf 'small\n' > t/sub/small || framework_failure_
touch -d '2003-04-05 06:07:08.9' t/sub/big t/sub || framework_failure_
mkfifo fifo || framework_failure_

mpirun_ 3 -x LD_PRELOAD="$faultshim_" -x FAULT_FD_PATH='*/sub/big' \
  -x FAULT_OP=read,pread,preadv2,copy_file_range,sendfile \
  -x FAULT_MODE=pause -x FAULT_FLAG="$PWD/paused" -x FAULT_LOG="$PWD/reads" \
  mpicp -a --copy-contents fifo t dst > out 2> err &
job=$!

# The FIFO opens once rank 0 reads it; its contents come a second
# later, the other ranks having asked rank 0 for work at their start.
( sleep 1; echo fifo-data ) > fifo &
feeder=$!

# Each process that reads t/sub/big waits until the flag is gone.
while ! process_ended_ $job; do
  if test -e paused; then
    sleep 1
    rm -f paused || framework_failure_
  fi
  sleep .1
done
wait $job || { cat err; fail=1; }
kill $feeder 2> /dev/null

compare /dev/null err || fail=1
cmp t/sub/big dst/t/sub/big || fail=1
cmp t/sub/small dst/t/sub/small || fail=1
echo fifo-data > fifo.want || framework_failure_
cmp fifo.want dst/fifo || fail=1
for f in t/sub t/sub/big; do
  test "$(stat -c '%s %a %y' $f)" = "$(stat -c '%s %a %y' dst/$f)" \
    || { echo "dst/$f has other attributes"; fail=1; }
done

test "$(wc -l < reads)" -ge 2 \
  || { echo "t/sub/big was read by one rank:"; cat reads; fail=1; }

Exit $fail
