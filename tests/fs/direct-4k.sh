#!/bin/sh
# Direct I/O on a disk of 4096-byte logical sectors (ext4 on a loop
# device made so), where transfers must be aligned to 4 KiB and 512
# bytes is not enough.  cp --direct copies files of every size with
# direct I/O, warning of nothing, the unaligned tail of a file through
# the cache; dd's iflag=direct and oflag=direct with blocks of 512
# bytes fail, and with odd sizes and offsets behave, as GNU's dd does.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
require_root_
require_gnu_ dd
cpdd_has_ HAVE_O_DIRECT || skip_ "direct I/O is not compiled in"
make_fs_ ext4-4k "$PWD/mnt" || skip_ "no ext4 on 4096-byte sectors here"

cd mnt || framework_failure_
mkdir fix sizes || framework_failure_
for size in 4096 65536 1000000 3000001; do
  head -c $size /dev/urandom > sizes/$size || framework_failure_
done
head -c 40960 /dev/urandom > fix/in || framework_failure_

# cp: direct on both ends, whatever the size; no fallback, no warning.
for size in 4096 65536 1000000 3000001; do
  for which in both in out; do
    for method in auto read; do
      rm -f out
      cp --direct=$which --io-method=$method --debug sizes/$size out \
        > debug 2> err || fail=1
      cmp sizes/$size out || fail=1
      compare /dev/null err || fail=1
      grep "direct I/O: $which" debug > /dev/null \
        || { cat debug; echo "$size $which $method: not direct"; fail=1; }
    done
  done
done

# dd: 512-byte blocks are refused on these sectors, 4 KiB ones are not;
# a short last block, odd skip= and seek= in bytes, as GNU's dd does.
for bs in 512 4096 12288; do
  diff_run_ dd-in-$bs dd if=in of=out iflag=direct bs=$bs
  diff_run_ dd-out-$bs dd if=in of=out oflag=direct bs=$bs
done
diff_run_ dd-both-tail dd if=in of=out iflag=direct oflag=direct bs=12288
diff_run_ dd-skip-bytes dd if=in of=out iflag=direct,skip_bytes skip=100 \
  bs=4096
diff_run_ dd-seek-4k dd if=in of=out oflag=direct,seek_bytes seek=4096 \
  bs=4096
diff_run_ dd-seek-odd dd if=in of=out oflag=direct,seek_bytes seek=1000 \
  bs=4096
cd .. || framework_failure_

Exit $fail
