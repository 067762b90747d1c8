#!/bin/sh
# The file system with latency that cpdd-bench copies onto: plainfuse
# with --delay, every call waiting as for a server.  A call takes at
# least its wait; cp -a, cp --jobs and mpicp copy onto it as GNU's cp
# does; copying from it, workers look names up ahead of the walk; and
# cpdd-bench mounts one for --fs=latency and latency-from and leaves
# none mounted after.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
require_root_
require_gnu_ cp

# A lower bound only: load can make a call slower, never faster.
fs_delay_=200000
make_fs_ latency "$PWD/slow" || skip_ "no FUSE file system here"
: > slow/f || framework_failure_
perl -MTime::HiRes=time -e '
  my $t = time; my @s = lstat "slow/none";
  exit (time - $t >= 0.2 ? 0 : 1)' \
  || { echo "a lookup on the file system did not wait"; fail=1; }

fs_delay_=300
make_fs_ latency "$PWD/fast" || framework_failure_
mkdir src src/d src/e || framework_failure_
for i in 1 2 3 4 5 6 7 8 9; do
  printf 'file %s\n' $i > src/d/f$i && printf '%s\n' $i > src/e/g$i \
    || framework_failure_
done
ln src/d/f1 src/e/link && ln -s f2 src/d/sym && chmod 640 src/d/f3 \
  && touch -d '2001-02-03 04:05:06' src/e/g1 && head -c 3000000 \
  /dev/urandom > src/big || framework_failure_

"$gnu_dir_/cp" -a src fast/gnu || framework_failure_
DIFF_TIMES=ns tree_digest_ fast/gnu > gnu.tree || framework_failure_
check_copy_ ()
{
  DIFF_TIMES=ns tree_digest_ "fast/$1" > "$1.tree" || framework_failure_
  compare gnu.tree "$1.tree" || { echo "$1: not as GNU's cp -a"; fail=1; }
  test "$(stat -c %i fast/$1/d/f1)" = "$(stat -c %i fast/$1/e/link)" \
    || { echo "$1: hard link lost"; fail=1; }
}
cp -a src fast/plain || fail=1
check_copy_ plain
CPDD_CHUNK_SIZE=1M cp -a --jobs=4 src fast/jobs || fail=1
check_copy_ jobs
if test -x "${abs_top_builddir-$PWD/..}/src/mpicp" \
   && command -v mpirun > /dev/null 2>&1; then
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    mpirun_ 3 mpicp -a src fast/mpi || fail=1
  check_copy_ mpi
fi

# Copying from it with workers, they look the names of each directory
# up ahead of the walk, which would wait for each lookup in turn;
# copying from a local directory, the walk looks them up alone.
if command -v strace > /dev/null 2>&1; then
  # The lookups by threads other than the walk's in the last trace.
  worker_lookups_ ()
  {
    main=$(sed 1q trace | cut -d' ' -f1)
    awk -v main="$main" '$1 != main && /AT_SYMLINK_NOFOLLOW/' trace | wc -l
  }
  traced_copy_ ()
  {
    strace_ -f -qq -e trace=%%stat -o trace cp -a --jobs=2 "$1" "$2"
  }
  traced_copy_ fast/plain from-far || fail=1
  n=$(worker_lookups_) || framework_failure_
  test "$n" -gt 0 || { echo "no worker looked names up ahead"; fail=1; }
  DIFF_TIMES=ns tree_digest_ from-far > from-far.tree || framework_failure_
  compare gnu.tree from-far.tree || fail=1
  traced_copy_ src from-local || fail=1
  n=$(worker_lookups_) || framework_failure_
  test "$n" = 0 || { echo "workers looked local names up: $n"; fail=1; }
fi

# The bench mounts its own, copies onto it or from it, checks each
# copy against the tree, and takes it down.
mkdir bench || framework_failure_
for way in onto:latency from:latency-from; do
  cpdd-bench tree --fs=${way#*:} --latency=300 --tree=src \
    --tools=cp,cpdd-jobs-2 --runs=1 --pretouch=0 bench > out 2> err \
    || { cat out err; fail=1; }
  grep "note: copying ${way%:*} a FUSE file system whose every call waits 300 microseconds" \
    err > /dev/null || { cat err; fail=1; }
  grep '^ *[0-9]* cpdd-jobs-2  *1 ' out > /dev/null || { cat out; fail=1; }
  grep " $PWD/bench" /proc/mounts && { echo "the bench left a mount"; fail=1; }
  test -z "$(ls bench)" || { ls -l bench; fail=1; }
done
test -d src/d || { echo "the bench moved the tree it was given"; fail=1; }

Exit $fail
