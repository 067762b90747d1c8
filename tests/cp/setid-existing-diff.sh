#!/bin/sh
# Copying onto an existing file or directory with set-user-ID,
# set-group-ID or sticky bits.  Preserving permissions gives the copy
# exactly the source's, as GNU cp 9.10 does whether it sets them
# through libacl or not: no bit the destination had stays.  A copy
# whose owner can't be given loses the set-ID and sticky bits of the
# source too.  Without preserving permissions the destination's stay,
# but for those a chown to another owner clears.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
test "$(id -u)" = 0 || skip_ "giving a file to another owner needs root"

mkdir fix fix/dst fix/src-dir fix/dst-dir || framework_failure_
printf 'a\n' > fix/f || framework_failure_
chmod 444 fix/f || framework_failure_
printf 'b\n' > fix/g || framework_failure_
chmod 444 fix/g || framework_failure_
chown 65534 fix/g || framework_failure_
printf 'c\n' > fix/sticky-src || framework_failure_
chmod 1755 fix/sticky-src || framework_failure_
printf 'd\n' > fix/setid-src || framework_failure_
chmod 6755 fix/setid-src || framework_failure_
for n in suid sgid both sticky plain; do
  : > fix/dst/$n || framework_failure_
done
chmod 4755 fix/dst/suid || framework_failure_
chmod 2755 fix/dst/sgid || framework_failure_
chmod 6755 fix/dst/both || framework_failure_
chmod 1644 fix/dst/sticky || framework_failure_
chmod 644 fix/dst/plain || framework_failure_
for n in sgid sticky; do
  mkdir fix/dst-dir/$n || framework_failure_
done
chmod 2755 fix/dst-dir/sgid || framework_failure_
chmod 1777 fix/dst-dir/sticky || framework_failure_

for opt in --preserve=ownership -p -a --preserve=mode,ownership \
           --preserve=mode ''; do
  tag=x$(printf '%s' "$opt" | tr -d ' =,-')
  diff_run_ "$tag-suid" cp $opt f dst/suid
  diff_run_ "$tag-sgid" cp $opt f dst/sgid
  diff_run_ "$tag-sticky" cp $opt f dst/sticky
  diff_run_ "$tag-other-owner" cp $opt g dst/both
  diff_run_ "$tag-sticky-onto-sgid" cp $opt sticky-src dst/sgid
  diff_run_ "$tag-setid-onto-sticky" cp $opt setid-src dst/sticky
  diff_run_ "$tag-setid-onto-plain" cp $opt setid-src dst/plain
  diff_run_ "$tag-dir-sgid" cp -rT $opt src-dir dst-dir/sgid
  diff_run_ "$tag-dir-sticky" cp -rT $opt src-dir dst-dir/sticky
done

# A user who can't give the copy root's owner: the kernel clears the
# set-ID bits of a file it writes, and the sticky bit goes with the
# owner.  The destinations and their directory are the user's.
as_nobody='setpriv --reuid=65534 --regid=65534 --clear-groups'
if $as_nobody true 2>/dev/null; then
  chmod 755 . || framework_failure_
  mkdir fix/nobody || framework_failure_
  for n in sticky sgid; do
    : > fix/nobody/$n || framework_failure_
  done
  chmod 1644 fix/nobody/sticky && chmod 2755 fix/nobody/sgid \
    && chown -R 65534:65534 fix/nobody || framework_failure_
  for opt in -p --preserve=mode ''; do
    tag=nobody$(printf '%s' "$opt" | tr -d ' =-')
    diff_run_ "$tag-new" $as_nobody cp $opt sticky-src nobody/new
    diff_run_ "$tag-new-setid" $as_nobody cp $opt setid-src nobody/new
    diff_run_ "$tag-sticky" $as_nobody cp $opt f nobody/sticky
    diff_run_ "$tag-sticky-src" $as_nobody cp $opt sticky-src nobody/sticky
    diff_run_ "$tag-sgid" $as_nobody cp $opt sticky-src nobody/sgid
  done
fi

Exit $fail
