#!/bin/sh
# mpicp --report: the top directory of a subtree given to another rank
# is recorded by that rank, once it has set the directory's attributes,
# so a directory whose times can't be kept there is recorded as
# failed, once, and is on the --failed list.  As in mpi-flat-gift.sh,
# rank 0 first copies a FIFO's contents, held back until rank 1 has
# asked it for work, and then gives t/sub to rank 1 as it makes it.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_
require_mpishim_
command -v jq > /dev/null || skip_ "jq is not installed"

mkdir t t/sub dst || framework_failure_
for i in 1 2 3 4; do
  printf 'file %s\n' $i > t/sub/f$i || framework_failure_
done
mkfifo fifo || framework_failure_

mpirun_ 2 -x LD_PRELOAD="$faultshim_ $mpishim_" -x MPISHIM_LOG="$PWD/sent" \
  -x FAULT_OP=futimens -x FAULT_MODE=eio -x 'FAULT_FD_PATH=*/dst/t/sub' \
  mpicp -a --copy-contents --report=rep --failed=failed fifo t dst \
  > out 2> err &
job=$!
asked_or_ended_ () { process_ended_ $job || mpi_sent_ sent 1 0 STEAL; }
wait_until_ 300 asked_or_ended_ \
  || { echo "rank 1 never asked for work"; fail=1; }
echo fifo-data > fifo &
feeder=$!
wait $job
test $? = 1 || { echo "not status 1"; fail=1; }
kill $feeder 2> /dev/null

test "$(mpi_first_to_ sent 0 TASK)" = 1 \
  || { echo "t/sub was not given to rank 1:"; cat sent; fail=1; }
grep -Fx "mpicp: preserving times for 'dst/t/sub': Input/output error" err \
  > /dev/null || { echo "no diagnostic"; cat err; fail=1; }
compare /dev/null out || fail=1
diff -r t dst/t || fail=1
echo fifo-data > exp || framework_failure_
compare exp dst/fifo || fail=1

# One record for each of the 7 files; t/sub's failed, with the
# diagnostic.
jq -r 'select(.record == "file") | "\(.source) \(.outcome)"' rep \
  | sort > got || fail=1
printf '%s\n' 'fifo copied' 't copied' 't/sub failed' 't/sub/f1 copied' \
  't/sub/f2 copied' 't/sub/f3 copied' 't/sub/f4 copied' > exp
compare exp got || fail=1
report_times_failed_ rep t/sub dst/t/sub \
  || { echo "t/sub's record"; grep '"t/sub"' rep; fail=1; }
report_summary_ rep 7 6 1 || { echo "summary"; tail -n 1 rep; fail=1; }
printf 't/sub\0' > exp
compare exp failed || fail=1

Exit $fail
