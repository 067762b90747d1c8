#!/bin/sh
# cp --jobs with many workers under a low descriptor limit: the files a
# worker has taken but not begun keep their sources open too, so the
# walk must not give each worker more of them than the limit leaves
# room for.  Slowed writes keep every worker busy, so that the walk
# fills all it may before any worker is done.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_

mkdir src || framework_failure_
for d in 0 1 2 3 4 5 6 7 8 9; do
  mkdir src/d$d || framework_failure_
  (cd src/d$d && seq 300 | xargs touch && for f in *; do
     echo $f > $f; done) || framework_failure_
done

(ulimit -n 512 \
   && with_faults_ FAULT_OP=$rel_write_ops_ FAULT_FD_PATH='*/dst/d*' \
        FAULT_MODE=slow FAULT_SLEEP_MS=20 -- cp -a --jobs=100 src dst) \
  > out 2> err || fail=1
compare /dev/null out || fail=1
compare /dev/null err || fail=1
diff -r src dst > /dev/null || { echo "the copy differs"; fail=1; }

Exit $fail
