#!/bin/sh
# A large file in a subtree that a rank was given is split too: that
# rank copies its ranges one after another and gives ranges to the
# ranks that ask it for work meanwhile, so more than one rank reads
# the file, and the copy is whole.
# Rank 0 first copies a FIFO's contents, which this test holds back
# until the other two ranks have asked it for work (mpishim.so logs the
# messages sent): it then gives t/sub to one of them, A, as soon as it
# makes the directory.  The first read of the large file in each
# process waits until the test lets it go on: in A, not before another
# rank (the one refused by rank 0, or rank 0 asking for files while it
# waits) has a request for work open at A, or A gave work away, so
# that A, whatever it copied before, answers with its next range; in
# the others, not before two processes read the file.  The fault
# shim's log has a line for each process that read the file.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_
require_mpishim_
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

mkdir t t/sub dst || framework_failure_
head -c 6M /dev/urandom > t/sub/big || framework_failure_
printf 'small\n' > t/sub/small || framework_failure_
touch -d '2003-04-05 06:07:08.9' t/sub/big t/sub || framework_failure_
mkfifo fifo || framework_failure_

# Each rank pauses at its first read of t/sub/big, with a flag file of
# its own.
mpicp=$(command -v mpicp) || framework_failure_
mpirun_ 3 -x LD_PRELOAD="$faultshim_ $mpishim_" -x MPISHIM_LOG="$PWD/sent" \
  -x FAULT_FD_PATH='*/sub/big' \
  -x FAULT_OP=read,pread,preadv2,copy_file_range,sendfile \
  -x FAULT_MODE=pause -x FAULT_LOG="$PWD/reads" \
  bash -c 'FAULT_FLAG=$PWD/paused.$OMPI_COMM_WORLD_RANK exec "$@"' bash \
  "$mpicp" -a --copy-contents fifo t dst > out 2> err &
job=$!

# The FIFO's contents come once ranks 1 and 2 have asked rank 0 for
# work; the writer waits for rank 0 to open the FIFO.
asked_ () { mpi_sent_ sent 1 0 STEAL && mpi_sent_ sent 2 0 STEAL; }
asked_or_ended_ () { asked_ || process_ended_ $job; }
wait_until_ 300 asked_or_ended_ || { echo "the ranks never asked for work"; fail=1; }
echo fifo-data > fifo &
feeder=$!

# Whether paused rank A may go on: a request for work to A is open,
# which A, stopped before it could answer, answers with its next range;
# or A gave work away already, and the ranges it has yet to copy go on
# to the rank it feeds.  That a rank merely asked A is not enough: A
# may have refused it before it took t/sub, and copy all its ranges.
a_may_go_ () { mpi_unrefused_ sent $a || mpi_sent_ sent $a '*' TASK; }
# Whether two processes read the file.  Until then the ranks A sent
# ranges to stay paused at their first read: one that copied its four
# could ask A again and be sent the rest, A having read none; paused,
# it cannot ask, and the rest go to another rank or A, a second reader.
two_readers_ () { test -f reads && test "$(wc -l < reads)" -ge 2; }
release_ () { if test $1 = $a; then a_may_go_; else two_readers_; fi; }

while ! process_ended_ $job; do
  a=$(mpi_first_to_ sent 0 TASK)
  if test -n "$a"; then
    for r in 0 1 2; do
      # The flag first: the log says where A stands only while A is
      # paused.
      if test -e paused.$r && release_ $r; then
        rm -f paused.$r || framework_failure_
      fi
    done
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

test -n "$a" || { echo "rank 0 gave t/sub to no rank:"; cat sent; fail=1; }
for r in 0 1 2; do
  test ! -e paused.$r \
    || { echo "rank $r was never let go on:"; cat reads sent; fail=1; }
done
test "$(wc -l < reads)" -ge 2 \
  || { echo "t/sub/big was read by one rank:"; cat reads sent; fail=1; }

Exit $fail
