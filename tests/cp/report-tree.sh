#!/bin/sh
# cp -r --report and --failed on a tree of 12,277 files, directories
# included, three of whose files can't be read (the fault shim), serial
# and with --jobs=4: the report is JSON Lines that jq reads, one record
# for each of the 12,277 and a summary, and names exactly the three
# failures, as the failed list does and the count that ends standard
# error; a run fed the list, the faults lifted, completes the tree.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_
command -v jq > /dev/null || skip_ "jq is not installed"

# s, 276 directories and 12,000 files in them, three named bad1-3.
mkdir s || framework_failure_
awk 'BEGIN { for (d = 1; d <= 276; d++) printf "s/d%03d\n", d }' |
  xargs mkdir || framework_failure_
awk 'BEGIN {
  for (i = 0; i < 12000; i++) {
    name = sprintf ("s/d%03d/f%05d", i % 276 + 1, i)
    if (i == 100) name = "s/d101/bad1"
    if (i == 5000) name = "s/d033/bad2"
    if (i == 11999) name = "s/d132/bad3"
    printf "file %d\n", i > name
    close (name)
  }
}' || framework_failure_
test $(find s | wc -l) = 12277 || framework_failure_
printf '%s\n' s/d033/bad2 s/d101/bad1 s/d132/bad3 > exp

for jobs in 1 4; do
  rm -rf dst && mkdir dst || framework_failure_
  with_faults_ FAULT_OP=$rel_read_ops_ FAULT_FD_PATH='*/bad?' \
    FAULT_MODE=eio FAULT_DISABLE=copy_file_range -- \
    cp -r --jobs=$jobs --report=rep --failed=failed s dst > out 2> err
  test $? = 1 || { echo "jobs=$jobs: not exit 1"; fail=1; }

  jq -e -s 'all(type == "object")' rep > /dev/null \
    || { echo "jobs=$jobs: not JSON Lines"; fail=1; }
  test "$(jq -s 'map(select(.record != "summary")) | length' rep)" = 12277 \
    || { echo "jobs=$jobs: not a record per file"; fail=1; }
  tail -n 1 rep | jq -e '.record == "summary" and .files == 12277
                         and .copied == 12274 and .failed == 3' > /dev/null \
    || { echo "jobs=$jobs: bad summary"; tail -n 1 rep; fail=1; }
  jq -r 'select(.outcome == "failed") | .source' rep | sort > got
  compare exp got || fail=1
  tr '\0' '\n' < failed | sort > got
  compare exp got || fail=1
  test "$(tail -n 1 err)" = 'cp: 3 of 12277 files were not copied' \
    || { echo "jobs=$jobs: no count"; tail -n 1 err; fail=1; }

  xargs -0 cp --parents -t dst < failed || fail=1
  diff -r s dst/s || fail=1
done

Exit $fail
