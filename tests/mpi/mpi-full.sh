#!/bin/sh
# mpicp on a file system that fills up: the ranks copying ranges of a
# large file fail as GNU cp fails, with its messages and exit status;
# and a second name of that file is copied afresh, as GNU cp does, not
# linked to what the failed copy left (rank 0 waits for the ranges'
# answers before linking).

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_mpicp_
test "$(id -u)" = 0 || skip_ "mounting a small file system needs root"
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

mkdir links full || framework_failure_
head -c 2000000 /dev/urandom > links/a || framework_failure_
ln links/a links/b && echo small > links/c || framework_failure_
mount -t tmpfs -o size=1m tmpfs full 2>/dev/null \
  || skip_ "cannot mount a small tmpfs"

# The exit status, the messages about a and b without the program's
# name, and their link counts, after copying links with $@.  Whether c
# still fits depends on which of a range's ranks wrote first: the copy
# is cut back to where the failed range starts, which frees the space
# when the first range is the one that failed.
links_outcome ()
{
  "$@" -a links full/copy 2> err
  echo "exit status $?"
  sed -n "s|^[^:]*: \(.*'full/copy/[ab]'.*\)|\1|p" err | LC_ALL=C sort
  (cd full/copy && stat -c '%n %h' a b)
  rm -rf full/copy || framework_failure_
}
links_outcome "$gnu_dir_/cp" > exp
for n in 2 4; do
  links_outcome mpirun_ $n mpicp > out-$n
  compare exp out-$n || fail=1
done
umount full || framework_failure_

Exit $fail
