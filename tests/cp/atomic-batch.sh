#!/bin/sh
# cp --atomic on a local file system (cpdd extension): the temporary
# files are not synced one by one but together, by a syncfs, and each
# is renamed over its destination only after a syncfs that began once
# it was complete, so that a crash leaves the old file or the whole
# new one.  A hard link to a copy whose rename is pending is made after
# that rename; the times of the directories renamed into are the
# source's at the end; a directory that is made read-only gets its
# renames first; with --jobs too.  With --fsync, a syncfs comes after
# the last rename.  A rename that fails, or a syncfs, fails the copies
# it was for and removes their temporary files.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
# Before fs-helpers.sh, whose cleanup_ unmounts what make_fs_ mounts.
. "$srcdir/tests/reliability/rel-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
require_root_
command -v strace > /dev/null 2>&1 || skip_ "strace is missing"
make_fs_ tmpfs "$PWD/mem" || skip_ "no tmpfs here"

mkdir src src/a src/a/b src/sub src/ro || framework_failure_
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  for d in src src/a src/a/b src/sub; do
    printf '%s %s\n' "$d" "$i" > "$d/f$i" || framework_failure_
  done
done
printf 'r\n' > src/ro/r1 && printf 'r\n' > src/ro/r2 \
  && ln src/f1 src/a/b/link1 || framework_failure_

# trace_ OUT CMD...: run CMD under strace, each thread's calls to
# OUT.PID with their start and duration, and descriptors' names.
trace_ ()
{
  tr_out_=$1
  shift
  rm -f "$tr_out_".* || framework_failure_
  strace_ -ff -ttt -T -y -qq -o "$tr_out_" -e trace=openat,renameat,\
renameat2,linkat,unlinkat,fchmod,fchmodat,fchown,utimensat,write,\
copy_file_range,sendfile,ftruncate,fsetxattr,fsync,fdatasync,syncfs "$@"
}

