#!/bin/sh
# mpicp's ranks do not give the CPU away each time they look for a
# message and find none, which Open MPI does with more ranks than CPUs
# unless told not to: mpicp sleeps on its own when it has nothing to
# do, and looks between files while it walks.  A setting of the user's
# is kept.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_mpicp_
command -v strace > /dev/null 2>&1 || skip_ "no strace"

mkdir tree || framework_failure_
for d in 1 2 3 4; do
  mkdir tree/d$d || framework_failure_
  for f in 1 2 3 4 5 6 7 8 9 10; do
    echo $d $f > tree/d$d/f$f || framework_failure_
  done
done

# Set n to the calls to sched_yield of every rank of a copy on 4
# ranks, with mpirun's options OPTIONS.
yields_ ()
{
  rm -rf copy trace.* || framework_failure_
  mpirun_ 4 "$@" strace -qq -ff -e trace=sched_yield -o trace mpicp -r tree \
    copy || fail=1
  diff -r tree copy > /dev/null || fail=1
  n=$(cat trace.* | grep -c '^sched_yield')
}

yields_
test "$n" = 0 || { echo "mpicp gave the CPU away $n times"; fail=1; }

# Told to, by a variable of Open MPI's, the ranks do (more ranks than
# CPUs or not).
if mpirun --version 2>/dev/null | grep 'Open MPI' > /dev/null; then
  yields_ -x OMPI_MCA_mpi_yield_when_idle=1
  test "$n" -gt 0 \
    || { echo "OMPI_MCA_mpi_yield_when_idle=1 was not kept"; fail=1; }
fi

Exit $fail
