#!/bin/sh
# cp --atomic on a local file system (cpdd extension): the temporary
# files are not synced one by one but together, by a syncfs, and each
# is renamed over its destination only after a syncfs that began once
# it was complete, so that a crash leaves the old file or the whole
# new one.  A hard link to a copy whose rename is pending is made after
# that rename; the times of the directories renamed into are the
# source's at the end; a directory that is made read-only gets its
# renames first; with --jobs too.  With --fsync, a syncfs comes after
# the last rename.

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
  batches=$(sed -n 's/^atomic: [0-9]* renamed after syncfs, in \([0-9]*\) batches$/\1/p' out)
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

Exit $fail
