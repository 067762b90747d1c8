#!/bin/sh
# cp --jobs from a disk lists the source's directories in a thread of
# its own ahead of the walk, which then finds them cached: every
# directory is opened by the scout too (which alone opens them without
# waiting, O_NONBLOCK), the copy is whole, and the scout's reading
# never takes entries from the walk's.  Where the walk finds the files'
# data cached, the scout soon stops.  Not from tmpfs, which needs no
# reading ahead.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_
command -v strace > /dev/null || skip_ "strace is not installed"
case $(stat -f -c %T .) in
  tmpfs|ramfs) skip_ "the test directory is in memory, where no scout runs" ;;
esac

# Directories with names found nowhere else in the tree, three levels
# deep; the files are empty, whose data the walk never looks for in the
# cache, so that the scout reads all of them.
mkdir src || framework_failure_
for a in 1 2 3 4; do
  for b in 1 2 3; do
    mkdir -p src/top$a/mid$a$b/low$a$b || framework_failure_
    touch src/top$a/f src/top$a/mid$a$b/f src/top$a/mid$a$b/low$a$b/f \
      || framework_failure_
  done
done

# The scout's opens of the directory named $1 in the trace.
scouted ()
{
  grep -c "openat([0-9]*, \"$1\", [^)]*O_NONBLOCK[^)]*O_DIRECTORY" trace
}
dirs=$(cd src && find . -mindepth 1 -type d -exec basename {} \;) \
  || framework_failure_
all_scouted ()
{
  for d in $dirs; do
    test "$(scouted $d)" -ge 1 || return 1
  done
}

# The walk is held as it opens the copy of top1, before anything in it
# is copied; the scout, which never opens the destination, reads on (the
# tree is smaller than its lead), and once it has opened every
# directory of the source, the walk is let go.  Without the hold, a
# walk faster than the scout would end the copy, and the scout, first.
rm -f held
with_faults_ FAULT_OP=opendir FAULT_MODE=pause FAULT_FLAG="$PWD/held" \
  FAULT_FD_PATH='*/dst/top1' \
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" -- \
  strace -f -o trace -e trace=openat,getdents64 \
    cp -a --jobs=2 src dst > out 2> err &
pid=$!
wait_until_ 600 test -e held || { echo "the walk was never held"; fail=1; }
wait_until_ 120 all_scouted \
  || { echo "the scout did not open every directory"; fail=1; }
rm -f held
wait $pid || fail=1
compare /dev/null out || fail=1
compare /dev/null err || fail=1
diff -r src dst || fail=1
for d in $dirs; do
  n=$(scouted $d)
  test "$n" = 1 || { echo "the scout opened $d $n times"; fail=1; }
done

# 200 directories of 20 cached files each: once the walk finds data
# cached, the scout waits, having read at most 64 directories ahead.
mkdir hot || framework_failure_
for d in $(seq 200); do
  mkdir hot/d$d && (cd hot/d$d && for f in $(seq 20); do
    echo $f > $f; done) || framework_failure_
done
strace_ -f -o trace -e trace=openat,preadv2 \
  cp -a --jobs=2 hot hot-copy 2> err || fail=1
compare /dev/null err || fail=1
diff -r hot hot-copy || fail=1
# Only where the walk can tell cached data (preadv2 with RWF_NOWAIT,
# which a build without preadv2 never calls) does the scout wait.
if ! grep 'RWF_NOWAIT) = 1$' trace > /dev/null; then
  echo "cached data can't be told here: the scout reads all"
else
  read=0
  for d in $(seq 200); do
    test "$(scouted d$d)" = 1 && read=$((read + 1))
  done
  test $read -le 100 \
    || { echo "the scout read $read of 200 cached directories"; fail=1; }
fi

Exit $fail
