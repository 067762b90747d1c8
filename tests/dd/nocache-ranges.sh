#!/bin/sh
# iflag=nocache and oflag=nocache drop the page cache in 128 KiB pieces
# of what dd read or wrote, keeping the rest for later, and to the end
# of the file only when the input ended (or with count=0), not when
# count= stopped the copy.  The posix_fadvise calls, seen with strace,
# are compared with GNU dd's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 1234567 /dev/zero > fix/in || framework_failure_

# The calls must show as fadvise64 (as on x86_64) for the checks below.
strace -qq -o probe -e trace=fadvise64 dd if=fix/in iflag=nocache count=0 \
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
    'of=out oflag=nocache count=0'; do
  for side in ours gnu; do
    if test $side = ours; then d=$ours_dir_; else d=$gnu_dir_; fi
    rm -rf run && cp -a fix run || framework_failure_
    ( cd run && strace -qq -o ../trace.$side -e trace=fadvise64 \
        "$d/dd" if=in status=none $args ) || fail=1
  done
  compare trace.gnu trace.ours \
    || { echo "fadvise calls differ for: $args" >&2; fail=1; }
done

# Where several pieces of the output are dropped, each lies within what
# was written (GNU dd 9.1 misplaces the later ones; we do not follow).
rm -rf run && cp -a fix run || framework_failure_
( cd run && strace -qq -o ../trace -e trace=fadvise64 \
    dd if=in of=out bs=100k oflag=nocache count=3 skip=1 status=none ) \
  || fail=1
cat > exp <<'EOT' || framework_failure_
fadvise64(1, 0, 131072, POSIX_FADV_DONTNEED) = 0
fadvise64(1, 131072, 131072, POSIX_FADV_DONTNEED) = 0
fadvise64(1, 262144, 45056, POSIX_FADV_DONTNEED) = 0
EOT
compare exp trace || fail=1

Exit $fail
