#!/bin/sh
# --progress=always draws a dd-style line on standard error once the
# copy has run a second, and wipes it at the end or before a
# diagnostic; --progress (auto) and --progress=never draw nothing when
# standard error is not a terminal.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/xfer

mkfifo fifo || skip_ "cannot make a FIFO"
head -c 100000 /dev/urandom > data || framework_failure_

# copy_slowly_ OPTION...: copy the data through the FIFO, which gives
# nothing for over a second.
copy_slowly_ ()
{
  (sleep 1.2 && cat data) > fifo &
  xfer-copy "$@" fifo out 2> err
  rc=$?
  wait
  cmp data out || fail=1
  return $rc
}

copy_slowly_ --progress=always || fail=1
tr '\r' '\n' < err > lines || framework_failure_
grep -E '^[0-9]+ bytes \([0-9.]+ kB, [0-9.]+ KiB\) copied, 1 s, [0-9.]+ kB/s' \
  lines || { cat lines; fail=1; }
# The line is wiped: the last thing written is spaces between two CRs.
tail -c 1 err | od -An -c | grep -F '\r' > /dev/null || fail=1
tail -n 1 lines | grep -E '^ +$' > /dev/null || fail=1

# A diagnostic first wipes the line.
if test -w /dev/full; then
  (sleep 1.2 && cat data) > fifo &
  returns_ 1 xfer-copy --progress=always fifo out data /dev/full 2> err \
    || fail=1
  wait
  tr '\r' '\n' < err > lines || framework_failure_
  grep -E ' copied, 1 s, ' lines > /dev/null || fail=1
  tail -n 2 lines > got
  printf '%s\n' "$(tail -n 2 lines | head -n 1)" \
    "xfer-copy: error writing '/dev/full': No space left on device" > exp
  compare exp got || fail=1
  tail -n 2 lines | head -n 1 | grep -E '^ +$' > /dev/null || fail=1
fi

copy_slowly_ --progress || fail=1
compare /dev/null err || fail=1

copy_slowly_ --progress=never || fail=1
compare /dev/null err || fail=1

Exit $fail
