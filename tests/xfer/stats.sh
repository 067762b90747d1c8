#!/bin/sh
# --stats reports the whole command's bytes, time, rate, files, method
# and buffer size once, at the end, on standard error.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/xfer

head -c 1048576 /dev/urandom > a && head -c 4096 /dev/urandom > b \
  || framework_failure_

xfer-copy --stats --io-method=read --buffer-size=64K a a2 b b2 \
  > out 2> err || fail=1
compare /dev/null out || fail=1
sed -n 1p err | grep -E '^1052672 bytes \(1.1 MB, 1.0 MiB\) copied, [0-9.e+-]+ s, ([0-9.]+ [kMGT]?B/s|Infinity B/s)$' \
  || { cat err; fail=1; }
sed -n '2,$p' err > got
echo '2 files, io method: read, buffer size: 65536, direct I/O: no' > exp
compare exp got || fail=1

xfer-copy --stats=human --io-method=mmap a a2 2> err || fail=1
sed -n 2p err > got
echo '1 file, io method: mmap, buffer size: 8388608, direct I/O: no' > exp
compare exp got || fail=1

xfer-copy --stats=json --io-method=read --buffer-size=64K a a2 b b2 \
  2> err || fail=1
grep -E '^\{"bytes": 1052672, "seconds": [0-9.]+, "bytes_per_second": [0-9]+, "files": 2, "io_method": "read", "buffer_size": 65536, "direct": "no"\}$' err \
  || { cat err; fail=1; }

# Two methods in one command.
xfer-copy --stats --io-method=mmap a a2 /dev/null empty 2> err || fail=1
sed -n 2p err > got
echo '2 files, io method: read+mmap, buffer size: 8388608, direct I/O: no' \
  > exp
compare exp got || fail=1

# A failed copy is no file.
returns_ 1 xfer-copy --stats --reflink=always a a3 2> err || fail=1
grep '^0 files, ' err || fail=1

# No report unless asked.
xfer-copy a a2 2> err || fail=1
compare /dev/null err || fail=1

Exit $fail
