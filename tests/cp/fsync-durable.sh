#!/bin/sh
# cp --fsync makes the copy durable (cpdd extension).  On local file
# systems (tmpfs, ext4) a tree costs one syncfs per destination file
# system at the end and no sync per file; on a FUSE file system, which
# syncfs does not reach, each regular file and each directory of the
# copy, and the directory the copy was made in, is synced after its
# last change, with --jobs and on mpicp's ranks too.  A failed syncfs
# fails the copy.  Without --fsync nothing is synced, as in GNU cp.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
# Before fs-helpers.sh, whose cleanup_ unmounts what make_fs_ mounts.
. "$srcdir/tests/reliability/rel-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
require_root_
command -v strace > /dev/null 2>&1 || skip_ "strace is missing"
make_fs_ tmpfs "$PWD/mem" || skip_ "no tmpfs here"

# Ranges of 1 MiB, so that the large file is copied in pieces with
# --jobs and on several ranks.
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

mkdir src src/a src/a/b src/sub || framework_failure_
head -c 3500000 /dev/urandom > src/big || framework_failure_
printf 'f\n' > src/f && : > src/empty && printf 'g\n' > src/a/g \
  && printf 'h\n' > src/a/b/h && printf 's\n' > src/sub/s \
  && ln src/f src/a/f-link && ln -s f src/l && mkfifo src/a/fifo \
  && touch -d '2001-02-03 04:05:06' src/a/b src/a src/sub src \
  || framework_failure_

# trace_ OUT CMD...: run CMD under strace -f, with descriptors' names,
# logging to OUT the calls that change a file or a directory, and the
# syncs.
trace_ ()
{
  tr_out_=$1
  shift
  strace_ -f -y -qq -o "$tr_out_" -e trace=openat,mkdirat,symlinkat,linkat,\
renameat,renameat2,mknodat,unlinkat,fchmod,fchmodat,fchown,fchownat,\
utimensat,write,pwrite64,pwritev,pwritev2,copy_file_range,sendfile,\
ftruncate,fallocate,fsetxattr,fsync,fdatasync,syncfs "$@"
}

# The number of calls of SYSCALL in the trace OUT.
calls_ () { grep -c "^[0-9]* *$2(" "$1"; }

