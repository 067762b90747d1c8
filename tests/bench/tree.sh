#!/bin/sh
# cpdd-bench tree: a tiny generated tree copied once by every tool,
# each run into a destination never used before; the CSV and the
# table; copies identical to the source; the same seed makes the same
# tree; --jobs once cp has it; --tree=DIR; --cold; the plot.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench
. "$abs_srcdir/tests/bench/tools-dir.sh"

bench=$(command -v cpdd-bench) || framework_failure_
cpdd_cp=$(command -v cp) || framework_failure_
case $cpdd_cp in */src/cp) ;; *) framework_failure_ ;; esac

# Wrappers around a cp: each logs the destination it was given, says
# if that name existed already, copies, and then checks the copy with
# diff -r and logs a checksum list of the source tree.  $1: the
# wrapper's name, $2: the cp it runs, $3: what --help adds.  Its --help
# has no --jobs but what $3 says, whether $2 has it or not.
make_wrapper ()
{
  cat > "$1" <<EOF || framework_failure_
#!/bin/sh
case \$1 in
  --version) exec '$2' --version ;;
  --help) '$2' --help | grep -v -e --jobs; echo '$3'; exit 0 ;;
esac
log=\$0.log
src= dst= opts=
for arg; do
  case \$arg in
    --jobs=*) opts="\$opts \$arg" ;;
    -*) ;;
    *) src=\$dst; dst=\$arg ;;
  esac
done
test -e "\$dst" && echo "reused \$dst" >> "\$log"
case \$opts in *--jobs=*) echo "jobs\$opts" >> "\$log"; set -- -a "\$src" "\$dst" ;; esac
'$2' "\$@" || exit
if diff -r "\$src" "\$dst" > /dev/null; then
  echo "same \$dst" >> "\$log"
else
  echo "differs \$dst" >> "\$log"
fi
(cd "\$src" && find . -type f -exec cksum {} + | sort) > "\$log.sums.\${dst##*/}"
EOF
  chmod +x "$1" || framework_failure_
}
make_wrapper cpdd-wrap "$cpdd_cp" ''
make_wrapper sys-wrap /bin/cp ''

# A PATH with what cpdd-bench needs, and an "rsync" that copies.
tools_dir_ bin $bench_tools_ find xargs diff tar tr nproc getconf cksum
test -x bin/awk && test -x bin/find && test -x bin/diff \
  || skip_ "no awk, find or diff in /bin, /usr/bin"
printf '#!/bin/sh\nexec /bin/cp -a "$2" "$3"\n' > bin/rsync \
  || framework_failure_
chmod +x bin/rsync || framework_failure_

echo 'mode,tree,files,entries,bytes,round,position,tool,wall_s,user_s,sys_s,max_rss_kib,dest' \
  > exp-header || framework_failure_

# Check the CSV $1 of runs of a tree of $2 files: header, 13 fields,
# numbers where numbers go, and every destination a new name under
# the work directory's copies.N/.
check_csv ()
{
  sed 1q "$1" > header || fail=1
  compare exp-header header || fail=1
  awk -F, -v files="$2" '
    NR == 1 { next }
    NF != 13 || $1 !~ /^(hot|cold)$/ || $3 != files || $4 !~ /^[0-9]+$/ \
      || $5 !~ /^[0-9]+$/ || $6 !~ /^[0-9]+$/ || $7 !~ /^[0-9]+$/ \
      || $9 !~ /^[0-9]+\.[0-9]+$/ || $10 !~ /^[0-9.]+$/ \
      || $11 !~ /^[0-9.]+$/ || ($12 != "" && $12 !~ /^[0-9]+$/) \
      || $13 !~ /\/cpdd-bench\.[0-9]+\/copies\.[0-9]+\/[0-9]+\.[a-z0-9=+-]+$/ \
      || seen[$13]++ {
      print "bad line " NR ": " $0; bad = 1
    }
    END { exit bad }' "$1" || fail=1
}

run_bench ()
{
  env PATH="$PWD/bin:$PATH" "$bench" tree --pretouch 0 "$@"
}

# One run of every tool on 40 files.
run_bench --files=40 --runs=1 --cp ./cpdd-wrap --system-cp ./sys-wrap \
  --seed 7 -o one.csv . > out 2> err || fail=1
