#!/bin/sh
# A file system pair that refuses clones as unsupported is asked once
# per copy, not once per file; --reflink=always still fails each file
# with its own message.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"

command -v strace > /dev/null 2>&1 || skip_ "strace is missing"
mkdir src || framework_failure_
for i in 1 2 3 4 5 6 7 8; do
  echo "file $i" > src/f$i || framework_failure_
done

strace_ -f -e trace=ioctl -o trace cp -a src dst \
  2> /dev/null || fail=1
grep -c 'FICLONE' trace > clones
if cp --reflink=always src/f1 probe 2> /dev/null; then
  # Here clones work: every file is cloned.
  test "$(cat clones)" = 8 || { cat trace; fail=1; }
else
  test "$(cat clones)" -le 1 || { cat trace; fail=1; }
  returns_ 1 cp -r --reflink=always src always 2> always.err || fail=1
  test "$(grep -c "^cp: failed to clone 'always/f[1-8]' from 'src/f[1-8]'" \
          always.err)" = 8 || { cat always.err; fail=1; }
fi

Exit $fail
