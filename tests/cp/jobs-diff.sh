#!/bin/sh
# cp --jobs=4 copies a tree as GNU cp copies it one file at a time:
# hard-link groups split across directories (and so across workers),
# a directory whose big file is the last thing in it to finish, and
# one unreadable file among thousands.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
CPDD_TEST_JOBS=4
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/links || framework_failure_
for d in 1 2 3 4 5 6 7 8; do
  mkdir fix/links/d$d || framework_failure_
  for f in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    printf '%s/%s\n' $d $f > fix/links/d$d/f$f || framework_failure_
  done
done
# Each group has a name in several directories, first met at varying
# depths of the walk.
for f in 1 2 3 4 5 6 7 8 9 10; do
  ln fix/links/d1/f$f fix/links/d5/l$f || framework_failure_
  ln fix/links/d8/f$f fix/links/d2/l$f || framework_failure_
  ln fix/links/d8/f$f fix/links/d3/m$f || framework_failure_
done

# The big file comes last in its directory, which is read-only and
# dated: its permissions and time must be set after the file is done.
mkdir fix/slow fix/slow/sub || framework_failure_
printf 'small\n' > fix/slow/a || framework_failure_
dd if=/dev/urandom of=fix/slow/zz-big bs=1M count=24 status=none \
  || framework_failure_
touch -d '2001-02-03 04:05:06.789' fix/slow/zz-big fix/slow/sub \
  fix/slow || framework_failure_
chmod 555 fix/slow || framework_failure_

DIFF_TIMES=ns diff_run_ links cp -a links copy
DIFF_TIMES=ns diff_run_ links-preserve cp -r --preserve=links,timestamps \
  links copy
DIFF_TIMES=ns diff_run_ slow cp -a slow copy
DIFF_TIMES=ns diff_run_ slow-p cp -rp slow copy
chmod 755 fix/slow || framework_failure_

# -v lines come from the walk, in its order, whatever the workers do.
# (Against GNU's the order would depend on the inodes of each side's
# copy of the fixture, which other processes can interleave.)
cp -av fix/links v1 > v1.out || fail=1
cp --jobs=4 -av fix/links v4 > v4.out || fail=1
sed "s| -> 'v4| -> 'v1|" v4.out > v4.masked || framework_failure_
compare v1.out v4.masked || fail=1

# Which names share an inode, in the copy of each side.
link_groups_ ()
{
  ( cd "$1" && find . -type f -printf '%i %p\n' | LC_ALL=C sort -k2 \
      | awk '{ g[$1] = g[$1] " " $2 } END { for (i in g) print g[i] }' \
      | LC_ALL=C sort )
}
for tag in links links-preserve; do
  link_groups_ $tag.ours/copy > $tag.ours.groups || framework_failure_
  link_groups_ $tag.gnu/copy > $tag.gnu.groups || framework_failure_
  compare $tag.gnu.groups $tag.ours.groups || fail=1
done

# One file a worker cannot open, among thousands.
as_nobody=$(unprivileged_runner_)
if test -n "$as_nobody"; then
  rm -rf fix/links fix/slow || framework_failure_
  many_files_fixture_ 10 250 7/file123
  diff_run_ unreadable $as_nobody cp -r many copy
fi

Exit $fail
