#!/bin/sh
# SIGUSR1 sent to every process of an mpicp job leaves the job running:
# rank 0 prints the one line of bytes copied that it asks for, the
# other ranks ignore it, and the copy ends as it would have without it.
# Rank 0 waits on a FIFO's contents meanwhile, so that the signal comes
# in the middle of the copy whatever the machine's speed.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_mpicp_
grep '^SigIgn:' /proc/self/status > /dev/null 2>&1 \
  || skip_ "no /proc/PID/status to tell when a process handles SIGUSR1"

n_ranks=3
head -c 300000 /dev/urandom > data || framework_failure_
mkfifo fifo || framework_failure_

mpirun_ $n_ranks mpicp --copy-contents fifo out > out.stdout 2> err &
job=$!

# The processes of mpicp below the process PID.
mpicp_below_ ()
{
  ps -e -o pid= -o ppid= -o comm= \
    | awk -v top="$1" '
        { parent[$1] = $2; name[$1] = $3 }
        END {
          for (p in parent)
            if (name[p] == "mpicp")
              for (q = parent[p]; q in parent; q = parent[q])
                if (q == top) { print p; break }
        }'
}

# Whether process PID catches or ignores SIGUSR1 (bit 9 of the masks),
# so that the signal no longer has its default action of ending it.
usr1_handled_ ()
{
  masks=$(sed -n 's/^Sig\(Ign\|Cgt\):[[:space:]]*/0x/p' /proc/$1/status) \
    || return 1
  for m in $masks; do
    test $((m & 0x200)) = 0 || return 0
  done
  return 1
}

# Whether every rank has come that far, setting ranks to their process
# IDs and ready to how many have: rank 0 then waits on the FIFO.
ranks_ready_ ()
{
  ranks=$(mpicp_below_ $job)
  ready=0
  for p in $ranks; do
    usr1_handled_ $p && ready=$((ready + 1))
  done
  test $ready = $n_ranks
}
ready_or_ended_ () { ranks_ready_ || process_ended_ $job; }

# A loaded machine may take long to start the ranks: wait as long as
# the job may run.
wait_until_ $mpi_timeout_ ready_or_ended_
if ! ranks_ready_; then
  echo "$ready of $n_ranks ranks handle SIGUSR1"
  test -z "$ranks" || kill $ranks
  wait $job
  Exit 1
fi

kill -USR1 $ranks || fail=1
timeout $mpi_timeout_ sh -c 'cat data > fifo' || fail=1
wait $job
rc=$?
test $rc = 0 || { echo "mpicp: exit $rc"; fail=1; }

cmp data out || fail=1
compare /dev/null out.stdout || fail=1
line_re='^[0-9]+ bytes .*copied, [0-9.e+-]+ s, [0-9.]+ [kMGT]?B/s$'
if test "$(wc -l < err)" != 1 || ! grep -E "$line_re" err > /dev/null; then
  echo "not rank 0's line alone:"; cat err; fail=1
fi

Exit $fail
