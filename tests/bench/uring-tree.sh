#!/bin/sh
# bench/uring-tree: on a tiny directory it copies with plain calls and
# with io_uring, checks the copies, prints its table (a row for every
# way, plain ones at ratio 1) and cleans up; usage errors.  Skipped
# where it cannot compare: no liburing, or io_uring refused.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./bench

mkdir d || framework_failure_
uring-tree --files=40 --runs=3 --batch=4,16 --threads=1,2 d > out 2> err
status=$?
if test $status = 77; then
  skip_ "$(cat err)"
fi
test $status = 0 || { cat err; fail=1; }
compare /dev/null err || fail=1

# The header, then plain, io_uring 4 and io_uring 16, for 1 and 2
# threads, each with its median, min and max and its ratio to plain.
sed -n 1p out | grep '^40 files in one directory, 3 runs each, io_uring' \
  > /dev/null || fail=1
sed -n 2p out > head
echo 'cache threads method    batch  median_s     min_s     max_s   ratio     cpu_s' \
  > exp-head
compare exp-head head || fail=1
sed 1,2d out | awk '{ print $1, $2, $3, $4 }' > rows
cat > exp-rows <<'EOR'
hot 1 plain -
hot 1 io_uring 4
hot 1 io_uring 16
hot 2 plain -
hot 2 io_uring 4
hot 2 io_uring 16
EOR
compare exp-rows rows || fail=1
sed 1,2d out | awk '$3 == "plain" && $8 != "1.00" { bad = 1 }
  !($6 <= $5 && $5 <= $7 && $8 > 0 && $9 >= 0) { bad = 1 }
  END { exit bad }' \
  || fail=1

# Nothing is left behind in the directory.
ls -A d > left || framework_failure_
compare /dev/null left || fail=1

# Usage errors: status 1 and a hint.
returns_ 1 uring-tree --runs=0 d 2> err || fail=1
grep 'invalid number of runs: 0' err > /dev/null || fail=1
grep -- "--help' for more information" err > /dev/null || fail=1
returns_ 1 uring-tree --threads=1,65 d 2> err || fail=1
grep 'invalid number of threads: 65' err > /dev/null || fail=1
returns_ 1 uring-tree 2> err || fail=1
grep 'missing directory operand' err > /dev/null || fail=1
returns_ 1 uring-tree d e 2> err || fail=1
grep 'extra operand: e' err > /dev/null || fail=1

Exit $fail
