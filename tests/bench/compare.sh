#!/bin/sh
# cpdd-bench compare: a small hot run with the build's own cp and dd;
# the table, the summary CSV, the per-run CSV, the round-robin order and
# the page cache left behind.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench

cpdd-bench compare --size 4M --runs 2 --pretouch 8M \
  --csv sum.csv --raw raw.csv . > out 2> err || fail=1
cat err

# The summary CSV: the header, then one line per tool, all well formed.
echo 'mode,tool,runs,bytes,wall_s,wall_min_s,wall_max_s,user_s,sys_s,hog,mib_s,ratio_cp,syscalls,cached_mib,command' \
  > exp-header || framework_failure_
sed 1q sum.csv > header || fail=1
compare exp-header header || fail=1
awk -F, '
  function num(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
  NR == 1 { next }
  { rows++ }
  NF < 15 || $1 != "hot" || $2 == "" || $3 != 2 || $4 != 4194304 \
    || !num($5) || !num($6) || !num($7) || !num($8) || !num($9) \
    || !num($10) || ($11 != "" && !num($11)) || ($12 != "" && !num($12)) \
    || ($13 != "" && $13 !~ /^[0-9]+$/) || ($14 != "" && !num($14)) \
    || $15 == "" \
    || $6 > $5 || $5 > $7 { print "bad line " NR ": " $0; bad = 1 }
  END { exit bad || rows < 4 }' sum.csv || fail=1

# Where fincore works, every tool has a page-cache figure, at most the
# file size; elsewhere none has, and a note says why.
head -c 100000 /dev/urandom > probe || framework_failure_
if fincore --bytes --noheadings --raw --output RES probe 2> /dev/null \
     | grep '^[0-9][0-9]*$' > /dev/null; then
  awk -F, 'NR > 1 && ($14 !~ /^[0-9]+\.[0-9]$/ || $14 > 4.0) {
             print "bad cached_mib: " $0; bad = 1 }
           END { exit bad }' sum.csv || fail=1
  grep '^cached: MiB of the source or the copy' out > /dev/null || fail=1
else
  echo "no working fincore: page-cache figures not checked"
  awk -F, 'NR > 1 && $14 != "" { bad = 1 } END { exit bad }' sum.csv \
    || fail=1
  grep '^cached: not measured' out > /dev/null || fail=1
fi

# The system's cp is the reference; cat and dd ran too.
grep '^hot,cp,2,4194304,.*,1\.000,' sum.csv > /dev/null || fail=1
grep '^hot,cat,' sum.csv > /dev/null || fail=1
grep '^hot,dd-8M,' sum.csv > /dev/null || fail=1

# cpdd's cp was found in the build tree without being named; each of
# its variants either ran or is listed as not run.
grep '^hot,cpdd-cp,' sum.csv > /dev/null || fail=1
for m in read mmap offload auto; do
  for v in cpdd-direct cpdd-uncached cpdd-$m cpdd-$m-direct cpdd-$m-8M; do
    grep "^hot,$v," sum.csv > /dev/null \
      || grep "^not run: $v: " out > /dev/null \
      || { echo "$v neither ran nor was reported"; fail=1; }
  done
done

# The table has a row for each tool of the CSV.
grep '^tool  *wall_s  *wall_min  *wall_max  *user_s  *sys_s  *hog  *mib_s  *ratio_cp  *syscalls  *cached$' \
  out > /dev/null || fail=1
for t in $(sed 1d sum.csv | cut -d, -f2); do
  grep "^$t  *[0-9]" out > /dev/null || { echo "no row for $t"; fail=1; }
done

# Every timed run: 2 rounds of every tool, each round starting with the
# tool that came second in the round before.
echo 'mode,round,position,tool,wall_s,user_s,sys_s,src_cached_mib,copy_cached_mib,cached_mib' \
  > exp-header || framework_failure_
sed 1q raw.csv > header || fail=1
compare exp-header header || fail=1
tools=$(sed 1d sum.csv | wc -l)
test "$(grep -c '^hot,1,' raw.csv)" = "$tools" || fail=1
test "$(grep -c '^hot,2,' raw.csv)" = "$tools" || fail=1
second=$(grep '^hot,1,2,' raw.csv | cut -d, -f4)
first=$(grep '^hot,2,1,' raw.csv | cut -d, -f4)
test -n "$first" && test "$first" = "$second" || fail=1

# With --file, that file is copied and kept; no work directory is left.
head -c 3000000 /dev/urandom > data || framework_failure_
cpdd-bench compare --file data --tools 'cp,cat' --runs 2 --pretouch 0 \
  --no-syscalls -o f.csv . > out 2> err || fail=1
test "$(grep -c '^hot,c[pa]t*,2,3000000,' f.csv)" = 2 || fail=1
test -f data || fail=1
ls -d cpdd-bench.* 2> /dev/null && fail=1

# A selection that matches nothing, and a missing DIR, are errors.
returns_ 1 cpdd-bench compare --tools nothing -s 1M . 2> err || fail=1
grep '^cpdd-bench: no tools to run$' err > /dev/null || fail=1
returns_ 1 cpdd-bench compare -s 1M no-such-dir 2> err || fail=1
grep "^cpdd-bench: 'no-such-dir' is not a directory$" err > /dev/null \
  || fail=1

Exit $fail
