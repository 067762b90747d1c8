#!/bin/sh
# Buffers for direct I/O of at least a huge page are asked to be on
# huge pages, aligned to them, so that the disk gets large requests;
# other buffers are left alone.  Copies stay byte-exact either way.
# cp gets --reflink=never throughout: a clone would use no buffer.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"

grep '^#define HAVE_MADVISE 1' "$abs_top_builddir/config.h" > /dev/null \
  || skip_ "built without madvise"
hp=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null) \
  || skip_ "this system has no transparent huge pages"
test "$hp" -gt 0 2>/dev/null || skip_ "unreadable huge page size: $hp"
# Huge pages of 512 MiB (arm64 with 64 KiB pages) would make this test
# copy gigabytes.
test "$hp" -le 4194304 || skip_ "huge pages of $hp bytes are too large"
strace -o /dev/null true 2>/dev/null || skip_ "strace does not work here"

echo x > probe || framework_failure_
cp --direct probe probe.out 2> err && test ! -s err \
  || skip_ "this file system does not do direct I/O"

big=$((4 * hp))
head -c $((5 * big / 2 + 1234)) /dev/urandom > in || framework_failure_

# The MADV_HUGEPAGE calls COMMAND makes, as "ADDRESS LENGTH" lines.
huge_advice_ ()
{
  rm -f out
  strace_ -f -o trace -e trace=madvise "$@" || return 1
  sed -n 's/.*madvise(\(0x[0-9a-f]*\), \([0-9]*\), MADV_HUGEPAGE) = 0$/\1 \2/p' \
    trace > advice
}

# Whether every line of the file advice is an aligned buffer of LENGTH.
all_aligned_ ()
{
  test -s advice || return 1
  while read -r addr len; do
    test $(($addr % hp)) = 0 && test "$len" = "$1" || return 1
  done < advice
}

for uring in 1 0; do
  huge_advice_ env CPDD_IO_URING=$uring \
    cp --reflink=never --direct --buffer-size=$big in out || fail=1
  cmp in out || fail=1
  all_aligned_ $big || { echo "cp --direct, uring=$uring:"; cat trace; fail=1; }
done

huge_advice_ dd if=in of=out bs=$big iflag=direct oflag=direct status=none \
  || fail=1
cmp in out || fail=1
all_aligned_ $big || { echo "dd direct:"; cat trace; fail=1; }

# Not through the page cache, nor for buffers smaller than a huge page.
huge_advice_ cp --reflink=never --io-method=read --buffer-size=$big in out \
  || fail=1
cmp in out || fail=1
test ! -s advice || { echo "cp buffered:"; cat advice; fail=1; }

huge_advice_ dd if=in of=out bs=$big status=none || fail=1
cmp in out || fail=1
test ! -s advice || { echo "dd buffered:"; cat advice; fail=1; }

huge_advice_ cp --reflink=never --direct --buffer-size=$((hp / 2)) in out \
  || fail=1
cmp in out || fail=1
test ! -s advice || { echo "cp --direct, small buffers:"; cat advice; fail=1; }

Exit $fail
