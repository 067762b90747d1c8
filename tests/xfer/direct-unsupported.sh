#!/bin/sh
# Where a file system refuses direct I/O, cp says so once, in a warning
# naming the file, and copies through the page cache.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
cpdd_has_ HAVE_O_DIRECT || skip_ "direct I/O is not compiled in"

# ramfs has no direct I/O at all; mounting it needs root.
mkdir ram || framework_failure_
mount -t ramfs cpdd-xfer ram 2> /dev/null \
  || skip_ "cannot mount ramfs (needs root)"
cleanup_ () { umount ram; }

head -c 100001 /dev/urandom > in || framework_failure_

echo "cp: warning: direct I/O not supported for 'ram/out';" \
  "using the page cache" > exp || framework_failure_
cp --direct --buffer-size=4K in ram/out 2> err || fail=1
cmp in ram/out || fail=1
compare exp err || fail=1

# Direct input from ramfs; direct output to the work file system, with
# buffers in flight through either queue.
for uring in 1 0; do
  rm -f out
  CPDD_IO_URING=$uring cp --direct --io-method=read --buffer-size=4K \
    ram/out out 2> err || fail=1
  cmp in out || fail=1
  compare exp err || fail=1
done

# Only where asked: --direct=in does not touch the output.
rm -f ram/out2
cp --direct=in in ram/out2 2> err || fail=1
cmp in ram/out2 || fail=1
compare /dev/null err || fail=1

Exit $fail
