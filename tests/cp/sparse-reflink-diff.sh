#!/bin/sh
# --sparse and --reflink are accepted with GNU's arguments and produce the same files.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix || framework_failure_
printf 'a\n' > fix/a || framework_failure_
dd if=/dev/zero of=fix/zeros bs=64K count=4 2>/dev/null || framework_failure_
printf 'x' | dd of=fix/holey bs=1 seek=1048576 2>/dev/null || framework_failure_

diff_run_ sparse-auto cp --sparse=auto holey new
diff_run_ sparse-always cp --sparse=always zeros new
diff_run_ sparse-never cp --sparse=never holey new
diff_run_ sparse-bad cp --sparse=bogus a new
diff_run_ sparse-missing-arg cp --sparse a new
diff_run_ reflink-never cp --reflink=never a new
diff_run_ reflink-auto cp --reflink=auto holey new
diff_run_ reflink-bad cp --reflink=sometimes a new
diff_run_ reflink-always-sparse cp --reflink=always --sparse=never a new
diff_run_ reflink-always-sparse-abbrev cp --reflink=al --sparse=al a new

# Where the file system can't clone, --reflink=always leaves no new
# file behind, but an existing one it truncated stays, empty.  Below a
# directory too, where cp --jobs hands a new file to a worker, and
# with CPDD_CHUNK_SIZE, in a file large enough for it to split, whose
# clone it tries all the same.  One file a directory, as with --jobs
# the errors about two could come in either order.
mkdir fix/d fix/d-big && cp fix/a fix/d && cp fix/holey fix/d-big \
  || framework_failure_
printf 'old\n' > fix/old || framework_failure_
diff_run_ reflink-always-new cp --reflink=always a new
diff_run_ reflink-always-new-v cp -v --reflink=always a new
diff_run_ reflink-always-old cp --reflink=always a old
diff_run_ reflink-always-tree cp -r --reflink=always d new
diff_run_ reflink-always-split env CPDD_CHUNK_SIZE=64K \
  cp -r --reflink=always d-big new

# A clone that fails because the storage did is a failure even where
# a copy could have been made another way; one that the file system
# refuses is not.  Only a build that clones meets the fault.
if test -f "${abs_top_builddir-$PWD/..}/tests/shim/faultshim.so" \
   && cpdd_has_ HAVE_FICLONE; then
  . "$srcdir/tests/reliability/rel-helpers.sh"
  require_faultshim_
  for mode in eio enospc eintr; do
    for reflink in auto always; do
      for dst in new old; do
        diff_run_ clone-$mode-$reflink-$dst env LD_PRELOAD="$faultshim_" \
          FAULT_OP=clone FAULT_MODE=$mode FAULT_FD_PATH='*' \
          cp --reflink=$reflink a $dst
      done
    done
  done
fi

# Holes are kept by default and made with --sparse=always.
cp fix/holey h1 || fail=1
cp --sparse=always fix/zeros z1 || fail=1
cmp fix/holey h1 || fail=1
cmp fix/zeros z1 || fail=1

Exit $fail