# unsynced_ TRACE DIR: name each directory and regular file of DIR,
# and the directory DIR is in, that the trace TRACE does not sync
# (fsync) after its last change.  A change is a call naming it by a
# descriptor: a write, an attribute set, and for a directory an entry
# made in it or an attribute set on one of its entries.  A sync counts
# from its start, a change from its end.  A file with several names is
# synced by the one it was opened by.
unsynced_ ()
{
  un_dir_=$(cd "$2" && pwd -P) || framework_failure_
  find "$un_dir_" \( -type d -o -type f \) -printf '%i %p\n' > want.list \
    || framework_failure_
  un_up_=$(dirname "$un_dir_") || framework_failure_
  echo "0 $un_up_" >> want.list || framework_failure_
  awk -v list=want.list '
    function note(kind, call, at,   s, p) {
      if (call ~ /^openat\(/ && call !~ /O_CREAT|O_TRUNC/)
        return
      s = call
      while (match(s, /<\/[^>]*>/)) {
        p = substr(s, RSTART + 1, RLENGTH - 2)
        s = substr(s, RSTART + RLENGTH)
        if (kind == "sync")
          synced[p] = at
        else
          changed[p] = at
      }
    }
    {
      pid = $1
      line = $0
      sub(/^[0-9]+ +/, "", line)
      if (line ~ /<unfinished \.\.\.>$/) {
        pending[pid] = line
        if (line ~ /^fsync\(/)
          note("sync", line, NR)
      } else if (line ~ /^<\.\.\. /) {
        if (pending[pid] !~ /^fsync\(/)
          note("change", pending[pid], NR)
      } else
        note(line ~ /^fsync\(/ ? "sync" : "change", line, NR)
    }
    END {
      while ((getline w < list) > 0) {
        ino = w
        sub(/ .*/, "", ino)
        p = substr(w, length(ino) + 2)
        name[ino] = p
        if ((p in synced) && changed[p] <= synced[p])
          good[ino] = 1
      }
      for (ino in name)
        if (!(ino in good))
          print name[ino]
    }' "$1"
}

# Local file systems: one syncfs, no sync of any file or directory.
if make_fs_ ext4-4k "$PWD/ext4"; then
  kinds='mem ext4'
else
  kinds=mem
fi
for kind in $kinds; do
  for jobs in --jobs=1 --jobs=2; do
    trace_ $kind$jobs.trace cp -a --fsync $jobs src $kind/copy$jobs \
      || fail=1
    test "$(calls_ $kind$jobs.trace syncfs)" = 1 \
      || { echo "$kind $jobs: not one syncfs"; fail=1; }
    grep -E '^[0-9]* *(fsync|fdatasync)\(' $kind$jobs.trace \
      && { echo "$kind $jobs: a file synced on its own"; fail=1; }
    cmp src/big $kind/copy$jobs/big || fail=1
  done
done

# A copy into two file systems: one syncfs each.
mkdir mem/two mem/two/sub || framework_failure_
make_fs_ tmpfs "$PWD/mem/two/sub" || framework_failure_
trace_ two.trace cp -a --fsync src/. mem/two || fail=1
test "$(calls_ two.trace syncfs)" = 2 || { cat two.trace; fail=1; }
test -f mem/two/sub/s || fail=1

# --debug says how.
cp -r --fsync --debug src/a mem/dbg > dbg.out || fail=1
grep -q '^sync: syncfs per file system (1)$' dbg.out \
  || { cat dbg.out; fail=1; }

# Without --fsync, nothing is synced.
trace_ plain.trace cp -a src mem/plain || fail=1
grep -E '^[0-9]* *(fsync|fdatasync|syncfs)\(' plain.trace \
  && { echo "a sync without --fsync"; fail=1; }

# A file system that fails to write what it holds fails the copy.
require_faultshim_
with_faults_ FAULT_OP=syncfs FAULT_MODE=eio 'FAULT_FD_PATH=*/mem/fail*' -- \
  cp -r --fsync src mem/fail 2> fail.err
test $? = 1 || fail=1
grep -q "^cp: cannot sync the file system holding '.*': Input/output error$" \
  fail.err || { cat fail.err; fail=1; }

# A directory that may be written to but not read, as a drop box: its
# entries are synced with its file system.
as_nobody='setpriv --reuid=65534 --regid=65534 --clear-groups'
if $as_nobody true 2>/dev/null; then
  mkdir mem/box && chmod 733 mem/box && printf 'b\n' > mem/b \
    && chmod 755 mem && chmod 644 mem/b || framework_failure_
  (cd mem && $as_nobody cp --fsync b box/b) || fail=1
else
  echo "setpriv cannot switch to uid 65534: no drop box" >&2
fi

# FUSE: every file and directory synced after its last change.
make_fs_ fuse "$PWD/fuse" || skip_ "no FUSE file system here"
runs='serial jobs'
if test -x "${abs_top_builddir-$PWD/..}/src/mpicp" \
    && command -v mpirun > /dev/null 2>&1; then
  require_mpicp_
  runs="$runs mpi"
fi
cd fuse || framework_failure_
for run in $runs; do
  case $run in
    serial) trace_ ../$run.trace cp -a --fsync ../src copy-$run ;;
    jobs) trace_ ../$run.trace cp -a --fsync --jobs=2 ../src copy-$run ;;
    mpi) trace_ ../$run.trace timeout -k 30 "$mpi_timeout_" mpirun \
           --allow-run-as-root --oversubscribe -q -np 3 \
           mpicp -a --fsync ../src copy-$run ;;
  esac || { echo "$run: failed"; fail=1; }
  cmp ../src/big copy-$run/big || fail=1
  unsynced_ ../$run.trace copy-$run > ../$run.unsynced || framework_failure_
  test -s ../$run.unsynced \
    && { echo "$run: not synced after their last change:";
         cat ../$run.unsynced; fail=1; }
  grep '^[0-9]* *syncfs(' ../$run.trace \
    && { echo "$run: syncfs, which FUSE does not pass on"; fail=1; }
done
cp -r --fsync --debug ../src/a dbg > ../fuse-dbg.out || fail=1
grep -q '^sync: per file and directory$' ../fuse-dbg.out \
  || { cat ../fuse-dbg.out; fail=1; }
cd .. || framework_failure_

# The directories --parents makes, each synced after its attributes.
mkdir fuse/top || framework_failure_
trace_ parents.trace cp -a --parents --fsync src/a/b/h fuse/top || fail=1
unsynced_ parents.trace fuse/top/src > parents.unsynced || framework_failure_
test -s parents.unsynced \
  && { echo "--parents: not synced:"; cat parents.unsynced; fail=1; }

Exit $fail
