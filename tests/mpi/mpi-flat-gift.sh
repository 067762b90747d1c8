#!/bin/sh
# A rank given a subtree that is one directory of many files, with no
# subdirectory to give away, sends its files to the ranks that ask it
# for work, instead of copying them all while they wait; and a rank
# waiting for answers, as rank 0 does once its walk is over, asks for
# files to copy meanwhile.
# As in mpi-range-gift.sh, rank 0 first copies a FIFO's contents, held
# back until the other ranks have asked it for work, and then gives
# t/sub to one of them as soon as it makes the directory; the other,
# refused by rank 0, asks the rank walking t/sub, and so does rank 0,
# whose walk is over.  Reading each file of t/sub takes at least 50
# ms, so the walk is still going when those requests come.  Each
# process logs the reads it slowed in a file of its own: all three
# must have copied files of t/sub.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_

mkdir t t/sub dst || framework_failure_
for i in $(seq 20); do
  printf 'file %s\n' $i > t/sub/f$i || framework_failure_
done
touch -d '2003-04-05 06:07:08.9' t/sub || framework_failure_
mkfifo fifo || framework_failure_

mpicp=$(command -v mpicp) || framework_failure_
mpirun_ 3 -x LD_PRELOAD="$faultshim_" -x FAULT_FD_PATH='*/sub/f*' \
  -x FAULT_OP=read,pread,preadv2,copy_file_range,sendfile \
  -x FAULT_MODE=slow -x FAULT_SLEEP_MS=50 \
  bash -c 'FAULT_LOG=$PWD/reads.$OMPI_COMM_WORLD_RANK exec "$@"' bash \
  "$mpicp" -a --copy-contents fifo t dst > out 2> err &
job=$!

# The FIFO opens once rank 0 reads it; its contents come a second
# later, the other ranks having asked rank 0 for work at their start.
( sleep 1; echo fifo-data ) > fifo &
feeder=$!
wait $job || { cat err; fail=1; }
kill $feeder 2> /dev/null

compare /dev/null err || fail=1
compare /dev/null out || fail=1
diff -r t dst/t || fail=1
test "$(stat -c '%a %y' t/sub)" = "$(stat -c '%a %y' dst/t/sub)" \
  || { echo "dst/t/sub has other attributes"; fail=1; }

for r in 0 1 2; do
  test -s reads.$r || { echo "rank $r copied no file of t/sub"; fail=1; }
done

Exit $fail