cat out err
check_csv one.csv 40
for t in cp tar rsync cpdd-cp; do
  test "$(grep -c ",1,[1-4],$t," one.csv)" = 1 \
    || { echo "not one run of $t"; fail=1; }
  grep "^ *40 $t  *1  *[0-9]*\.[0-9]\{3\}  *[0-9]" out > /dev/null \
    || { echo "no row for $t"; fail=1; }
done
test "$(sed 1d one.csv | wc -l)" = 4 || fail=1
grep '^hot,generated tree (seed 7),40,' one.csv > /dev/null || fail=1
sed 1q out | grep '^cpdd-bench tree: generated tree (seed 7), 1 run(s), hot: source re-read before each run$' \
  > /dev/null || fail=1
grep '^tree of 40 files, [0-9]* entries, [0-9]* bytes ([0-9.]*[KM]*); memory pre-touched: 0; copies deleted after the last run$' \
  out > /dev/null || fail=1
test "$(sed 1d one.csv | sed 's|.*/\(copies\.[0-9]*\)/.*|\1|' | sort -u \
        | wc -l)" = 1 || fail=1
grep '^ *files  *tool  *runs  *wall_s  *wall_min  *wall_max  *user_s  *sys_s  *rss_mib  *ratio_cp$' \
  out > /dev/null || fail=1
grep '^ *40 cp  *1 .* 1\.00$' out > /dev/null || fail=1
grep '^timer: [a-z]*; max RSS: ' out > /dev/null || fail=1
if test -x /usr/bin/time && /usr/bin/time -f %M -o rss true 2> /dev/null; then
  awk -F, 'NR > 1 && $12 !~ /^[0-9]+$/ { bad = 1 } END { exit bad }' \
    one.csv || fail=1
fi
# The wrapped cps each copied the probe's tiny tree and then the
# generated one, each time into a name that did not exist, and their
# copies are the same as the source.
for w in cpdd-wrap sys-wrap; do
  test "$(grep -c '^same ' $w.log)" = 2 || fail=1
  grep -v '^same ' $w.log && fail=1
done
sums=$(echo cpdd-wrap.log.sums.[0-9]*)
test "$(wc -l < "$sums")" = 40 || fail=1
ls -d cpdd-bench.* 2> /dev/null && fail=1

# The same seed makes the same tree; another seed another.
mv "$sums" seed7.sums || framework_failure_
rm -f cpdd-wrap.log* sys-wrap.log* || framework_failure_
run_bench --files=40 --runs=1 --tools=cpdd-cp --cp ./cpdd-wrap --seed 7 \
  > out 2> err || fail=1
compare seed7.sums cpdd-wrap.log.sums.[0-9]* || fail=1
rm -f cpdd-wrap.log* || framework_failure_
run_bench --files=40 --runs=1 --tools=cpdd-cp --cp ./cpdd-wrap --seed 8 \
  > out 2> err || fail=1
cmp -s seed7.sums cpdd-wrap.log.sums.[0-9]* && fail=1
rm -f cpdd-wrap.log* || framework_failure_

# Round-robin over two runs: each round starts one tool later, and all
# four copies went to different names.
run_bench --files=20 --runs=2 --tools=cp,cpdd-cp -o two.csv . > out 2> err \
  || fail=1
check_csv two.csv 20
test "$(sed 1d two.csv | wc -l)" = 4 || fail=1
second=$(grep ',1,2,[a-z-]*,' two.csv | cut -d, -f8)
first=$(grep ',2,1,[a-z-]*,' two.csv | cut -d, -f8)
test -n "$first" && test "$first" = "$second" || fail=1
grep '^ *20 cpdd-cp  *2 ' out > /dev/null || fail=1

# A df in the directory $1 that says the line $2 of the KiB free, and
# with -i the line $3 of the inodes free; then cpdd-bench tree run with
# it, two runs of two tools on 40 files, its CSV into $4.
tree_with_df ()
{
  mkdir "$1" || framework_failure_
  cat > "$1/df" <<EOF_ || framework_failure_
#!/bin/sh
case \$2 in
  -i) echo 'Filesystem Inodes IUsed IFree IUse% Mounted on'
      echo '$3' ;;
  *) echo 'Filesystem 1024-blocks Used Available Capacity Mounted on'
     echo '$2' ;;
esac
EOF_
  chmod +x "$1/df" || framework_failure_
  env PATH="$PWD/$1:$PWD/bin:$PATH" "$bench" tree --pretouch 0 \
    --files=40 --runs=2 --tools=cp,cpdd-cp -o "$4" . > out 2> err \
    || fail=1
  check_csv "$4" 40
}

