#!/bin/sh
# A rank walking a subtree it was given keeps what it has to say for
# its answer, which rank 0 alone prints, even after it has copied the
# ranges of a large file itself: the unreadable files it meets after
# that file are reported by rank 0, never by the rank itself, whose
# lines mpirun would mix with rank 0's.  mpirun's --output-filename
# keeps what each rank wrote apart.
# Rank 0 first copies a FIFO's contents, which this test holds back
# until rank 1 waits for an answer to its request for work: rank 0
# then gives t/sub away as soon as it makes it, and with no other rank
# asking for work, rank 1 copies every range of t/sub/big itself.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
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
  mpicp -r --copy-contents fifo t dst > out 2> err &
job=$!

# The mpicp processes the job started.
job_ranks ()
{
  ps -e -o pid=,ppid=,comm= | awk -v top=$job '
    { parent[$1] = $2; name[$1] = $3 }
    END {
      for (p in name)
        if (name[p] == "mpicp")
          for (q = parent[p]; q > 1; q = parent[q])
            if (q == top) { print p; break }
    }'
}
# Whether one rank waits for the FIFO to be opened (rank 0) and the
# other sleeps between two looks for a message, as rank 1 does once it
# has asked rank 0 for work.
ranks_ready ()
{
  rr_wchans=
  for pid in $(job_ranks); do
    rr_wchans="$rr_wchans $(cat /proc/$pid/wchan 2> /dev/null)"
  done
  case $rr_wchans in
    *wait_for_partner*) ;;
    *) return 1 ;;
  esac
  case $rr_wchans in
    *nanosleep*) return 0 ;;
    *) return 1 ;;
  esac
}
ready_or_ended_ () { ranks_ready || process_ended_ $job; }
# Opened for reading and writing, the FIFO does not wait for a reader,
# and the test goes on if the job ended first.
if ! wait_until_ 120 ready_or_ended_; then
  echo fifo-data 1<> fifo || framework_failure_
  wait $job
  skip_ "cannot tell from /proc/PID/wchan where the ranks wait"
fi
echo fifo-data 1<> fifo || framework_failure_
wait $job
rc=$?

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
