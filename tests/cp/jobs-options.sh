#!/bin/sh
# --jobs's argument, and what --stats says of the workers.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

mkdir -p src/d || framework_failure_
printf 'one\n' > src/a || framework_failure_
printf 'two\n' > src/d/b || framework_failure_

for bad in 0 -1 x 2x '' 99999999999999999999; do
  returns_ 1 cp --jobs="$bad" -r src bad > out 2> err || fail=1
  printf "cp: invalid number of jobs: '%s'\n" "$bad" > exp || framework_failure_
  compare exp err || fail=1
  compare /dev/null out || fail=1
  test -e bad && { echo "--jobs=$bad copied"; fail=1; }
done

for jobs in --jobs --jobs=auto --jobs=1 --jobs=3; do
  rm -rf dst || framework_failure_
  cp $jobs -r src dst || fail=1
  compare src/a dst/a || fail=1
  compare src/d/b dst/d/b || fail=1
done

# The workers are counted only where there are several.
cp --jobs=3 -r --stats src s3 2> err || fail=1
sed -n 2p err > line || framework_failure_
echo '2 files, io method: read, buffer size: 4096, direct I/O: no, workers: 3' \
  > exp || framework_failure_
sed 's/method: [a-z+]*, buffer size: [0-9a-z]*/method: read, buffer size: 4096/' \
  line > line-masked || framework_failure_
compare exp line-masked || fail=1
cp --jobs=3 -r --stats=json src j3 2> err || fail=1
grep '"files": 2, .*"workers": 3}$' err > /dev/null || { cat err; fail=1; }
cp --jobs=1 -r --stats src s1 2> err || fail=1
grep workers err && fail=1

Exit $fail
