#!/bin/sh
# cp --jobs=4 where copying stops short: a file system filling up in
# the middle of a tree, and SIGINT while workers are busy.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
test "$(id -u)" = 0 || skip_ "mounting a small file system needs root"
require_gnu_ cp

mkdir src || framework_failure_
for d in 1 2 3 4; do
  mkdir src/d$d || framework_failure_
  for f in 1 2 3 4 5 6 7 8 9 10; do
    head -c 65536 /dev/urandom > src/d$d/f$f || framework_failure_
  done
done

# ENOSPC: which files fail depends on which worker writes first, so
# check that each one is either reported as GNU cp reports it or
# copied whole, and that cp fails.
mkdir full || framework_failure_
mount -t tmpfs -o size=1m tmpfs full 2>/dev/null \
  || skip_ "cannot mount a small tmpfs"
( cd full && cp --jobs=4 -r ../src copy ) 2> err
rc=$?
test $rc = 1 || { echo "exit status $rc, not 1"; fail=1; }
grep -v "^cp: error writing 'copy/d[1-4]/f[0-9]*': No space left on device\$" \
  err > other
compare /dev/null other || fail=1
test -s err || { echo "no ENOSPC reported"; fail=1; }
for d in 1 2 3 4; do
  for f in 1 2 3 4 5 6 7 8 9 10; do
    grep "'copy/d$d/f$f'" err > /dev/null && continue
    cmp src/d$d/f$f full/copy/d$d/f$f || fail=1
  done
done
umount full || framework_failure_

# A file with two names whose first copy fails for want of space: the
# second name is copied afresh, and fails in its turn, as in GNU cp,
# not linked to the first copy's remains (which workers fill after
# the walk has moved on).
mkdir links || framework_failure_
head -c 2000000 /dev/urandom > links/a || framework_failure_
ln links/a links/b && echo small > links/c || framework_failure_
mount -t tmpfs -o size=1m tmpfs full || framework_failure_
# The exit status, the messages without the program's name, and the
# names and link counts of what is left, after copying links with $@.
# Whether c still fits depends on whether it is written before or
# while a fills the file system (workers copy them side by side), so
# c counts as right when it is either reported or copied whole.
links_outcome ()
{
  "$@" -a links full/copy 2> err
  echo "exit status $?"
  grep "'full/copy/c'" err > /dev/null || cmp links/c full/copy/c \
    || echo "c neither reported nor copied"
  sed -e '/'"'full\/copy\/c'"'/d' -e 's/^[^:]*: //' err | LC_ALL=C sort
  (cd full/copy && stat -c '%n %h' a b c)
  rm -rf full/copy || framework_failure_
}
links_outcome "$gnu_dir_/cp" > exp-links
links_outcome cp --jobs=4 > links-outcome
compare exp-links links-outcome || fail=1
umount full || framework_failure_

# SIGINT while a worker waits on a FIFO's data: the whole process ends
# at once, killed by the signal, as a serial cp is.  With -p, as in
# GNU cp, a new directory is its owner's alone until it is complete.
umask 022
# A job started in the background ignores SIGINT unless told otherwise.
mkfifo src/d2/fifo || framework_failure_
exec 3<> src/d2/fifo || framework_failure_
env --default-signal=INT cp --jobs=4 -rp --copy-contents src dst &
pid=$!
# Wait for the walk to reach the FIFO (for as long as a loaded machine
# may take: four seconds were once the limit), then for its worker to
# read it.
wait_until_ 600 test -e dst/d2/fifo || { echo "no dst/d2/fifo"; fail=1; }
# Until the FIFO's copy is filled, its new directory stays its owner's
# alone, as in a serial copy, though the walk has left it.
sleep .5
test "$(stat -c %a dst/d2)" = 700 || { stat -c %a dst/d2; fail=1; }
# So does the directory above it, whose attributes come after its
# subdirectories'.
test "$(stat -c %a dst)" = 700 || { stat -c %a dst; fail=1; }
printf 'partial\n' >&3
sleep .5
kill -INT $pid
wait_until_ 60 process_ended_ $pid \
  || { echo "cp outlived SIGINT"; kill -KILL $pid; }
wait $pid
rc=$?
exec 3>&-
test $rc = 130 || { echo "exit status $rc, not 130"; fail=1; }

Exit $fail
