#!/bin/sh
# The GNU 9.10 rules that the differential tests of just-created files,
# --parents and special files over files check hold with --jobs=4 too:
# each of those tests, run again with our cp copying through 4 workers.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

for t in just-created-dir-diff parents-new-dest-diff special-over-file-diff
do
  srcdir=$srcdir CPDD_TEST_JOBS=4 $SHELL "$srcdir/tests/cp/$t.sh" \
    > $t.log 2>&1
  rc=$?
  case $rc in
    0) ;;
    77) echo "$t skipped: $(tail -n 1 $t.log)" >&2 ;;
    *) cat $t.log >&2; echo "$t failed with --jobs=4" >&2; fail=1 ;;
  esac
done

Exit $fail
