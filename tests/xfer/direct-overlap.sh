#!/bin/sh
# --direct copies of more than one buffer are byte-exact at awkward
# sizes through both queues (io_uring, and the reader thread it falls
# back to), on the work file system and on tmpfs, for every direct
# mode, and when the source has holes (the queue then copies ranges).

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

echo x > probe || framework_failure_
cp --direct probe probe.out 2> err && test ! -s err \
  || skip_ "this file system does not do direct I/O"

shm=$(mktemp -d /dev/shm/cpdd-direct.XXXXXX) || shm=
cleanup_ () { test -z "$shm" || rm -rf "$shm"; }

sizes='0 1 511 4095 4096 4097 12289 65535 65536 65537 1048575 1048576
       1048577 3145729'
for size in $sizes; do
  head -c $size /dev/urandom > in-$size || framework_failure_
done

for uring in 1 0; do
  for mode in both in out; do
    for bs in 4K 64K; do
      for size in $sizes; do
        for dir in . $shm; do
          rm -f "$dir/out"
          CPDD_IO_URING=$uring cp --direct=$mode --buffer-size=$bs \
            in-$size "$dir/out" 2> err \
            || { echo "failed: uring=$uring $mode $bs $size $dir"; fail=1; }
          cmp in-$size "$dir/out" \
            || { echo "differs: uring=$uring $mode $bs $size $dir"; fail=1; }
        done
      done
    done
  done
done

# The queue was used, and said so.
CPDD_IO_URING=0 cp --debug --direct --buffer-size=4K in-3145729 out > dbg \
  || fail=1
grep 'in flight: 16 buffers (reader thread)$' dbg > /dev/null \
  || { cat dbg; fail=1; }

# Copying onto a longer file leaves exactly the source's bytes.
head -c 5000000 /dev/urandom > long || framework_failure_
for uring in 1 0; do
  cp long out && CPDD_IO_URING=$uring cp --direct --buffer-size=4K \
    in-1048577 out || fail=1
  cmp in-1048577 out || fail=1
done

# A source with holes is copied extent by extent: ranges whose lengths
# are not whole buffers.
head -c 3000000 /dev/urandom > sparse || framework_failure_
truncate -s 6000000 sparse || framework_failure_
head -c 1500001 /dev/urandom >> sparse || framework_failure_
for uring in 1 0; do
  rm -f out
  CPDD_IO_URING=$uring cp --direct --buffer-size=64K sparse out || fail=1
  cmp sparse out || fail=1
done

Exit $fail
