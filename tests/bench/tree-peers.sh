#!/bin/sh
# cpdd-bench tree --peers: the peers found are timed hot and then cold,
# side by side with the system's cp -a, and each is said to lose what
# it loses of what cp -a keeps; the bars are drawn.  Stand-ins fcp and cpz
# that are GNU cp -r lose times, links and owners, and cpdd's cp
# nothing.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench

mkdir fake || framework_failure_
cat > fake/fcp <<'EOF2' || framework_failure_
#!/bin/sh
exec /bin/cp -r "$1" "$2"
EOF2
chmod +x fake/fcp || framework_failure_
cp fake/fcp fake/cpz || framework_failure_
PATH=$PWD/fake:$PATH

cpdd-bench tree --peers --files 40 --runs 1 --jobs 2 \
  --tools 'cp,cpdd-cp,cpdd-jobs-*,fcp,cpz' --plot peers.svg . > out 2> err \
  || { cat out err; fail=1; }

grep '^cpdd-bench tree --peers: generated tree' out > /dev/null \
  || { cat out; fail=1; }
grep '^tool  *hot_s  *ratio  *cold_s  *ratio  *lost of what cp -a keeps$' \
  out > /dev/null || { cat out; fail=1; }
num='[0-9][0-9.]*'
for t in cp cpdd-cp cpdd-jobs-auto cpdd-jobs-2; do
  grep "^$t  *$num  *$num  *$num  *$num  *nothing\$" out > /dev/null \
    || { echo "$t:"; cat out; fail=1; }
done
for t in fcp cpz; do
  grep "^$t  *$num  *$num  *$num  *$num  *file times, dir times, hard links" \
    out > /dev/null || { cat out; fail=1; }
done
# Both series were reported on their own too.
grep -c '^cpdd-bench tree: generated tree' out > series || framework_failure_
test "$(cat series)" = 2 || { cat out; fail=1; }
if command -v gnuplot > /dev/null 2>&1; then
  grep '<svg' peers.svg > /dev/null || fail=1
fi

# One tree only, and not with --checks.
returns_ 2 cpdd-bench tree --peers --files 10,20 . 2> two.err || fail=1
grep 'give --files one number' two.err > /dev/null || fail=1
returns_ 2 cpdd-bench tree --peers --checks . 2> checks.err || fail=1
grep 'do not go together' checks.err > /dev/null || fail=1

Exit $fail
