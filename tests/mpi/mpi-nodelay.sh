#!/bin/sh
# Every TCP connection a rank has when MPI is set up (Open MPI's, to
# mpirun) sends its small messages at once, instead of holding one
# back until the previous one is acknowledged: the messages that end
# the job waited 40 ms for a delayed acknowledgement on Linux.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_mpicp_
command -v strace > /dev/null 2>&1 || skip_ "no strace"

mkdir tree || framework_failure_
echo a > tree/a || framework_failure_

# Each process writes its own trace, threads included, as the runtime
# may connect from a thread of its own.
mpirun_ 2 sh -c 'exec strace -qq -f -e trace=connect,setsockopt \
  -o "trace.$$" mpicp "$@"' sh -r tree copy || fail=1
diff -r tree copy || fail=1

# Print each TCP connection of the trace FILE that was not told to send
# at once, as "FILE: fd N"; print "none" if it made no TCP connection.
held_back_ ()
{
  perl -ne '
    $tcp{$1} = 1 if /connect\((\d+), \{sa_family=AF_INET6?,/;
    $now{$1} = 1 if /setsockopt\((\d+), SOL_TCP, TCP_NODELAY, \[1\], \d+\) = 0/;
    END {
      print "none\n" unless %tcp;
      print "$ARGV: fd $_\n" for grep { !$now{$_} } sort keys %tcp;
    }' "$1"
}

traces=0
for t in trace.*; do
  test -f "$t" || continue
  traces=$((traces + 1))
  out=$(held_back_ "$t") || framework_failure_
  case $out in
    none) skip_ "this MPI's ranks make no TCP connection" ;;
    ?*) echo "$out"; fail=1 ;;
  esac
done
test $traces = 2 || { echo "$traces traces, not 2"; fail=1; }

Exit $fail
