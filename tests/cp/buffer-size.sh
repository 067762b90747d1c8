#!/bin/sh
# --buffer-size takes dd's units, is used as given, and bad sizes are
# refused with a GNU-style message.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

head -c 1000001 /dev/urandom > in || framework_failure_

for size in 1 511 4K 8M 8MiB 1MB 1048576 2x4K; do
  rm -f out
  cp --buffer-size=$size in out || fail=1
  cmp in out || fail=1
done

cp --debug --io-method=read --buffer-size=8M in out > debug || fail=1
grep 'buffer size: 8388608' debug || fail=1

for bad in 8Q 0 -1 '' 1Mi 99999999999999999999 8MM; do
  returns_ 1 cp --buffer-size="$bad" in out 2> err || fail=1
  printf "cp: invalid buffer size: '%s'\n" "$bad" > exp
  compare exp err || fail=1
done

Exit $fail
