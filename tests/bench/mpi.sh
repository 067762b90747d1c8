#!/bin/sh
# cpdd-bench mpi: the system's cp, cpdd's cp --jobs=N and mpicp on N
# ranks for each N of --ranks, on a tree, a flat directory and one
# large file; dcp beside them with --peer, and what each lost; mpirun
# gets the number of ranks, and the flags root and more ranks than CPUs
# need; a missing mpicp, mpirun or dcp is a note, not a failure.  A
# stand-in mpirun runs the program once, so that the plumbing is
# checked whether Open MPI is installed or not.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench
. "$abs_srcdir/tests/bench/tools-dir.sh"

bench=$(command -v cpdd-bench) || framework_failure_
cpdd_cp=$(command -v cp) || framework_failure_
case $cpdd_cp in */src/cp) ;; *) framework_failure_ ;; esac

tools_dir_ bin $bench_tools_ find xargs diff tar tr nproc getconf cksum id \
  chmod ln touch chown stat
test -x bin/awk && test -x bin/find && test -x bin/diff \
  || skip_ "no awk, find or diff in /bin, /usr/bin"

# An mpirun that logs its options and runs the program once, and an
# mpicp that says it is cpdd's and copies with cp.
cat > bin/mpirun <<EOF || framework_failure_
#!/bin/sh
opts=
while test \$# -gt 0; do
  case \$1 in
    -np) opts="\$opts \$1 \$2"; shift 2 ;;
    --mca) opts="\$opts \$1 \$2 \$3"; shift 3 ;;
    -*) opts="\$opts \$1"; shift ;;
    *) break ;;
  esac
done
echo "\$opts" >> '$PWD/mpirun.log'
exec "\$@"
EOF
cat > mpicp <<EOF || framework_failure_
#!/bin/sh
case \$1 in --version) echo 'mpicp (cpdd) 0'; exit ;; esac
exec '$cpdd_cp' "\$@"
EOF
chmod +x bin/mpirun mpicp || framework_failure_

mkdir tree tree/sub || framework_failure_
for f in 1 2 3; do
  echo $f > tree/f$f && echo $f > tree/sub/g$f || framework_failure_
done

run_bench ()
{
  env PATH="$PWD/bin" "$bench" mpi --pretouch 0 --runs=1 --tree=tree "$@"
}

run_bench --ranks=1,3 --size=64K --mpicp=./mpicp --workloads=tree,file \
  -o runs.csv . > out 2> err \
  || { cat out err; fail=1; }
for t in cp cpdd-jobs-1 cpdd-jobs-3 mpicp-1 mpicp-3; do
  grep "^ *6 $t  *1  *[0-9]*\.[0-9]\{3\} " out > /dev/null \
    || { echo "no row for $t on the tree"; fail=1; }
  grep "^ *1 $t  *1  *[0-9]*\.[0-9]\{3\} " out > /dev/null \
    || { echo "no row for $t on the file"; fail=1; }
done
grep '^tree of 1 files, 1 entries, 65536 bytes' out > /dev/null || fail=1
sed 1q out | grep '^cpdd-bench mpi: tree .*/tree, then a directory of one 64K-byte file, 1 run(s), hot' \
  > /dev/null || { sed 1q out; fail=1; }
test "$(sed 1d runs.csv | wc -l)" = 10 || fail=1

# Each mpicp run got its ranks and the flags: the probe's, one on each
# workload, and the start-up's, which is reported.
if test "$(id -u)" = 0; then root=' --allow-run-as-root'; else root=; fi
for n in 1 3; do
  test "$(grep -c "^ --oversubscribe$root -np $n\$" mpirun.log)" = 4 \
    || { echo "mpirun -np $n:"; cat mpirun.log; fail=1; }
  startup="^mpirun start-up, $n rank(s): median [0-9]*\.[0-9]\{3\} s,"
  startup="$startup CPU time [0-9]*\.[0-9][0-9] s, of 1 runs\$"
  grep "$startup" out > /dev/null \
    || { echo "no start-up time for $n ranks"; fail=1; }
  for f in 6 1; do
    ratio="^mpicp-$n throughput / cpdd-jobs-$n's, $f file(s): [0-9]*\.[0-9][0-9]"
    grep "$ratio" out > /dev/null \
      || { echo "no throughput ratio for $n ranks, $f files"; fail=1; }
    bound="; CPU time allows at most [01]\.[0-9][0-9] on $(nproc) CPU(s)\$"
    grep "$ratio.*$bound" out > /dev/null \
      || { echo "no bound from CPU time for $n ranks, $f files"; fail=1; }
  done