# check_ TRACE SYNC_LAST: from the threads' traces TRACE.*, name any
# file synced on its own, and any temporary file renamed without a
# syncfs between its last change and its rename; say if a rename into
# the directory ro came after ro was made read-only; with SYNC_LAST,
# say if no syncfs began after the last rename ended.  Print the number
# of syncfs on the last line.
check_ ()
{
  cat "$1".* | sort -n | awk -v sync_last="$2" '
    NR == 1 { base = int ($1) }
    {
      start = $1 - base
      line = $0
      sub (/^[0-9.]+ +/, "", line)
      end = start
      if (match (line, /<[0-9.]+>$/))
        end = start + substr (line, RSTART + 1, RLENGTH - 2)
    }
    line ~ /^(fsync|fdatasync)\(/ { print "synced one by one: " line }
    line ~ /^syncfs\(/ { n++; s_start[n] = start; s_end[n] = end; next }
    line ~ /^renameat2?\(/ && line ~ /\.cpdd-part"/ {
      s = line
      sub (/^renameat2?\([0-9]+</, "", s)
      dir = s
      sub (/>.*/, "", dir)
      name = s
      sub (/^[^"]*"/, "", name)
      sub (/".*/, "", name)
      p = dir "/" name
      synced = 0
      for (i = 1; i <= n; i++)
        if (last[p] <= s_start[i] && s_end[i] <= start)
          synced = 1
      if (!last[p])
        print "renamed, never written: " p
      else if (!synced)
        print "renamed before a syncfs: " p
      renamed_end = end
      if (dir ~ /\/ro$/)
        ro_renamed = end
      next
    }
    line ~ /^fchmod\([0-9]+<[^>]*\/ro>, 0555\)/ && !ro_closed { ro_closed = start }
    {
      s = line
      while (match (s, /<[^>]*\.cpdd-part>/))
        {
          p = substr (s, RSTART + 1, RLENGTH - 2)
          s = substr (s, RSTART + RLENGTH)
          last[p] = end
        }
    }
    END {
      if (!ro_closed || !ro_renamed || ro_closed < ro_renamed)
        print "ro was not renamed into before it was made read-only"
      if (sync_last && !(renamed_end <= s_start[n]))
        print "no syncfs after the last rename"
      print n + 0
    }'
}

for opts in '' --jobs=2 --fsync; do
  tag=run$opts
  # An older copy to replace, with another name for one of its files;
  # then new data in the sources, and a new file in each directory.
  rm -rf mem/dst mem/keep && cp -a src mem/dst && ln mem/dst/f2 mem/keep \
    && cp src/f2 old-f2 || framework_failure_
  for f in $(find src -type f); do
    printf 'new\n' >> "$f" || framework_failure_
  done
  for d in src src/a src/a/b src/sub; do
    printf 'added\n' > "$d/added" || framework_failure_
  done
  chmod 555 src/ro && touch -d '2001-02-03 04:05:06' src/a/b src/a \
    src/sub src/ro src || framework_failure_

  trace_ tr cp -aT --atomic --debug $opts src mem/dst > out 2> err \
    || { echo "$tag: failed"; cat err; fail=1; }
  test -s err && { echo "$tag: said:"; cat err; fail=1; }
  sync_last=
  test "$opts" = --fsync && sync_last=1
  check_ tr "$sync_last" > check || framework_failure_
  n_sync=$(tail -n 1 check)
  sed '$d' check > problems
  test -s problems && { echo "$tag:"; cat problems; fail=1; }
  # One syncfs per batch, and a batch at most at the end, for the hard
  # link and for the read-only directory; --fsync adds one at the end.
  batches=$(sed -n 's/^atomic: renamed after syncfs: [0-9]*, batches: \([0-9]*\)$/\1/p' out)
  test -n "$batches" \
    || { echo "$tag: no batch said"; cat out; fail=1; batches=0; }
  test "$opts" = --fsync && batches=$((batches + 1))
  test "$n_sync" = "$batches" && test "$batches" -le 4 \
    || { echo "$tag: $n_sync syncfs for $batches batches"; fail=1; }

  diff -r src mem/dst || { echo "$tag: copy differs"; fail=1; }
  test -z "$(find mem/dst -name '*.cpdd-part')" \
    || { echo "$tag: temporary file left"; fail=1; }
  test "$(stat -c %i mem/dst/f1)" = "$(stat -c %i mem/dst/a/b/link1)" \
    || { echo "$tag: hard link not kept"; fail=1; }
  cmp -s mem/keep old-f2 \
    || { echo "$tag: old file's other name changed"; fail=1; }
  for d in $(cd src && find . -type d); do
    test "$(stat -c '%y %a' "src/$d")" = "$(stat -c '%y %a' "mem/dst/$d")" \
      || { echo "$tag: times or mode of $d differ"; fail=1; }
  done
  chmod 755 src/ro || framework_failure_
done

# An unprivileged owner may not rename into a directory it made
# read-only: its renames are made first.
as_nobody='setpriv --reuid=65534 --regid=65534 --clear-groups'
if $as_nobody true 2>/dev/null; then
  mkdir mem/nsrc mem/nsrc/ro mem/ndst && printf 'n\n' > mem/nsrc/ro/n \
    && chmod 555 mem/nsrc/ro && chmod 755 mem && chown 65534 mem/ndst \
    || framework_failure_
  (cd mem && $as_nobody cp -a --atomic nsrc ndst) \
    || { echo "read-only directory: the copy failed"; fail=1; }
  compare mem/nsrc/ro/n mem/ndst/nsrc/ro/n || fail=1
  test "$(stat -c %a mem/ndst/nsrc/ro)" = 555 || fail=1
else
  echo "setpriv cannot switch to uid 65534: no read-only directory" >&2
fi

# A rename that fails at the end, as something was put in the copy's
# place meanwhile, says so, fails the copy and removes its temporary
# file; the other copies are made.  The copy of one/f waits in the
# batch while that of two/slow is held.
require_faultshim_
mkdir one two && printf 'f\n' > one/f && printf 'slow\n' > two/slow \
  && mkdir mem/r || framework_failure_
stalled_or_ended_ () { test -e stalled || process_ended_ $1; }
( LD_PRELOAD=$faultshim_ FAULT_OP=$rel_write_ops_ \
    FAULT_FD_PATH='*/mem/r/two/.slow.cpdd-part' FAULT_MODE=pause \
    FAULT_FLAG="$PWD/stalled" \
  && export LD_PRELOAD FAULT_OP FAULT_FD_PATH FAULT_MODE FAULT_FLAG \
  && exec cp -a --atomic --io-method=read one two mem/r ) \
  > out 2> err < /dev/null &
pid=$!
wait_until_ 600 stalled_or_ended_ $pid
test -e stalled || { echo "the copy never stalled"; fail=1; }
test -f mem/r/one/.f.cpdd-part && ! test -e mem/r/one/f \
  || { echo "one/f not waiting for its rename:"; ls -A mem/r/one; fail=1; }
mkdir mem/r/one/f mem/r/one/f/in-the-way || framework_failure_
rm -f stalled
wait $pid
test $? = 1 || { echo "a failed rename: not status 1"; fail=1; }
grep -q "^cp: cannot move 'mem/r/one/.f.cpdd-part' to 'mem/r/one/f': " err \
  || { echo "a failed rename:"; cat err; fail=1; }
test "$(ls -A mem/r/one)" = f && test -d mem/r/one/f \
  || { echo "a failed rename left:"; ls -A mem/r/one; fail=1; }
compare two/slow mem/r/two/slow || fail=1

# A syncfs that fails fails every copy of its batch: none is renamed,
# the old files stay, no temporary file is left.
rm -rf mem/dst && cp -a src mem/dst && cp -a mem/dst old || framework_failure_
for f in $(find src -type f); do
  printf 'newer\n' >> "$f" || framework_failure_
done
with_faults_ FAULT_OP=syncfs FAULT_MODE=eio 'FAULT_FD_PATH=*/mem/dst/*' -- \
  cp -a --atomic src mem/dst 2> err
test $? = 1 || { echo "a failed syncfs: not status 1"; fail=1; }
grep -q "^cp: cannot sync the file system holding '.*': Input/output error$" \
  err || { echo "a failed syncfs:"; cat err; fail=1; }
for f in $(cd old && find . -type f); do
  compare "old/$f" "mem/dst/$f" || { echo "a failed syncfs: $f"; fail=1; }
done
test -z "$(find mem/dst -name '*.cpdd-part')" \
  || { echo "a failed syncfs: temporary file left"; fail=1; }

Exit $fail
