#!/bin/sh
# cp --jobs=4 where workers open and create files themselves and set
# directories' attributes after the walk has left them: a tree of
# dated read-only directories whose deepest file finishes last, and a
# source file swapped for a link among many, which must be reported
# as a serial copy reports it.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
CPDD_TEST_JOBS=4
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

# Each level holds small files and the next level; the deepest holds a
# big file, so every directory above it is left by the walk before its
# attributes can be set.
mkdir -p fix/ro/a/b/c || framework_failure_
for d in ro ro/a ro/a/b ro/a/b/c; do
  for f in 1 2 3 4 5 6 7 8 9 10 11 12; do
    printf '%s %s\n' $d $f > fix/$d/f$f || framework_failure_
  done
done
dd if=/dev/urandom of=fix/ro/a/b/c/zz-big bs=1M count=16 status=none \
  || framework_failure_
touch -d '2001-02-03 04:05:06.789' fix/ro/a/b/c/zz-big || framework_failure_
month=1
for d in ro/a/b/c ro/a/b ro/a ro; do
  chmod 555 fix/$d && touch -d "2002-0$month-03 04:05:06.5" fix/$d \
    || framework_failure_
  month=$(($month + 1))
done
DIFF_TIMES=ns diff_run_ ro-a cp -a ro copy
DIFF_TIMES=ns diff_run_ ro-rp cp -rp ro copy
diff_run_ ro-r cp -r ro copy
diff_run_ ro-no-mode cp -a --no-preserve=mode ro copy
chmod -R u+w fix/ro || framework_failure_

swapshim=${abs_top_builddir-$PWD/..}/tests/shim/swapshim.so
test -f "$swapshim" || skip_ "tests/shim/swapshim.so was not built"

# A file replaced by a link to another just before cp opens it, after
# its directory was read: one job and four say the same, give the same
# status and copy the same.  A file in a directory the copy made is
# opened before it is looked at, so what is copied is the link, as if
# it had been there all along; never what it leads to.
mkdir many many/d other || framework_failure_
( cd many/d && seq -f 'file%g' 400 | xargs touch ) || framework_failure_
echo SECRET > other/f || framework_failure_
for jobs in 1 4; do
  rm -rf copy log many/d/file250 many/d/file250.moved || framework_failure_
  touch many/d/file250 || framework_failure_
  ( exec env LD_PRELOAD="$swapshim" SWAP_DIR="$PWD/many/d/file250" \
      SWAP_TARGET="$PWD/other/f" SWAP_CALL=openat SWAP_PATH='*/file250' \
      SWAP_LOG="$PWD/log" cp --jobs=$jobs -r many copy \
      > out$jobs 2> err$jobs )
  echo $? > rc$jobs
  grep '^swapped' log > /dev/null || { echo "jobs=$jobs: no swap"; fail=1; }
  ( cd copy && find . | LC_ALL=C sort ) > tree$jobs || framework_failure_
  if grep -r SECRET copy > /dev/null; then
    echo "jobs=$jobs: the link was followed"; fail=1
  fi
done
compare err1 err4 || fail=1
compare rc1 rc4 || fail=1
compare tree1 tree4 || fail=1
test "$(cat rc4)" = 0 || fail=1
test -L copy/d/file250 || { echo "file250 was not copied as a link"; fail=1; }

Exit $fail