# Without room for every copy (df says 100 MB are free), the copies of
# each round are deleted at its end, and the next round's go into
# another new directory.
tree_with_df small-df 'fake 200000 100000 100000 50% /' \
  'fake 1000000 0 1000000 0% /' small.csv
grep '^cpdd-bench: note: no room for all 4 copies of the tree: they are deleted after each round' \
  err > /dev/null || fail=1
grep '; copies deleted after each round$' out > /dev/null || fail=1
for r in 1 2; do
  test "$(grep ",$r,[12],[a-z-]*," small.csv \
          | sed 's|.*/\(copies\.[0-9]*\)/.*|\1|' | sort -u)" = copies.$r \
    || fail=1
done

# With room in bytes but for only one copy's files (df -i says 130
# inodes are free, for a tree of 46 entries), each copy is deleted
# after its run, and the next goes into another new directory.
tree_with_df few-inodes 'fake 90000000 10000000 80000000 12% /' \
  'fake 1000 870 130 87% /' inodes.csv
grep "^cpdd-bench: note: no room for a round's 2 copies of the tree: each is deleted after its run" \
  err > /dev/null || fail=1
grep '; copies deleted after each run$' out > /dev/null || fail=1
test "$(sed 1d inodes.csv | sed 's|.*/\(copies\.[0-9]*\)/.*|\1|' \
        | sort -u | wc -l)" = 4 || fail=1

# A cp whose copy of the bigger tree misses a file is caught by the
# check of the first run (the probe's tiny tree has no such file).
cat > lossy-cp <<EOF || framework_failure_
#!/bin/sh
case \$1 in --version) exec '$cpdd_cp' --version ;; esac
'$cpdd_cp' "\$@" || exit
for last; do :; done
rm -f "\$last"/d*/s*/f000003.*
EOF
chmod +x lossy-cp || framework_failure_
returns_ 1 run_bench --files=20 --runs=1 --tools=cp,cpdd-cp --cp ./lossy-cp \
  . > out 2> err || fail=1
grep '^cpdd-bench: cpdd-cp: its copy differs from the source: Only in ' err \
  > /dev/null || fail=1
grep '^ *20 cp  *1 ' out > /dev/null || fail=1
grep '^ *20 cpdd-cp ' out && fail=1

# Once cpdd's cp takes --jobs, it is timed with 1 to N jobs.
make_wrapper jobs-cp "$cpdd_cp" '  -j, --jobs[=N]    copy with N workers'
run_bench --files=20 --runs=1 --tools='cpdd-*' --jobs=2 --cp ./jobs-cp \
  -o jobs.csv . > out 2> err || fail=1
check_csv jobs.csv 20
for t in cpdd-cp cpdd-jobs-1 cpdd-jobs-2; do
  test "$(grep -c ",$t," jobs.csv)" = 1 || { echo "no run of $t"; fail=1; }
done
grep '^jobs --jobs=2$' jobs-cp.log > /dev/null || fail=1
grep 'no --jobs' err && fail=1
# --file-size gives every generated file one size.
run_bench --files=20 --file-size=1K --runs=1 --tools=cp . > out 2> err \
  || fail=1
grep '^tree of 20 files, [0-9]* entries, 20480 bytes ' out > /dev/null \
  || { cat out; fail=1; }
grep '^cpdd-bench tree: generated tree (seed 1, files of 1024 bytes)' out \
  > /dev/null || fail=1
returns_ 2 run_bench --tree=. --file-size=0 . > out 2> err || fail=1
grep '^cpdd-bench: --file-size and --tree do not go together' err \
  > /dev/null || fail=1

# --with times cpdd's cp with more options as tools of their own, in
# the same rounds.
rm -f jobs-cp.log || framework_failure_
run_bench --files=20 --runs=1 --tools='cpdd+*' --with=--jobs=2 \
  --with='--sparse=never --jobs=1' --cp ./jobs-cp -o with.csv . > out 2> err \
  || fail=1
check_csv with.csv 20
for t in 'cpdd+jobs=2' 'cpdd+sparse=never+jobs=1'; do
  test "$(grep -c ",$t," with.csv)" = 1 || { echo "no run of $t"; fail=1; }
  grep "^ *20 $t  *1 " out > /dev/null || { echo "no row for $t"; fail=1; }
