#!/bin/sh
# On a FUSE file system that refuses O_DIRECT at open and has no
# copy_file_range, no SEEK_HOLE and no extended attributes
# (tests/shim/plainfuse.c): cp and dd do what GNU's do, and every
# method of ours, chosen or left to auto, copies exactly, with no
# error and no message beyond the documented warnings.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
require_root_
require_gnu_ cp
make_fs_ fuse "$PWD/mnt" || skip_ "no FUSE file system here"

# Outside the FUSE file system, a source with an extended attribute.
mkdir xsrc || framework_failure_
printf 'data\n' > xsrc/f || framework_failure_
setfattr -n user.cpdd -v 1 xsrc/f 2>/dev/null || rm -rf xsrc

cd mnt || framework_failure_
mkdir fix fix/d || framework_failure_
printf x > fix/holey && truncate -s 1M fix/holey && printf y >> fix/holey \
  && head -c 3000001 /dev/urandom > fix/dense \
  && head -c 200000 /dev/zero > fix/zeros \
  && printf 'small\n' > fix/d/a && ln fix/d/a fix/d/b \
  && ln -s a fix/d/link && mkfifo fix/d/fifo \
  || framework_failure_
DIFF_BLOCKS=1

for sparse in auto always never; do
  diff_run_ holey-$sparse cp --sparse=$sparse holey copy
  diff_run_ zeros-$sparse cp --sparse=$sparse zeros copy
done
diff_run_ tree-a cp -a d copy
diff_run_ tree-r cp -r d copy
diff_run_ reflink-always cp --reflink=always dense copy
diff_run_ dd-plain dd if=dense of=copy bs=64K
diff_run_ dd-oflag-direct dd if=dense of=copy oflag=direct bs=64K
diff_run_ dd-iflag-direct dd if=dense of=copy iflag=direct bs=64K
if test -d ../xsrc; then
  diff_run_ xattr-a cp -a ../xsrc/f copy
  diff_run_ xattr-preserve cp --preserve=xattr ../xsrc/f copy
fi

# Our methods, each asked for, and direct and uncached I/O: exact
# copies, keeping the holes that cp without them keeps, and nothing on
# standard error but the documented warnings.
for f in holey dense zeros; do
  cp fix/$f ref-$f || fail=1
done
for method in auto read mmap offload; do
  for extra in '' --direct --uncached; do
    for f in holey dense zeros; do
      rm -f out
      cp --io-method=$method $extra fix/$f out 2> err || fail=1
      cmp fix/$f out || fail=1
      test $(stat -c %b out) = $(stat -c %b ref-$f) \
        || { echo "$method $extra $f: holes differ"; fail=1; }
      grep -v -e '^cp: warning: direct I/O not supported for' \
              -e '^cp: warning: uncached I/O not supported for' err \
        && { echo "$method $extra $f: unexpected message"; fail=1; }
    done
  done
done
cd .. || framework_failure_

Exit $fail
