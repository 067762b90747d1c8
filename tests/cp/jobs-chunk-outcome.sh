#!/bin/sh
# cp --jobs: a worker that splits a large file it was handed whole must
# not take the outcome the walk set aside for a file with other links
# that it is copying meanwhile.  It did: when the large file's copy
# failed, that other file's first copy counted as failed too, and its
# later names were copied afresh instead of linked to it, with no
# message.  Many large files fail to be read here while the walk copies
# many files with two links each; every pair must stay linked.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_

CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

mkdir -p src/d src/e || framework_failure_
for i in $(seq 12); do
  head -c 2100000 /dev/zero > src/d/big$i || framework_failure_
done
for i in $(seq 400); do
  echo $i > src/d/s$i && ln src/d/s$i src/e/s$i || framework_failure_
done

for run in 1 2 3 4 5; do
  rm -rf dst || framework_failure_
  with_faults_ FAULT_OP=read,pread,preadv2 FAULT_MODE=eio \
    FAULT_DISABLE=copy_file_range,sendfile FAULT_FD_PATH='*/src/d/big*' \
    -- cp --jobs=4 -a src dst 2> err && fail=1
  grep -v "^cp: error reading 'src/d/big[0-9]*': Input/output error\$" err \
    && fail=1
  # Each name of src/d/s* has one other link, its copy's too.
  stat -c '%h %n' dst/d/s* | grep -v '^2 ' && fail=1
done

Exit $fail
