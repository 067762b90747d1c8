#!/bin/sh
# SIGUSR1 makes dd print its statistics and go on; SIGINT makes it print
# them and die by the signal; both while it waits for input.  Compared
# with GNU dd doing the same.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd
env --default-signal=INT true 2>/dev/null \
  || skip_ "env cannot restore SIGINT's default action"

# Whether dd has written SIZE bytes to "out", as it does a byte at a
# time.
out_size_is_ ()
{
  test "$(stat -c %s out 2>/dev/null)" = "$1"
}

# run_ DIR: feed dd from DIR through a fifo, signalling it in between.
# Each signal waits for dd to have copied what came before it, and the
# next bytes for its statistics: after fixed sleeps, a loaded machine
# could signal dd before it had read them, and its figures differed.
run_ ()
{
  rm -f fifo out && mkfifo fifo || framework_failure_
  env --default-signal=INT "$1/dd" if=fifo of=out bs=1 2> err &
  pid=$!
  exec 3> fifo
  printf abc >&3
  wait_until_ 600 out_size_is_ 3 || { echo "abc never copied" >&2; fail=1; }
  kill -USR1 $pid
  wait_until_ 600 grep ' copied, ' err > /dev/null \
    || { echo "no statistics for SIGUSR1" >&2; fail=1; }
  printf de >&3
  wait_until_ 600 out_size_is_ 5 || { echo "de never copied" >&2; fail=1; }
  kill -INT $pid
  wait $pid
  echo "exit $?" >> err
  exec 3>&-
  mask_dd_times_ < err | sed 's,^.*dd:,dd:,'
}

mkfifo probe-fifo 2>/dev/null || skip_ "no fifos"
run_ "$gnu_dir_" > gnu || framework_failure_
run_ "$ours_dir_" > ours || fail=1
compare gnu ours || fail=1
grep '^exit 130$' ours || fail=1

Exit $fail
