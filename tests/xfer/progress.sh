#!/bin/sh
# --progress=always draws a line on standard error once the copy has
# run a second, and wipes it at the end or before a
# diagnostic; --progress (auto) and --progress=never draw nothing when
# standard error is not a terminal.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/xfer
. "$srcdir/tests/diff-helpers.sh"

mkfifo fifo || skip_ "cannot make a FIFO"
head -c 100000 /dev/urandom > data || framework_failure_

# Feed the data into the FIFO over a second after xfer-copy has made
# its output "out" (a moment before it starts its clock), however late
# a loaded machine runs either process: timed from the FIFO's opening
# instead, the data came too soon for a line when xfer-copy was slow
# to make "out".  Run in the background.
feed_slowly_ ()
{
  rm -f out || framework_failure_
  ( wait_until_ 600 test -e out && sleep 2 && cat data ) > fifo &
}

# The progress line drawn once a second has passed: its seconds are
# rounded, and a loaded machine may be later than that with its first
# line, so any time but 0:00:00 is right.  The data is not synced: it
# is in the cache.  The FIFO's size cannot be told, so there is no
# total, or only the least it can be: the size of the other source.
line_re='^[0-9.]+ kB( of (>= )?[0-9.]+ kB)? written to cache in'
line_re="$line_re [0-9]+:[0-9][0-9]:[0-9][0-9], [0-9.]+ kB/s *\$"

# copy_slowly_ OPTION...: copy the data through the FIFO, which gives
# nothing for over a second.
copy_slowly_ ()
{
  feed_slowly_
  xfer-copy "$@" fifo out 2> err
  rc=$?
  wait
  cmp data out || fail=1
  return $rc
}

copy_slowly_ --progress=always || fail=1
tr '\r' '\n' < err > lines || framework_failure_
grep -E "$line_re" lines || { cat lines; fail=1; }
grep ' in 0:00:00' lines && fail=1
# The line is wiped: the last thing written is spaces between two CRs.
tail -c 1 err | od -An -c | grep -F '\r' > /dev/null || fail=1
tail -n 1 lines | grep -E '^ +$' > /dev/null || fail=1

# A diagnostic first wipes the line.
if test -w /dev/full; then
  feed_slowly_
  returns_ 1 xfer-copy --progress=always fifo out data /dev/full 2> err \
    || fail=1
  wait
  tr '\r' '\n' < err > lines || framework_failure_
  grep -E "$line_re" lines > /dev/null || { cat lines; fail=1; }
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
