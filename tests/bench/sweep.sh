#!/bin/sh
# cpdd-bench sweep: read-only and copy sweeps, their CSV, the best size,
# and the plot, which is drawn when gnuplot is there and noted when not.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench
. "$abs_srcdir/tests/bench/tools-dir.sh"

echo 'run,bytes,buffer_size,seconds,mb_per_s' > exp-header \
  || framework_failure_

# Check CSV $1: header, field count, runs 1..$2, bytes $3; sizes in $4
# (a space-separated list) must each have $2 rows.
check_csv ()
{
  sed 1q "$1" > header || fail=1
  compare exp-header header || fail=1
  awk -F, -v runs="$2" -v bytes="$3" '
    NR == 1 { next }
    NF != 5 || $1 !~ /^[0-9]+$/ || $1 < 1 || $1 > runs || $2 != bytes \
      || $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+\.[0-9]+$/ \
      || ($5 != "" && $5 !~ /^[0-9]+\.[0-9]+$/) {
      print "bad line " NR ": " $0; bad = 1
    }
    END { exit bad }' "$1" || fail=1
  for s in $4; do
    test "$(grep -c "^[0-9]*,[0-9]*,$s," "$1")" = "$2" \
      || { echo "$1: not $2 rows for size $s"; fail=1; }
  done
}

cpdd-bench sweep --read-only --size 4M --from 4K --to 64K --runs 2 \
  --fine 1 --pretouch 0 --csv ro.csv > out 2> err || fail=1
cat err
check_csv ro.csv 2 4194304 '4096 8192 16384 32768 65536'
# 5 sizes and 1 or 2 more around the best one (1 if the best is at an
# end), 2 runs each.
rows=$(sed 1d ro.csv | wc -l)
test $rows -ge 12 && test $rows -le 14 || fail=1
grep '^best buffer size: [0-9][0-9]* ([0-9.]*[KM]*), median [0-9.]* MB/s$' \
  out > /dev/null || fail=1
grep '^ *65536  *64K  *2 ' out > /dev/null || fail=1

# --steps: 3 sizes from 1K to 16K; FILE given and kept.
head -c 1000000 /dev/urandom > data || framework_failure_
cpdd-bench sweep --steps 3 --from 1K --to 16K --fine 0 -n 2 --pretouch 0 \
  -o st.csv data > out 2> err || fail=1
check_csv st.csv 2 1000000 '1024 4096 16384'
test "$(sed 1d st.csv | wc -l)" = 6 || fail=1
test -f data || fail=1

# The plot.
if command -v gnuplot > /dev/null; then
  cpdd-bench sweep --size 1M --from 4K --to 16K -n 2 --fine 0 --pretouch 0 \
    --plot p.svg > out 2> err || fail=1
  grep '<svg' p.svg > /dev/null || fail=1
  # An opaque background, drawn first.
  grep -m 1 '<rect ' p.svg | grep 'fill="#ffffff"' > /dev/null || fail=1
  grep '^plot: p.svg$' out > /dev/null || fail=1
fi
# Without gnuplot on PATH: a note and no failure.
tools_dir_ bin $bench_tools_
env PATH="$PWD/bin" "$(command -v cpdd-bench)" sweep --size 1M --from 4K \
  --to 16K -n 2 --fine 0 --pretouch 0 --plot q.svg > out 2> err || fail=1
grep '^cpdd-bench: note: gnuplot not found (Debian package gnuplot-nox); no plot drawn$' \
  err > /dev/null \
  || fail=1
test -f q.svg && fail=1

# --copy with a cp that takes --buffer-size, and one that does not.
cat > fake-cp <<'EOF_' || framework_failure_
#!/bin/sh
case $1 in --version) echo 'cp (cpdd) 0-test'; exit 0 ;; esac
case $1 in
  --buffer-size=*) shift ;;
  *) echo "cp: unrecognized option '$1'" >&2; exit 1 ;;
esac
exec /bin/cp "$1" "$2"
EOF_
printf '#!/bin/sh\necho "cp: unrecognized option" >&2; exit 1\n' > old-cp \
  || framework_failure_
chmod +x fake-cp old-cp || framework_failure_
cpdd-bench sweep --copy --cp ./fake-cp --size 2M --from 64K --to 256K -n 2 \
  --fine 0 --pretouch 0 -o cp.csv > out 2> err || fail=1
check_csv cp.csv 2 2097152 '65536 131072 262144'
sed 1q out | grep 'copy: cp --buffer-size=SIZE FILE COPY$' > /dev/null \
  || fail=1
returns_ 1 cpdd-bench sweep --copy --cp ./old-cp --size 1M > out 2> err \
  || fail=1
grep "^cpdd-bench: $PWD/old-cp does not take --buffer-size: cp: unrecognized option\$" \
  err > /dev/null || fail=1

# The POSIX time utility as timer.
if test -x /usr/bin/time || command -v time > /dev/null; then
  cpdd-bench sweep --timer=time --size 1M --from 64K --to 128K -n 2 \
    --fine 0 --pretouch 0 -o tm.csv > out 2> err || fail=1
  check_csv tm.csv 2 1048576 '65536 131072'
  sed 3q out | grep '^timer: time,' > /dev/null || fail=1
fi

# --cold: the source is dropped from the page cache before each
# measurement (with root), or a note says how little could be done;
# a copy's final sync is timed.
CPDD_BENCH_DROP_CACHES=$PWD/no/such/file cpdd-bench sweep --cold --size 1M \
  --from 64K --to 128K -n 1 --fine 0 --pretouch 0 -o cd.csv > out 2> err \
  || fail=1
check_csv cd.csv 1 1048576 '65536 131072'
grep "^cpdd-bench: note: cannot write $PWD/no/such/file" err > /dev/null \
  || grep '^cpdd-bench: note: no way to drop the page cache here' err \
       > /dev/null || fail=1
sed -n 2p out | grep ', cold' > /dev/null || fail=1
if test "$(id -u)" = 0 && test -w /proc/sys/vm/drop_caches \
   && (echo 1 > /proc/sys/vm/drop_caches) 2> /dev/null; then
  cpdd-bench sweep --cold --copy --size 1M --from 64K --to 128K -n 1 \
    --fine 0 --pretouch 0 -v -o cc.csv > out 2> err || fail=1
  check_csv cc.csv 1 1048576 '65536 131072'
  sed -n 2p out \
    | grep ', cold: page cache dropped before each measurement$' \
    > /dev/null || fail=1
fi
cpdd-bench sweep --size 1M --from 64K --to 128K -n 1 --fine 0 --pretouch 0 \
  > out 2> err || fail=1
sed -n 2p out | grep ', hot: source read before each measurement$' \
  > /dev/null || fail=1

ls -d cpdd-bench.* 2> /dev/null && fail=1

Exit $fail
