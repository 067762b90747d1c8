#!/bin/sh
# cp --debug --jobs says at the end where the workers' time went: one
# line, after every file's; without --jobs, or without --debug, none.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

mkdir src || framework_failure_
for i in 1 2 3 4 5 6 7 8 9; do
  echo $i > src/f$i || framework_failure_
done

cp -r --debug --jobs=2 src j2 > j2.out || fail=1
n='[0-9][0-9]*\.[0-9][0-9][0-9]'
tail -n 1 j2.out | grep "^jobs: 2 workers, running files $n s and waiting for one $n s in all; the walk waited $n s for room in the queue, which held at most [0-9][0-9]*\$" > /dev/null \
  || { cat j2.out; fail=1; }
test "$(grep -c '^jobs: ' j2.out)" = 1 || fail=1

cp -r --debug src j1 > j1.out || fail=1
grep '^jobs: ' j1.out && fail=1
cp -r --jobs=2 src quiet > quiet.out || fail=1
compare /dev/null quiet.out || fail=1

Exit $fail
