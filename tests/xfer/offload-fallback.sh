#!/bin/sh
# Offload falls back without a word: copy_file_range, else sendfile
# (across file systems), else read for files the kernel will not
# offload or map (/proc files that say they are empty).  A sparse file
# falls back once, and its later extents go through sendfile too.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

head -c 300001 /dev/urandom > in || framework_failure_

if test "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs; then
  shm=$(mktemp -d /dev/shm/cpdd-xfer.XXXXXX) || framework_failure_
  cleanup_ () { rm -rf "$shm"; }
  for method in auto offload; do
    cp --io-method=$method in "$shm/out" 2> err || fail=1
    cmp in "$shm/out" || fail=1
    compare /dev/null err || fail=1
    cp --io-method=$method "$shm/out" out 2> err || fail=1
    cmp in out || fail=1
    compare /dev/null err || fail=1
    rm -f out "$shm/out"
  done

  # Data extents with holes between them, on tmpfs, copied out.
  truncate -s 3M "$shm/holey" \
    && for off in 0 1 2; do
         printf 'extent %s' $off \
           | dd of="$shm/holey" bs=1M seek=$off conv=notrunc 2>/dev/null
       done || framework_failure_
  for method in auto offload; do
    cp --io-method=$method "$shm/holey" out 2> err || fail=1
    cmp "$shm/holey" out || fail=1
    compare /dev/null err || fail=1
    rm -f out
  done
fi

test -r /proc/version || skip_ "no /proc/version"
cat /proc/version > exp || framework_failure_
test -s exp || skip_ "/proc/version is empty"
for method in auto read mmap offload; do
  rm -f out
  cp --io-method=$method /proc/version out 2> err || fail=1
  compare exp out || fail=1
  compare /dev/null err || fail=1
done

Exit $fail
