#!/bin/sh
# A rank given a subtree that is one directory of many files, with no
# subdirectory to give away, sends its files to the ranks that ask it
# for work, instead of copying them all while they wait; and a rank
# waiting for answers, as rank 0 does once its walk is over, asks for
# files to copy meanwhile.
# As in mpi-range-gift.sh, rank 0 first copies a FIFO's contents, held
# back until the other ranks have asked it for work (mpishim.so logs
# the messages sent), and then gives t/sub to one of them, A, as soon
# as it makes the directory.  Each process pauses at its first read of
# a file of t/sub until the test lets it go on, and logs that read in
# a file of its own.
# A goes on only once a request for work to A is open (a rank asked A
# more often than A refused it), or A gave files away already: that a
# rank asked is not enough, as A may have refused the request before
# it took t/sub.  A, whatever it copied before, then answers with its
# next file.
# On 2 ranks, rank 1 is A, and the only rank that may ask it for files
# is rank 0, once its walk is over: the request open is rank 0's, and
# rank 0 copies files of t/sub.
# On 3 ranks, the other rank, B, refused by rank 0, asks A for work,
# and rank 0, its walk over, asks A too: A and rank 0 go on only once
# one of them has a request open at A.  Which of the two A meets first
# depends on when MPI delivers them, not on when they were sent (a
# full run under load once saw B copy nothing): the test requires that
# A gives files to one of them rather than copy them all.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_
require_mpishim_

mkdir t t/sub || framework_failure_
for i in $(seq 20); do
  printf 'file %s\n' $i > t/sub/f$i || framework_failure_
done
touch -d '2003-04-05 06:07:08.9' t/sub || framework_failure_
mkfifo fifo || framework_failure_
mpicp=$(command -v mpicp) || framework_failure_

# flat_run_ N: copy fifo and t into dst-N on N ranks, A and B being
# the ranks named above; sent-N is mpishim.so's log, reads-N.R the
# reads of rank R.  RELEASE_ R is the test's decision to let rank R,
# paused, go on.
flat_run_ ()
{
  n=$1
  mkdir dst-$n || framework_failure_
  mpirun_ $n -x LD_PRELOAD="$faultshim_ $mpishim_" -x MPISHIM_LOG="$PWD/sent-$n" \
    -x FAULT_FD_PATH='*/sub/f*' \
    -x FAULT_OP=read,pread,preadv2,copy_file_range,sendfile \
    -x FAULT_MODE=pause \
    bash -c 'r=$OMPI_COMM_WORLD_RANK n=$OMPI_COMM_WORLD_SIZE
             FAULT_LOG=$PWD/reads-$n.$r FAULT_FLAG=$PWD/paused-$n.$r \
             exec "$@"' \
    bash "$mpicp" -a --copy-contents fifo t dst-$n > out-$n 2> err-$n &
  job=$!
  # The FIFO's contents come once every other rank asked rank 0 for
  # work; the writer waits for rank 0 to open the FIFO.
  wait_until_ 300 asked_or_ended_ \
    || { echo "$n ranks: they never asked for work"; fail=1; }
  echo fifo-data > fifo &
  feeder=$!
  a= b=
  while ! process_ended_ $job; do
    a=$(mpi_first_to_ sent-$n 0 TASK)
    if test -n "$a"; then
      b=$((3 - a))
      for r in $(seq 0 $((n - 1))); do
        if test -e paused-$n.$r && release_ $r; then
          rm -f paused-$n.$r || framework_failure_
        fi
      done
    fi
    sleep .1
  done
  wait $job || { cat err-$n; fail=1; }
  kill $feeder 2> /dev/null
  compare /dev/null err-$n || fail=1
  compare /dev/null out-$n || fail=1
  diff -r t dst-$n/t || fail=1
  test "$(stat -c '%a %y' t/sub)" = "$(stat -c '%a %y' dst-$n/t/sub)" \
    || { echo "$n ranks: dst-$n/t/sub has other attributes"; fail=1; }
  test -n "$a" || { echo "$n ranks: t/sub was given to no rank"; fail=1; }
  for r in $(seq 0 $((n - 1))); do
    test ! -e paused-$n.$r \
      || { echo "$n ranks: rank $r was never let go on:"; cat sent-$n; fail=1; }
  done
}
asked_or_ended_ ()
{
  process_ended_ $job && return
  for r in $(seq 1 $((n - 1))); do
    mpi_sent_ sent-$n $r 0 STEAL || return 1
  done
}

# Whether paused rank A may go on.  The log says where A stands only
# while A is paused, which flat_run_ checks first.
a_may_go_ ()
{
  mpi_unrefused_ sent-$n $a || mpi_sent_ sent-$n $a '*' TASK
}

release_ () { test $1 != $a || a_may_go_; }
flat_run_ 2
test -s reads-2.0 \
  || { echo "2 ranks: rank 0 copied no file of t/sub"; fail=1; }

release_ () { test $1 = $b || a_may_go_; }
flat_run_ 3
test -s reads-3.$b || test -s reads-3.0 \
  || { echo "3 ranks: rank $a copied all of t/sub, though ranks $b and 0" \
         "asked it for work"; fail=1; }

Exit $fail
