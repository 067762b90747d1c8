#!/bin/sh
# Where the kernel waits a settable time before it reports a free page
# to the host, cpdd-bench holds that time high while tools run, says
# so, and puts the old value back at the end; a value that is already
# its own is another bench's, which it leaves alone.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench

# A system cp that notes what the setting is while it runs.
cat > noting-cp <<'EOF_' || framework_failure_
#!/bin/sh
cat "$CPDD_BENCH_PAGE_REPORTING" >> seen || exit 1
exec cp "$@"
EOF_
chmod +x noting-cp || framework_failure_

opts='--size 64K --runs 2 --pretouch 0 --no-syscalls --tools cp'
param=$PWD/min_free_ms
export CPDD_BENCH_PAGE_REPORTING=$param

echo 5 > "$param" || framework_failure_
cpdd-bench compare $opts --system-cp="$PWD/noting-cp" . > out 2> err \
  || fail=1
cat err
# An untimed probe of the tool first, then the two timed runs.
printf '5\n300000\n300000\n' > exp || framework_failure_
compare exp seen || fail=1
echo 5 > exp || framework_failure_
compare exp "$param" || fail=1
note='free memory is not reported to the host during the runs'
grep "^cpdd-bench: note: $note ($param: 5, 300000 until the end)\$" err \
  > /dev/null || fail=1

# Another bench holds it: left as it is, with nothing said.
echo 300000 > "$param" && rm -f seen || framework_failure_
cpdd-bench compare $opts --system-cp="$PWD/noting-cp" . > out 2> err \
  || fail=1
printf '300000\n300000\n300000\n' > exp || framework_failure_
compare exp seen || fail=1
echo 300000 > exp || framework_failure_
compare exp "$param" || fail=1
grep 'reported to the host' err && fail=1

# Changed by someone else meanwhile: not put back.
cat > changing-cp <<'EOF_' || framework_failure_
#!/bin/sh
echo 7 > "$CPDD_BENCH_PAGE_REPORTING" || exit 1
exec cp "$@"
EOF_
chmod +x changing-cp && echo 5 > "$param" || framework_failure_
cpdd-bench compare $opts --system-cp="$PWD/changing-cp" . > out 2> err \
  || fail=1
echo 7 > exp || framework_failure_
compare exp "$param" || fail=1

# Nothing there: nothing said, nothing made.
rm -f "$param" || framework_failure_
cpdd-bench compare $opts . > out 2> err || fail=1
test -e "$param" && fail=1
grep 'reported to the host' err && fail=1

Exit $fail
