#!/bin/sh
# mpicp on 1, 2 and 4 ranks copies a tree as GNU cp -a does: contents,
# permissions, owners, times to the nanosecond, hard links, extended
# attributes and holes, whichever rank copied each file; and a file
# that a rank other than 0 cannot read is reported in GNU's words.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_mpicp_

# Hard-link groups with names in several directories.
mkdir fix fix/links || framework_failure_
for d in 1 2 3 4; do
  mkdir fix/links/d$d || framework_failure_
  for f in 1 2 3 4 5 6 7 8 9 10; do
    printf '%s/%s\n' $d $f > fix/links/d$d/f$f || framework_failure_
  done
done
for f in 1 2 3 4 5; do
  ln fix/links/d1/f$f fix/links/d3/l$f || framework_failure_
  ln fix/links/d4/f$f fix/links/d2/l$f || framework_failure_
done
ln -s d1/f1 fix/links/sym || framework_failure_

# A read-only, dated directory whose big file comes last, and a file
# with holes: the directory's attributes must wait for the other
# ranks, and the holes must survive them.
mkdir fix/slow fix/slow/sub || framework_failure_
printf 'small\n' > fix/slow/a || framework_failure_
dd if=/dev/urandom of=fix/slow/zz-big bs=1M count=8 status=none \
  || framework_failure_
dd if=/dev/urandom of=fix/slow/holes bs=64K count=1 seek=40 status=none \
  || framework_failure_
truncate -s 8M fix/slow/holes || framework_failure_
chmod 640 fix/slow/a || framework_failure_
touch -d '2001-02-03 04:05:06.789' fix/slow/zz-big fix/slow/sub \
  fix/slow || framework_failure_
chmod 555 fix/slow || framework_failure_

# The blocks FILE takes, which GNU's copy and ours must share.
blocks_ () { stat -c %b "$1"; }

for n in 1 2 4; do
  ( CPDD_TEST_MPI=$n
    . "$srcdir/tests/diff-helpers.sh"
    DIFF_TIMES=ns diff_run_ links-$n cp -a links copy
    DIFF_TIMES=ns diff_run_ slow-$n cp -a slow copy
    DIFF_TIMES=ns diff_run_ slow-rp-$n cp -rp slow copy
    exit $fail ) || fail=1
  test "$(blocks_ slow-$n.ours/copy/holes)" \
       = "$(blocks_ slow-$n.gnu/copy/holes)" || fail=1
done
chmod -R u+w . || framework_failure_

# Which names share an inode, in a copy.
link_groups_ ()
{
  ( cd "$1" && find . -type f -printf '%i %p\n' | LC_ALL=C sort -k2 \
      | awk '{ g[$1] = g[$1] " " $2 } END { for (i in g) print g[i] }' \
      | LC_ALL=C sort )
}
link_groups_ links-1.gnu/copy > gnu.groups || framework_failure_
for n in 1 2 4; do
  link_groups_ links-$n.ours/copy > ours-$n.groups || framework_failure_
  compare gnu.groups ours-$n.groups || fail=1
done

# Extended attributes, in a fixture of their own, as digesting them
# takes a process per file.
if (require_xattrs_) > /dev/null 2>&1; then
  rm -rf fix || framework_failure_
  mkdir fix fix/xa fix/xa/sub || framework_failure_
  printf 'a\n' > fix/xa/sub/a && printf 'b\n' > fix/xa/sub/b \
    || framework_failure_
  python3 -c 'import os; os.setxattr("fix/xa/sub/b", "user.mpi", b"v")' \
    || framework_failure_
  for n in 2 4; do
    ( CPDD_TEST_MPI=$n
      . "$srcdir/tests/diff-helpers.sh"
      DIFF_XATTRS=1 diff_run_ xattrs-$n cp -a xa copy
      exit $fail ) || fail=1
  done
fi

# One file the copying rank cannot open, among many.
as_nobody=$(unprivileged_runner_)
if test -n "$as_nobody"; then
  rm -rf fix || framework_failure_
  mkdir fix || framework_failure_
  many_files_fixture_ 4 40 2/file17
  ( CPDD_TEST_MPI=4
    . "$srcdir/tests/diff-helpers.sh"
    diff_run_ unreadable $as_nobody cp -r many copy
    exit $fail ) || fail=1
fi

Exit $fail
