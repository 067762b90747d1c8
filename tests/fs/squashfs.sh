#!/bin/sh
# From squashfs, a read-only file system whose SEEK_HOLE knows no holes
# though its files have them (GNU 9.8 fixed cp missing them there):
# every --sparse as GNU's cp, holes and all, onto ext4 and tmpfs, and
# our methods and --jobs ranges making the same holes.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
require_root_
require_gnu_ cp

mkdir src || framework_failure_
printf x > src/holey && truncate -s 2M src/holey && printf y >> src/holey \
  && truncate -s 1M src/all-hole \
  && head -c 300000 /dev/urandom > src/dense \
  && { head -c 100000 /dev/urandom; head -c 500000 /dev/zero;
       head -c 100000 /dev/urandom; } > src/zeros-inside \
  && : > src/empty && ln -s holey src/link \
  || framework_failure_
make_fs_ squashfs "$PWD/sq" "$PWD/src" || skip_ "no squashfs here"
cmp src/holey sq/holey || framework_failure_

DIFF_BLOCKS=1
top=$PWD
targets=.
make_fs_ tmpfs "$top/tmpfs" && targets="$targets tmpfs"
for to in $targets; do
  cd "$top/$to" || framework_failure_
  # GNU's holes are those SEEK_HOLE reports: a build without it makes
  # its own, and is compared with itself only.
  if cpdd_has_ HAVE_SEEK_HOLE; then
    for sparse in auto always never; do
      diff_run_ $to-$sparse cp -r --sparse=$sparse "$top/sq" copy
    done
    diff_run_ $to-a cp -a "$top/sq" copy
  fi
  # Ours alone: every method, and --jobs with files split in ranges,
  # make what plain cp makes.
  for sparse in auto always never; do
    rm -rf ref && cp -r --sparse=$sparse "$top/sq" ref || fail=1
    for how in --io-method=read --io-method=mmap --io-method=offload \
               --jobs=2; do
      rm -rf out
      env CPDD_CHUNK_SIZE=256K cp -r --sparse=$sparse $how "$top/sq" out \
        || fail=1
      DIFF_BLOCKS=1 tree_digest_ ref > ref.digest \
        && DIFF_BLOCKS=1 tree_digest_ out > out.digest || framework_failure_
      compare ref.digest out.digest \
        || { echo "$to $sparse $how: differs from plain cp"; fail=1; }
    done
  done
done
cd "$top" || framework_failure_

Exit $fail