done
test "$(sed 1d with.csv | wc -l)" = 2 || fail=1
grep '^jobs --jobs=2$' jobs-cp.log > /dev/null || fail=1
grep '^jobs --jobs=1$' jobs-cp.log > /dev/null || fail=1
returns_ 2 run_bench --files=20 --with=atomic . > out 2> err || fail=1
grep "^cpdd-bench: invalid argument to --with: 'atomic' (cp's options)" err \
  > /dev/null || fail=1

# A cp without it (as the wrapper's --help says) is timed once, with a
# note.
run_bench --files=20 --runs=1 --tools='cpdd-*' --cp ./cpdd-wrap \
  > out 2> err || fail=1
grep "^cpdd-bench: note: cpdd's cp has no --jobs yet; it runs with one job only\$" \
  err > /dev/null || fail=1

# --tree=DIR: that tree, with a symbolic link and an empty directory,
# copied and left alone.
mkdir -p mine/a/b mine/empty || framework_failure_
echo x > mine/a/b/x && ln -s b/x mine/a/l || framework_failure_
run_bench --tree=mine --runs=1 --tools=cp,tar,cpdd-cp -o mine.csv . \
  > out 2> err || fail=1
check_csv mine.csv 1
sed 1q out | grep "^cpdd-bench tree: tree $PWD/mine, 1 run(s)," > /dev/null \
  || fail=1
grep '^tree of 1 files, 5 entries, 2 bytes (2); ' out > /dev/null || fail=1
test -f mine/a/b/x && test -h mine/a/l || fail=1

# --cold where the page cache cannot be dropped: a note, and the report
# says so; the final sync is timed all the same.
CPDD_BENCH_DROP_CACHES=$PWD/no/such/file run_bench --cold --files=20 \
  --runs=1 --tools=cp -o cold.csv . > out 2> err || fail=1
check_csv cold.csv 20
grep "^cpdd-bench: note: cannot write $PWD/no/such/file (not root?): --cold runs are NOT cold;" \
  err > /dev/null || fail=1
sed 1q out | grep ', cold requested but caches NOT dropped before each run, final sync timed$' \
  > /dev/null || fail=1
grep '^cold,' cold.csv > /dev/null || fail=1

# The plot: time against the number of files, one line per tool.
if command -v gnuplot > /dev/null; then
  run_bench --files=10,30 --runs=1 --tools=cp,cpdd-cp --plot p.svg . \
    > out 2> err || fail=1
  grep '<svg' p.svg > /dev/null || fail=1
  # An opaque background, drawn first.
  grep -m 1 '<rect ' p.svg | grep 'fill="#ffffff"' > /dev/null || fail=1
  grep '^plot: p.svg$' out > /dev/null || fail=1
  grep '^ *10 cp ' out > /dev/null && grep '^ *30 cp ' out > /dev/null \
    || fail=1
fi
# Without gnuplot: a note naming the package, no plot, no failure.
env PATH="$PWD/bin" "$bench" tree --files=10,30 --runs=1 --tools=cp \
  --pretouch 0 --plot q.svg . > out 2> err || fail=1
grep '^cpdd-bench: note: gnuplot not found (Debian package gnuplot-nox); no plot drawn$' \
  err > /dev/null || fail=1
test -f q.svg && fail=1

# Usage errors.
check_usage_error ()
{
  msg=$1
  shift
  returns_ 2 "$bench" tree "$@" > out 2> err || fail=1
  printf '%s\n' "cpdd-bench: $msg" \
    "Try 'cpdd-bench --help' for more information." > exp
  compare exp err || fail=1
}
check_usage_error "--plot draws generated trees; it does not go with --tree" \
  --tree=mine --plot=x.svg
check_usage_error "--files and --tree do not go together" --tree=mine \
  --files=10
check_usage_error "invalid number of files: '0'" --files=10,0
check_usage_error "invalid number of jobs: 'many'" --jobs=many
check_usage_error "invalid seed: '0' (1 to 2147483646)" --seed=0
check_usage_error "invalid option -- 's'" -s 1M
check_usage_error "empty argument to --tree" --tree=
returns_ 1 "$bench" tree --tree=no-such-dir --runs=1 > out 2> err || fail=1
grep "^cpdd-bench: 'no-such-dir' is not a directory$" err > /dev/null \
  || fail=1

ls -d cpdd-bench.* 2> /dev/null && fail=1

Exit $fail
