#!/bin/sh
# iflag=nocache and oflag=nocache drop the page cache in 256 KiB pieces
# of what dd read or wrote, keeping the rest for later, and to the end
# of the file only when the input ended (or with count=0), not when
# count= stopped the copy.  The output's pieces are placed where GNU
# dd places them, which is past what was written once a piece was
# left over or the last one is small.  The posix_fadvise calls, seen
# with strace, are compared with GNU dd's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 1234567 /dev/zero > fix/in || framework_failure_

# The calls must show as fadvise64 (as on x86_64) for the checks below.
strace_ -qq -o probe -e trace=fadvise64 dd if=fix/in iflag=nocache count=0 \
  2>/dev/null && grep POSIX_FADV_DONTNEED probe >/dev/null \
  || skip_ 'strace shows no fadvise64 calls here'

for args in \
    'iflag=nocache skip=10 count=300' \
    'iflag=nocache bs=1M count=1' \
    'iflag=nocache bs=1M count=3000' \
    'iflag=nocache bs=100k count=5' \
    'iflag=nocache count=0' \
    'iflag=nocache bs=1M of=out oflag=nocache' \
    'of=out bs=1M oflag=nocache,sync' \
    'of=out bs=1M oflag=nocache count=1' \
    'of=out bs=1M oflag=nocache count=1 seek=1' \
    'of=out bs=100k oflag=nocache count=1 conv=notrunc' \
    'of=out bs=100k oflag=nocache count=3 skip=1' \
    'of=out bs=200k oflag=nocache count=3' \
    'of=out bs=200k oflag=nocache count=2 seek=1' \
    'of=out bs=100k oflag=nocache conv=notrunc iflag=nocache skip=1' \
    'of=out oflag=nocache count=0'; do
  for side in ours gnu; do
    if test $side = ours; then d=$ours_dir_; else d=$gnu_dir_; fi
    rm -rf run && cp -a fix run || framework_failure_
    ( cd run && strace_ -qq -o ../trace.$side -e trace=fadvise64 \
        "$d/dd" if=in status=none $args ) || fail=1
  done
  compare trace.gnu trace.ours \
    || { echo "fadvise calls differ for: $args" >&2; fail=1; }
done

Exit $fail
