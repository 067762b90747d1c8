#!/bin/sh
# mpicp --report and --failed on 3 ranks: the records of the files the
# other ranks copy come back with their answers, and rank 0 alone
# writes them, into one report with one line for each file and one
# summary, and one list of the failures, whichever rank met them.  The
# list fed to a later run completes the tree.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_
command -v jq > /dev/null || skip_ "jq is not installed"

mkdir t || framework_failure_
for d in 1 2 3 4 5 6; do
  mkdir t/d$d || framework_failure_
  for f in 1 2 3 4; do
    head -c $((d * f * 3000)) /dev/urandom > t/d$d/f$f || framework_failure_
  done
done
echo x > t/d2/bad && echo y > t/d5/bad && echo z > t/bad || framework_failure_
printf 'w\n' > "t/d3/$(printf 'odd\377')" || framework_failure_
mkdir dst || framework_failure_

# 1 + 6 directories, 24 files, 3 bad and one odd name: 35 files, the
# three bad ones failing on whichever rank copies them.
mpirun_ 3 -x LD_PRELOAD="$faultshim_" -x FAULT_OP=read,pread,preadv2 \
  -x FAULT_MODE=eio -x FAULT_DISABLE=copy_file_range,sendfile \
  -x 'FAULT_FD_PATH=*/bad' \
  mpicp -r --report=rep --failed=failed t dst > out 2> err
test $? = 1 || { echo "not exit 1"; cat err; fail=1; }
test "$(wc -l < rep)" = 36 || { echo "not 36 lines"; cat rep; fail=1; }
jq -e -s 'length == 36 and .[-1].record == "summary"
          and .[-1].files == 35 and .[-1].failed == 3
          and .[-1].copied == 32' rep > /dev/null \
  || { echo "bad summary"; tail -n 1 rep; fail=1; }
# Times measured on each rank, from the start of its file's copy.
jq -e -s 'map(select(.record == "file"))
          | all(.seconds >= 0 and .seconds < 3600)' rep > /dev/null \
  || { echo "bad seconds"; cat rep; fail=1; }
# Each file once.
jq -r -s 'map(select(.record == "file") | .source_base64 // .source)
          | sort | unique | length' rep > n || framework_failure_
test "$(cat n)" = 35 || { echo "files recorded twice"; fail=1; }
jq -r 'select(.outcome == "failed") | .source' rep | sort > got
printf '%s\n' t/bad t/d2/bad t/d5/bad > exp
compare exp got || fail=1
tr '\0' '\n' < failed | sort > got
compare exp got || fail=1
test "$(tail -n 1 err)" = 'mpicp: 3 of 35 files were not copied' \
  || { echo "no count"; cat err; fail=1; }

# The faults gone, the list completes the tree.
xargs -0 mpicp --parents -t dst < failed 2> err || fail=1
compare /dev/null err || fail=1
diff -r t dst/t || fail=1

# Without the options, no records travel and no count is printed.
rm -rf dst && mkdir dst || framework_failure_
mpirun_ 3 -x LD_PRELOAD="$faultshim_" -x FAULT_OP=read,pread,preadv2 \
  -x FAULT_MODE=eio -x FAULT_DISABLE=copy_file_range,sendfile \
  -x 'FAULT_FD_PATH=*/bad' mpicp -r t dst > out 2> err
grep 'files were not copied' err && fail=1

Exit $fail
