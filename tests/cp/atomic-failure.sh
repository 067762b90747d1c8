#!/bin/sh
# A cp --atomic that fails in the middle of a file (an I/O error or a
# full disk writing it, a read error, a failed sync) says so as cp
# does, exits 1, removes its temporary file and leaves the old file
# untouched under its name, and no backup of it behind.  One killed
# mid-file (SIGKILL, which nothing can clean up after) leaves its
# temporary file, which the next --atomic run removes before copying.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_

head -c 1000000 /dev/urandom > new || framework_failure_
head -c 700000 /dev/urandom > old || framework_failure_

# check_failed_ WHAT MESSAGE: the run failed with MESSAGE on standard
# error (a line of it), and d holds the old file alone.
check_failed_ ()
{
  test $rc = 1 || { echo "$1: exit $rc"; fail=1; }
  grep -Fx "$2" err > /dev/null || { echo "$1: said:"; cat err; fail=1; }
  compare old d/f || { echo "$1: the old file changed"; fail=1; }
  test "$(ls -A d)" = f || { echo "$1: left"; ls -A d; fail=1; }
}

# run_fault_ OP MODE OPTS...: cp --atomic OPTS new d/f, the calls OP on
# the temporary file failing as MODE says from byte 303104 on.
run_fault_ ()
{
  rf_op_=$1 rf_mode_=$2; shift 2
  rm -rf d && mkdir d && cp old d/f || framework_failure_
  with_faults_ FAULT_OP=$rf_op_ FAULT_FD_PATH='*/d/.f.cpdd-part' \
    FAULT_MODE=$rf_mode_ FAULT_AT=303104 FAULT_DISABLE=copy_file_range \
    CPDD_CHUNK_SIZE=256K -- cp --atomic --io-method=read "$@" new d/f \
    > out 2> err
  rc=$?
}

for opts in '' --jobs=2 --backup; do
  run_fault_ $rel_write_ops_ eio $opts
  check_failed_ "EIO $opts" "cp: error writing 'd/f': Input/output error"
  run_fault_ $rel_write_ops_ enospc $opts
  check_failed_ "ENOSPC $opts" \
    "cp: error writing 'd/f': No space left on device"
  run_fault_ fsync eio $opts
  check_failed_ "fsync $opts" \
    "cp: fsync failed for 'd/.f.cpdd-part': Input/output error"
done

# A read error of the source.
rm -rf d && mkdir d && cp old d/f || framework_failure_
with_faults_ FAULT_OP=$rel_read_ops_ FAULT_FD_PATH='*/new' FAULT_MODE=eio \
  FAULT_AT=303104 FAULT_DISABLE=copy_file_range -- \
  cp --atomic --io-method=read new d/f > out 2> err
rc=$?
check_failed_ "read EIO" "cp: error reading 'new': Input/output error"

# Killed mid-file: the temporary file stays; the next run removes it,
# and makes the copy whole.
stalled_or_ended_ () { test -e stalled || process_ended_ $1; }
rm -rf d stalled && mkdir d && cp old d/f || framework_failure_
( LD_PRELOAD=$faultshim_ FAULT_OP=$rel_write_ops_ \
    FAULT_FD_PATH='*/d/.f.cpdd-part' FAULT_AT=303104 FAULT_MODE=pause \
    FAULT_FLAG="$PWD/stalled" \
  && export LD_PRELOAD FAULT_OP FAULT_FD_PATH FAULT_AT FAULT_MODE FAULT_FLAG \
  && exec cp --atomic --io-method=read --buffer-size=64K new d/f ) \
  > out 2> err < /dev/null &
pid=$!
wait_until_ 600 stalled_or_ended_ $pid
test -e stalled || { echo "the copy to kill never stalled"; fail=1; }
kill -KILL $pid
wait $pid
rm -f stalled
compare old d/f || { echo "killed: the old file changed"; fail=1; }
test -s d/.f.cpdd-part || { echo "killed: no temporary file left"; fail=1; }
cp --atomic new d/f || fail=1
compare new d/f || fail=1
test "$(ls -A d)" = f || { echo "after the rerun:"; ls -A d; fail=1; }

Exit $fail
