#!/bin/sh
# cpdd-bench verify: a small hot run; every tool that checks a copy ran,
# the copies of those that copy were checked against the source, and the
# ratios between them are printed.  tree --checks: the same on a tree.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench

command -v sha256sum > /dev/null || skip_ "no sha256sum"
cpdd-bench verify --size 2M --runs 2 --pretouch 4M --no-syscalls \
  --csv sum.csv . > out 2> err || { cat out err; fail=1; }

for t in cp cp+sha256sum sha256sum cpdd-cp cpdd-verify-sha256 \
         cpdd-print-sha256; do
  grep "^hot,$t,2,2097152," sum.csv > /dev/null \
    || { echo "$t did not run"; fail=1; }
done
# xxh128 only where this build has it.
if cp --verify=xxh128 --help > /dev/null 2>&1; then
  grep '^hot,cpdd-verify-xxh128,2,' sum.csv > /dev/null || fail=1
  grep '^cp --verify=xxh128 / (cp, sha256sum of both): *[0-9.]*$' out \
    > /dev/null || fail=1
fi
grep '^cp --print-hash=sha256 / sha256sum of source: *[0-9.]*$' out \
  > /dev/null || fail=1
grep '^cpdd-bench verify: 2097152 bytes' out > /dev/null || fail=1
grep 'differs from the source\|failed (exit status' err && fail=1

# tree --checks: a small generated tree, copied and checked by each.
cpdd-bench tree --checks --files 50 --runs 1 --csv tree.csv . > tree.out \
  2> tree.err || { cat tree.out tree.err; fail=1; }
for t in cp cp+sha256sum cpdd-cp cpdd-verify-sha256 cpdd-print-sha256; do
  awk -F, -v t="$t" '$8 == t { found = 1 } END { exit !found }' tree.csv \
    || { echo "tree: $t did not run"; fail=1; }
done
grep 'differs\|failed' tree.err && fail=1

Exit $fail
