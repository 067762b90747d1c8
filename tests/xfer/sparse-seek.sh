#!/bin/sh
# The walk of a sparse source's extents with SEEK_DATA and SEEK_HOLE
# when the file system's answers are unhelpful or change under it:
# one that knows no holes (squashfs), one whose SEEK_HOLE finds a hole
# where data just was, and a source cut short or grown during the
# walk.  Every copy ends, with the data the source had.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/xfer
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_
cpdd_has_ HAVE_SEEK_HOLE || skip_ "built without SEEK_HOLE"

# Three data extents with holes between them and after them.
truncate -s 3M src || framework_failure_
for mib in 0 1 2; do
  head -c 4096 /dev/urandom \
    | dd of=src bs=1M seek=$mib conv=notrunc 2>/dev/null || framework_failure_
done
truncate -s 3500000 src || framework_failure_
test $(stat -c %b src) -lt 1024 \
  || skip_ "this file system does not keep holes"
blocks_ () { stat -c %b "$1"; }

# squashfs: the data is copied as it is by default, with no word of
# SEEK_HOLE; --sparse=always still makes holes of the zeros.
for method in auto read offload; do
  rm -f out
  with_faults_ FAULT_SEEK=trivial FAULT_FD_PATH='*/src' -- \
    xfer-copy --debug --sparse=auto --io-method=$method src out > debug \
    || fail=1
  cmp src out || fail=1
  grep 'sparse detection: no,' debug > /dev/null || { cat debug; fail=1; }
  test $(blocks_ out) -ge 6800 || { echo "holes made: $method"; fail=1; }

  rm -f out
  with_faults_ FAULT_SEEK=trivial FAULT_FD_PATH='*/src' -- \
    xfer-copy --debug --sparse=always --io-method=$method src out > debug \
    || fail=1
  cmp src out || fail=1
  grep 'sparse detection: zeros,' debug > /dev/null || { cat debug; fail=1; }
  test $(blocks_ out) -le 64 || { echo "no holes: $method"; fail=1; }
done

# SEEK_HOLE answers "a hole here" 30 times before telling the truth:
# the walk asks again rather than skip data or stop.
for method in auto read offload; do
  for sparse in auto always never; do
    rm -f out log
    with_faults_ FAULT_SEEK=stuck FAULT_COUNT=30 FAULT_LOG=log \
      FAULT_FD_PATH='*/src' -- \
      xfer-copy --sparse=$sparse --io-method=$method src out || fail=1
    cmp src out || fail=1
    test $(wc -l < log) = 30 || fail=1
  done
done

# The source cut short, or grown, as the last data extent is read:
# the copy stops where the data does, or at the size it had, and has
# the source's data up to there.
for size in 1100000 5000000; do
  for method in read offload; do
    for sparse in auto always never; do
      cp src s || framework_failure_
      rm -f out
      with_faults_ FAULT_OP=read,copy_file_range,sendfile FAULT_MODE=resize \
        FAULT_AT=2097152 FAULT_TARGET=s FAULT_SIZE=$size \
        FAULT_FD_PATH='*/s' -- \
        xfer-copy --sparse=$sparse --io-method=$method s out || fail=1
      head -c $(stat -c %s out) src | cmp - out || fail=1
      test $(stat -c %s out) -le 3500000 || fail=1
    done
  done
done

Exit $fail
