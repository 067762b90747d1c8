#!/bin/sh
# A directory whose own attributes cannot be set is recorded as failed
# in --report and listed by --failed, with the diagnostic cp printed,
# the same with --jobs, where a worker sets them after the walk has
# left the directory, as without; its files stay copied.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_
command -v jq > /dev/null || skip_ "jq is not installed"

mkdir -p s/a s/b || framework_failure_
for f in 1 2 3 4 5 6 7 8; do
  echo "$f" > s/a/$f && echo "$f" > s/b/$f || framework_failure_
done

for jobs in 1 2 4; do
  rm -rf d rep failed
  with_faults_ FAULT_OP=futimens FAULT_MODE=eio 'FAULT_FD_PATH=*/d/a' -- \
    cp -a --jobs=$jobs --report=rep --failed=failed s d > out 2> err
  test $? = 1 || { echo "--jobs=$jobs: not status 1"; fail=1; }
  { echo "cp: preserving times for 'd/a': Input/output error"
    echo "cp: 1 of 19 files were not copied"; } > exp
  compare exp err || fail=1
  compare /dev/null out || fail=1
  diff -r s d || fail=1

  # One record per file, the directory a's failed with the diagnostic.
  jq -r 'select(.record == "file") | "\(.source) \(.outcome)"' rep \
    | sort > got || fail=1
  { echo 's copied'
    echo 's/a failed'
    for f in 1 2 3 4 5 6 7 8; do echo "s/a/$f copied"; done
    echo 's/b copied'
    for f in 1 2 3 4 5 6 7 8; do echo "s/b/$f copied"; done
  } | sort > exp
  compare exp got || { echo "--jobs=$jobs: records"; fail=1; }
  report_times_failed_ rep s/a d/a \
    || { echo "--jobs=$jobs: s/a's record"; grep '"s/a"' rep; fail=1; }
  report_summary_ rep 19 18 1 \
    || { echo "--jobs=$jobs: summary"; tail -n 1 rep; fail=1; }
  # A directory's line comes once its files' lines are written.
  jq -r 'select(.record == "file") | .source' rep > order || fail=1
  awk '$0 == "s/a" { a = NR } /^s\/a\// { f = NR } $0 == "s" { s = NR }
       END { exit !(f < a && s == NR) }' order \
    || { echo "--jobs=$jobs: order"; cat order; fail=1; }
  printf 's/a\0' > exp
  compare exp failed || { echo "--jobs=$jobs: failed list"; fail=1; }
done

Exit $fail
