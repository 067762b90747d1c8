#!/bin/sh
# cp --jobs splits a large file into ranges only where reading it would
# wait for the disk: a file the page cache holds is copied whole, as
# ranges copied at once would only contend for its copy's lock.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

# Two of the automatic 64 MiB ranges.
dd if=/dev/urandom of=big bs=1M count=65 conv=fsync status=none \
  || framework_failure_
# Another test may drop the whole page cache meanwhile (the benchmark
# tests' cold runs), or push a file read once out of it with gigabytes
# of its own: a copy that split is tried again, with the file read
# twice again first (pages read twice are the last the kernel evicts),
# and one of three must copy it whole.
whole=false
for try in 1 2 3; do
  cat big big > /dev/null || framework_failure_
  rm -f hot || framework_failure_
  cp --debug --jobs=2 big hot > hot.out || fail=1
  cmp big hot || fail=1
  grep 'ranges: ' hot.out > /dev/null || { whole=true; break; }
  if command -v fincore > /dev/null 2>&1; then
    echo "try $try split; cached now: $(fincore -n -b -o RES big) bytes"
  fi
done
$whole || { cat hot.out; fail=1; }

# Out of the cache, where this file system lets it go.
command -v fincore > /dev/null 2>&1 || skip_ "no fincore to tell the cache"
dd if=big iflag=nocache count=0 status=none || framework_failure_
test "$(fincore -n -b -o RES big)" -eq 0 \
  || skip_ "this file system keeps the file cached"
cp --debug --jobs=2 big cold > cold.out || fail=1
grep ', ranges: 2' cold.out > /dev/null || { cat cold.out; fail=1; }
cmp big cold || fail=1

Exit $fail