done

grep "^mpirun options: --oversubscribe$root\$" out > /dev/null \
  || { echo "no line of mpirun's options"; fail=1; }

# --mpirun-flags go to every mpirun, before the number of ranks; this
# mpirun is not Open MPI's, so there are none by default, as above.
: > mpirun.log || framework_failure_
run_bench --ranks=2 --size=4K --mpicp=./mpicp --workloads=tree,file \
  --mpirun-flags='--mca pml ob1' > out 2> err || { cat out err; fail=1; }
flags="^ --oversubscribe$root --mca pml ob1 -np 2\$"
test "$(grep -c "$flags" mpirun.log)" = 4 \
  || { echo "mpirun --mpirun-flags:"; cat mpirun.log; fail=1; }

# --peer=dcp: a stand-in dcp, started by mpirun as mpicp is, copies
# with cp -r, which keeps neither times nor links; the flat directory
# of --flat files is copied between the tree and the file.
cat > dcp <<EOF || framework_failure_
#!/bin/sh
test "\$1 \$2 \$3" = '-q -p -S' || { echo "dcp: \$*" >&2; exit 1; }
exec '$cpdd_cp' -r "\$4" "\$5"
EOF
chmod +x dcp || framework_failure_
run_bench --ranks=2 --size=4K --mpicp=./mpicp --peer=dcp=./dcp --flat=5 \
  > out 2> err || { cat out err; fail=1; }
for t in cp cpdd-jobs-2 mpicp-2 dcp-2; do
  for f in 6 5 1; do
    grep "^ *$f $t  *1  *[0-9]*\.[0-9]\{3\} " out > /dev/null \
      || { echo "no row for $t on $f file(s)"; fail=1; }
  done
done
sed 1q out | grep 'tree, then a directory of 5 small files, then a directory of one 4K-byte file, 1 run' \
  > /dev/null || { sed 1q out; fail=1; }
sed -n '/^lost of what cp -a keeps:$/,$p' out > lost || framework_failure_
grep '^  mpicp-2  *nothing$' lost > /dev/null || { cat lost; fail=1; }
grep '^  dcp-2  *file times, .*hard links' lost > /dev/null \
  || { cat lost; fail=1; }
run_bench --ranks=2 --size=4K --mpicp=./mpicp --peer=dcp=./nonexistent \
  --workloads=file > out 2> err || { cat out err; fail=1; }
grep '^not run: dcp: ./nonexistent: not found' out > /dev/null \
  || { cat out; fail=1; }
for bad in --peer=rsync --workloads=tree,none --flat=0 --fs=xfs; do
  run_bench "$bad" > out 2> err && fail=1
  test $? = 2 || { echo "$bad: not a usage error"; fail=1; }
done

# A wrong --mpicp is an error; without mpirun, the others still run.
run_bench --ranks=2 --size=4K --mpicp=/nonexistent > out 2> err && fail=1
grep '/nonexistent: no such program' err > /dev/null || fail=1
rm -f bin/mpirun || framework_failure_
run_bench --ranks=2 --size=4K --mpicp=./mpicp --workloads=tree,file \
  > out 2> err || fail=1
grep '^not run: mpicp: mpirun not found' out > /dev/null || { cat out; fail=1; }
grep '^ *6 cpdd-jobs-2 ' out > /dev/null || fail=1

Exit $fail
