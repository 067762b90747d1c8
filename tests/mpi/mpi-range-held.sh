#!/bin/sh
# A rank walking a subtree it was given keeps what it has to say for
# its answer, which rank 0 alone prints, even after it has copied the
# ranges of a large file itself: the unreadable files it meets after
# that file are reported by rank 0, never by the rank itself, whose
# lines mpirun would mix with rank 0's.  mpirun's --output-filename
# keeps what each rank wrote apart.
# Rank 0 first copies a FIFO's contents, which this test holds back
# until rank 1 has asked it for work (mpishim.so logs the messages
# sent): rank 0 then gives t/sub away as soon as it makes it.  Rank 0
# is then held (by mpishim.so) until rank 1 has answered for t/sub, so
# that no rank asks rank 1 for work meanwhile, and rank 1 copies every
# range of t/sub/big itself, then meets the unreadable files.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_mpishim_
as_nobody=$(unprivileged_runner_)
test -n "$as_nobody" || skip_ "no unprivileged user to make files unreadable"
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

# The files are listed in the order they were made (by inode number),
# so the large file comes before those that cannot be read.
mkdir t t/sub dst || framework_failure_
head -c 3M /dev/urandom > t/sub/big || framework_failure_
for i in 1 2 3 4; do
  echo $i > t/sub/deny$i && chmod 0 t/sub/deny$i || framework_failure_
done
mkfifo fifo || framework_failure_
chmod 666 fifo && chmod 777 . dst || framework_failure_

$as_nobody timeout -k 30 "$mpi_timeout_" \
  mpirun --oversubscribe -q -np 2 --output-filename ranks -x CPDD_CHUNK_SIZE \
  -x LD_PRELOAD="$mpishim_" -x MPISHIM_LOG="$PWD/sent" \
  -x MPISHIM_PAUSE="0 $(mpi_tag_ TASK)" -x MPISHIM_FLAG="$PWD/held" \
  mpicp -r --copy-contents fifo t dst > out 2> err &
job=$!

# The FIFO's contents come once rank 1 has asked rank 0 for work; the
# writer waits for rank 0 to open the FIFO.
asked_or_ended_ () { mpi_sent_ sent 1 0 STEAL || process_ended_ $job; }
wait_until_ 300 asked_or_ended_ || { echo "rank 1 never asked for work"; fail=1; }
echo fifo-data > fifo &
feeder=$!

# Rank 0, held once it sent t/sub to rank 1, goes on once rank 1 has
# answered for it.
done_or_ended_ ()
{
  { test -e held && mpi_sent_ sent 1 0 DIR_DONE; } || process_ended_ $job
}
wait_until_ 300 done_or_ended_ || { echo "rank 1 never answered"; fail=1; }
mpi_sent_ sent 0 1 TASK || { echo "rank 0 gave rank 1 no work"; fail=1; }
rm -f held || framework_failure_
wait $job
rc=$?
kill $feeder 2> /dev/null

# Rank 1 gave no range away.
if mpi_sent_ sent 1 0 TASK; then
  echo "rank 1 gave work away:"; cat sent; fail=1
fi
test $rc = 1 || { echo "exit status $rc, not 1"; fail=1; }
cmp t/sub/big dst/t/sub/big || fail=1
echo fifo-data > fifo.want || framework_failure_
cmp fifo.want dst/fifo || fail=1
for i in 1 2 3 4; do
  printf "mpicp: cannot open 't/sub/deny%s' for reading: %s\n" \
    $i 'Permission denied'
done > err.want || framework_failure_
for f in err ranks/1/rank.0/stderr; do
  LC_ALL=C sort $f > err.sorted || framework_failure_
  compare err.want err.sorted || fail=1
done
if test -s ranks/1/rank.1/stderr; then
  echo "rank 1 wrote:"; cat ranks/1/rank.1/stderr; fail=1
fi
chmod -R u+rwx . || framework_failure_

Exit $fail
