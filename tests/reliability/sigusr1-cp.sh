#!/bin/sh
# SIGUSR1 in the middle of a copy makes cp print one line of the bytes
# copied so far, in dd's words, and carry on to a byte-exact copy; with
# SIGUSR1 ignored from the start, cp ignores it.  The first signal only
# starts the count of the total (tests/cp/progress-total.sh), and its
# line is dd's alone.  Not compared with GNU
# cp, which SIGUSR1 kills.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_
fail=0

# stalled_run_ stops the copy in its write reaching this byte.
stall_at=303104
size=3000000
head -c $size /dev/urandom > src || framework_failure_

# The reader thread writes with pwrite, where the shim can stall it.
CPDD_IO_URING=0 && export CPDD_IO_URING || framework_failure_
queues=--io-method=read
if cpdd_has_ HAVE_O_DIRECT; then
  queue_kind_ .
  if test "$rel_queue_kind_" = 'reader thread'; then
    queues="$queues|$rel_queue_opts_"
  else
    echo "cp $rel_queue_opts_ through the $rel_queue_kind_, not the reader thread"
    fail=1
  fi
fi

# check_copied_ WHAT: fail unless ours.rc says success, nothing went to
# standard output, and the copy is byte-exact.
check_copied_ ()
{
  test "$(cat ours.rc)" = 0 || { echo "$1: exit $(cat ours.rc)"; fail=1; }
  compare /dev/null ours.out || fail=1
  cmp src dst || { echo "$1: the copy differs"; fail=1; }
}

# The line dd prints for a transfer of a few hundred kilobytes or more,
# its time and rate masked by stalled_run_ as they are in dd's tests.
line_re='^[0-9]+ bytes \([0-9.]+ [kMGT]B, [0-9.]+ [KMGT]iB\) copied,'
line_re="$line_re T s, R B/s\$"

save_IFS=$IFS IFS='|'
for opts in $queues; do
  IFS=$save_IFS
  what="cp $opts, SIGUSR1"
  signal_mid_copy_ ours USR1 cp $opts src dst
  check_copied_ "$what"
  if test "$(wc -l < ours.err)" != 1 \
     || ! grep -E "$line_re" ours.err > /dev/null; then
    echo "$what: not one transfer line:"; cat ours.err; fail=1
  else
    bytes=$(sed 's/ .*//' ours.err)
    test $bytes -ge $stall_at && test $bytes -le $size \
      || { echo "$what: $bytes bytes said copied when stopped at $stall_at"
           fail=1; }
  fi

  what="cp $opts, SIGUSR1 ignored"
  signal_mid_copy_ ours USR1 \
    sh -c 'trap "" USR1 && exec "$@"' sh cp $opts src dst
  check_copied_ "$what"
  compare /dev/null ours.err || { echo "$what: a message"; fail=1; }
  IFS='|'
done
IFS=$save_IFS

Exit $fail
