#!/bin/sh
# The automatic buffer is 256 KiB rounded up to the files' block
# sizes (8 MiB with direct I/O), trimmed for a small file to its size
# plus one rounded up; a given size is used as is, or rounded up to the
# direct I/O alignment.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/xfer

blk=$(stat -c %o .) || framework_failure_
test $((262144 % blk)) = 0 || skip_ "odd block size $blk"

# bufsize_ SIZE [OPTION]...: the buffer size used for a SIZE-byte file.
bufsize_ ()
{
  size=$1; shift
  head -c $size /dev/urandom > in && rm -f out \
    && xfer-copy --debug --io-method=read "$@" in out > got \
    && cmp in out \
    && sed -n 's/.*buffer size: \([0-9]*\),.*/\1/p' got
}

round_up_ () { echo $(( ($1 + $2 - 1) / $2 * $2 )); }

test "$(bufsize_ 0)" = $blk || fail=1
test "$(bufsize_ 100)" = $blk || fail=1
test "$(bufsize_ $blk)" = $((2 * blk)) || fail=1
test "$(bufsize_ 200000)" = $(round_up_ 200001 $blk) || fail=1
test "$(bufsize_ 262143)" = 262144 || fail=1
test "$(bufsize_ 1048576)" = 262144 || fail=1

# An explicit size is used even for a small file.
test "$(bufsize_ 100 --buffer-size=1M)" = 1048576 || fail=1
test "$(bufsize_ 100000 --buffer-size=1000)" = 1000 || fail=1

# With direct I/O the size is a multiple of the alignment (512 or more),
# and the automatic one is 8 MiB, trimmed likewise.
if xfer-copy --direct in probe 2> err && test ! -s err; then
  test "$(bufsize_ 9000000 --direct)" = 8388608 || fail=1
  test "$(bufsize_ 300000 --direct)" = 524288 || fail=1
  got=$(bufsize_ 100000 --direct --buffer-size=1000) || fail=1
  test $((got % 512)) = 0 && test $got -ge 1000 && test $got -lt 8192 \
    || { echo "direct buffer: $got"; fail=1; }
fi

Exit $fail
