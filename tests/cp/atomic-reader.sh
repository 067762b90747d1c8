#!/bin/sh
# While cp --atomic is in the middle of a file's data, the destination's
# name still gives the whole old file, and the new data is in the
# temporary file beside it; once the copy ends the name gives the whole
# new file.  The copy is held mid-file by the fault library, in the
# write that reaches byte 303104 of the temporary file, written 64 KiB
# at a time so that some data is there before it: with one job, and in
# ranges of 256 KiB that workers copy, with and without --direct.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_

head -c 1000000 /dev/urandom > new || framework_failure_
head -c 700000 /dev/urandom > old || framework_failure_

# Whether the copy stopped in the fault library, or ended.
stalled_or_ended_ () { test -e stalled || process_ended_ $1; }

for opts in '' --jobs=2 '--jobs=2 --direct'; do
  what="cp --atomic $opts"
  rm -rf d stalled && mkdir d && cp old d/f || framework_failure_
  ( CPDD_CHUNK_SIZE=256K LD_PRELOAD=$faultshim_ \
      FAULT_OP=$rel_write_ops_ FAULT_FD_PATH='*/d/.f.cpdd-part' \
      FAULT_AT=303104 FAULT_MODE=pause FAULT_FLAG="$PWD/stalled" \
      FAULT_DISABLE=copy_file_range \
    && export CPDD_CHUNK_SIZE LD_PRELOAD FAULT_OP FAULT_FD_PATH FAULT_AT \
         FAULT_MODE FAULT_FLAG FAULT_DISABLE \
    && exec cp --atomic --io-method=read --buffer-size=64K $opts new d/f ) \
    > out 2> err < /dev/null &
  pid=$!
  wait_until_ 600 stalled_or_ended_ $pid
  if test -e stalled; then
    # Mid-copy: the old file whole under its name, some new data aside.
    compare old d/f || { echo "$what: the name changed mid-copy"; fail=1; }
    test -s d/.f.cpdd-part \
      || { echo "$what: no data in the temporary file"; fail=1; }
    rm -f stalled
  else
    echo "$what: the copy never reached the write held"; fail=1
  fi
  wait $pid || { echo "$what: exit $?"; cat err; fail=1; }
  compare new d/f || fail=1
  test -e d/.f.cpdd-part && { echo "$what: temporary file left"; fail=1; }
done

Exit $fail
