#!/bin/sh
# --stats says "none" of the buffer where the kernel moved all the data
# and of the method where nothing was copied, rather than 0 and "".

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

head -c 1000000 /dev/urandom > f || framework_failure_
mkdir dir || framework_failure_

returns_ 1 cp --stats=json dir d2 2> err || fail=1
grep '"files": 0, "io_method": "none", "buffer_size": null,' err \
  > /dev/null || { cat err; fail=1; }
returns_ 1 cp --stats dir d2 2> err || fail=1
grep '^0 files, io method: none, buffer size: none,' err > /dev/null \
  || { cat err; fail=1; }

cp --debug --io-method=offload f probe > dbg || framework_failure_
if grep 'io method: offload' dbg > /dev/null; then
  cp --stats --io-method=offload f g 2> err || fail=1
  grep '^1 file, io method: offload, buffer size: none,' err > /dev/null \
    || { cat err; fail=1; }
else
  echo "no offload here: its buffer size not checked" >&2
fi
cp --stats=json --io-method=read --buffer-size=64K f g2 2> err || fail=1
grep '"io_method": "read", "buffer_size": 65536,' err > /dev/null \
  || { cat err; fail=1; }

Exit $fail
