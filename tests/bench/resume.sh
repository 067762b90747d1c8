#!/bin/sh
# cpdd-bench resume: a tree with large files copied by cp -a --jobs,
# killed at seeded random moments and finished with --resume; each
# finished copy is checked, names, data and attributes; the report and
# the CSV have a line per kill; a cp without --resume, and a resume
# that leaves a copy unlike its source, are errors.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench
. "$abs_srcdir/tests/bench/tools-dir.sh"

bench=$(command -v cpdd-bench) || framework_failure_
cpdd_cp=$(command -v cp) || framework_failure_
case $cpdd_cp in */src/cp) ;; *) framework_failure_ ;; esac
command -v perl > /dev/null || skip_ "no perl, which waits between kills"
ls --time-style=+%s.%N -d . > /dev/null 2>&1 \
  || skip_ "no GNU ls, which reads the times the check compares"

tools_dir_ bin $bench_tools_ find xargs diff tr nproc getconf cksum
test -x bin/awk && test -x bin/find && test -x bin/diff \
  || skip_ "no awk, find or diff in /bin, /usr/bin"

mkdir -p tree/sub && echo a > tree/a && echo b > tree/sub/b \
  && ln tree/a tree/sub/a-link && ln -s ../a tree/sub/to-a \
  && chmod 750 tree/sub && touch -d '2001-02-03 04:05:06.7' tree/a \
  || framework_failure_

run_bench ()
{
  env PATH="$PWD/bin:$PATH" "$bench" resume "$@"
}

run_bench --tree=tree --size=6M --runs=3 --seed=5 -o kills.csv . > out 2> err \
  || { cat out err; fail=1; }
cat out
grep "^cpdd-bench resume: tree tree and 3 files of 6M in all; cp -a --jobs=2, killed at 3 random points, then --resume\$" \
  out > /dev/null || fail=1
grep '^the whole copy: [0-9][0-9]* bytes in [0-9.]* s$' out > /dev/null || fail=1
test "$(grep -c '^ *[123]  *[0-9.]*  *\(killed\|finished\)  *[0-9]* .* yes$' out)" = 3 \
  || fail=1
grep '^copies equal to the source, attributes included: 3 of 3$' out \
  > /dev/null || fail=1
grep '^ratio: bytes the --resume run copied / bytes the killed run had not done; worst [0-9.]*$' \
  out > /dev/null || fail=1
sed 1q kills.csv > header || framework_failure_
echo 'kill,at_s,first_run,done_bytes,left_bytes,copied_bytes,skipped_bytes,ratio,same' \
  > exp || framework_failure_
compare exp header || fail=1
test "$(sed 1d kills.csv | grep -c ',yes$')" = 3 || fail=1
ls -d cpdd-bench.* 2> /dev/null && fail=1

# A cp without --resume can't be measured.
cat > old-cp <<EOF || framework_failure_
#!/bin/sh
case \$1 in
  --version) exec '$cpdd_cp' --version ;;
  --help) '$cpdd_cp' --help | grep -v -e --resume; exit ;;
esac
exec '$cpdd_cp' "\$@"
EOF
chmod +x old-cp || framework_failure_
returns_ 1 run_bench --tree=tree --size=1M --runs=1 --cp=./old-cp . \
  > out 2> err || fail=1
grep "^cpdd-bench: .*old-cp has no --resume\$" err > /dev/null \
  || { cat err; fail=1; }

# A --resume that leaves a file out is caught.
cat > lossy-cp <<EOF || framework_failure_
#!/bin/sh
case \$1 in --version | --help) exec '$cpdd_cp' "\$@" ;; esac
'$cpdd_cp' "\$@" || exit
case " \$* " in
  *' --resume '*) for last; do :; done; rm -f "\$last"/src/sub/b ;;
esac
EOF
chmod +x lossy-cp || framework_failure_
returns_ 1 run_bench --tree=tree --size=1M --runs=1 --cp=./lossy-cp . \
  > out 2> err || fail=1
grep '^cpdd-bench: kill 1: the finished copy differs: Only in ' err \
  > /dev/null || { cat err; fail=1; }
grep '^copies equal to the source, attributes included: 0 of 1$' out \
  > /dev/null || fail=1

Exit $fail
