#!/bin/sh
# mpicp --resume finishes a copy killed in the middle, whose large file
# other ranks copied in ranges, into the tree an uninterrupted mpicp
# makes; and copies nothing when it is resumed once more.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
. "$srcdir/tests/cp/resume-helpers.sh"
require_mpicp_
require_faultshim_
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

resume_tree_ src
mpirun_ 3 mpicp -a -T src ref || framework_failure_

# A cut made by hand, as the ranks' processes are mpirun's: the large
# file full size with its first and fourth ranges written, a file cut
# short, the rest missing, as SIGKILL leaves a copy in ranges.
mkdir -p dst/sub || framework_failure_
truncate -s 5000000 dst/big || framework_failure_
dd if=src/big of=dst/big bs=1M count=1 conv=notrunc status=none \
  && dd if=src/big of=dst/big bs=1M skip=3 seek=3 count=1 conv=notrunc \
       status=none || framework_failure_
head -c 1500000 src/sub/mid > dst/sub/mid || framework_failure_

for n in 2 3; do
  rm -rf d$n && cp -a dst d$n || framework_failure_
  mpirun_ $n mpicp -a -T --resume --stats src d$n 2> err \
    || { cat err; fail=1; }
  same_tree_ ref d$n \
    || { echo "$n ranks: not the uninterrupted copy"; fail=1; }
  test "$(stat_figure_ skipped err)" -ge $((2 * 1048576)) \
    || { cat err; fail=1; }
  mpirun_ $n mpicp -a -T --resume --stats src d$n 2> err \
    || { cat err; fail=1; }
  test "$(stat_figure_ copied err)" = 0 || { cat err; fail=1; }
  same_tree_ ref d$n || fail=1
done

Exit $fail
