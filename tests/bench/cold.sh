#!/bin/sh
# cpdd-bench compare --cold: with root, the page cache is dropped before
# each run; without a writable drop_caches it degrades with a note.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench

opts='--cold --size 2M --runs 2 --pretouch 0 --no-syscalls --tools cp,cat'

# Without drop_caches (as for a user who is not root): a note, still
# cold mode, still success.
CPDD_BENCH_DROP_CACHES=$PWD/no/such/file \
  cpdd-bench compare $opts -o deg.csv . > out 2> err || fail=1
grep "^cpdd-bench: note: cannot write $PWD/no/such/file" err > /dev/null \
  || grep "^cpdd-bench: note: no way to drop the page cache here" err \
       > /dev/null || fail=1
grep '^cold,cp,2,2097152,' deg.csv > /dev/null || fail=1
grep '^cold,cat,2,2097152,' deg.csv > /dev/null || fail=1
sed 1q out | grep 'final sync timed$' > /dev/null || fail=1
# The final sync is part of each timed command.
grep "^cold,cp,.*{ '[^']*cp' .*; } && '[^']*/sync'\$" deg.csv > /dev/null \
  || fail=1

# The real thing needs root and Linux.
if test "$(id -u)" = 0 && test -w /proc/sys/vm/drop_caches \
   && (echo 1 > /proc/sys/vm/drop_caches) 2> /dev/null; then
  cpdd-bench compare $opts -o cold.csv . > out 2> err || fail=1
  grep 'cannot write\|no way to drop' err && fail=1
  sed 1q out | grep 'cold: page cache dropped, final sync timed$' \
    > /dev/null || fail=1
  grep '^cold,cp,2,2097152,' cold.csv > /dev/null || fail=1
else
  echo "not root, or no drop_caches: real cold runs not tested"
fi

Exit $fail
