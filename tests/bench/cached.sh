#!/bin/sh
# cpdd-bench compare: the cached column is the median over the runs of
# the larger of the source's and the copy's page cache, as fincore says.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench

# A fincore that reports, call after call, the byte counts listed in
# the file "answers", and logs the files it was asked about.  Like the
# real one it fails on a file that does not exist.
cat > fake-fincore <<'EOF_' || framework_failure_
#!/bin/sh
for f; do :; done
test -f "$f" || { echo "missing $f" >> fincore.log; exit 1; }
echo "$f" >> fincore.log
n=$(sed -n 1p answers)
sed 1d answers > answers.t && mv answers.t answers
test -n "$n" || exit 1
echo "$n"
EOF_
chmod +x fake-fincore || framework_failure_

# One answer for the check that fincore works, then source and copy
# for each of 3 runs: in MiB 1 and 3, 2 and 0, 5 and 0.
printf '%s\n' 0 1048576 3145728 2097152 0 5242880 0 > answers \
  || framework_failure_
opts='--size 1M --runs 3 --pretouch 0 --no-syscalls --tools cp'
CPDD_BENCH_FINCORE=$PWD/fake-fincore cpdd-bench compare $opts \
  -o sum.csv --raw raw.csv . > out 2> err || fail=1
cat err
# The median of 3, 2 and 5.
grep "^hot,cp,3,1048576,\([^,]*,\)\{9\}3\.0,'" sum.csv > /dev/null || fail=1
grep '^cp  *[0-9].*  3\.0$' out > /dev/null || fail=1
cat > exp <<'EOF_' || framework_failure_
1.0,3.0,3.0
2.0,0.0,2.0
5.0,0.0,5.0
EOF_
sed 1d raw.csv | cut -d, -f8- > got || fail=1
compare exp got || fail=1
# The source, then the copy of each run, which still existed.
sed 1d fincore.log | sed -n 'n;p' | grep -v '/out/cpdd-bench\.dat$' && fail=1

# A fincore that fails: a note, and no figures.
: > answers
CPDD_BENCH_FINCORE=$PWD/fake-fincore cpdd-bench compare $opts \
  -o sum.csv . > out 2> err || fail=1
grep "^cpdd-bench: note: $PWD/fake-fincore does not work here: " err \
  > /dev/null || fail=1
grep '^hot,cp,3,1048576,\([^,]*,\)\{9\},' sum.csv > /dev/null || fail=1
grep '^cached: not measured' out > /dev/null || fail=1

Exit $fail
