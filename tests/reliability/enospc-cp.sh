#!/bin/sh
# cp reports a full destination file system as GNU cp does, with every
# I/O method and direct mode, leaves a correct partial file, and goes on
# to the next source.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp

mount_tiny_fs_ 1m mnt
head -c 2000000 /dev/urandom > big || framework_failure_
: > empty || framework_failure_
printf 'small\n' > small || framework_failure_

# Our cp and GNU's fill the file system in turn, each starting empty.
full_copy_ ()
{
  side_=$1; shift
  rm -rf mnt/* || framework_failure_
  mkdir mnt/d || framework_failure_
  run_as_ $side_ timeout 60 "$@"
  ( cd mnt/d && for f in *; do test -e "$f" && echo "$f"; done ) \
    > $side_.files
}

for method in $rel_methods_; do
  for direct in $rel_directs_; do
    opts=$(cp_xfer_opts_ $method $direct)
    rm -rf mnt/* && ours_accepts_ mnt cp $opts || continue
    what="cp $opts"

    # One file too big for the file system.
    full_copy_ gnu cp big mnt/d/big
    full_copy_ ours cp $opts big mnt/d/big
    compare_sides_ "$what big"
    check_no_crash_ "$what big" $(cat ours.rc)
    test "$(cat ours.rc)" = 1 || { echo "$what: exit $(cat ours.rc)"; fail=1; }
    is_prefix_ mnt/d/big big \
      || { echo "$what: the partial copy has wrong bytes"; fail=1; }

    # Several files: the ones after the failure are still tried.
    full_copy_ gnu cp big empty small mnt/d
    full_copy_ ours cp $opts big empty small mnt/d
    compare_sides_ "$what big empty small"
    compare gnu.files ours.files \
      || { echo "$what: not the same files as GNU's"; fail=1; }
    check_no_crash_ "$what several" $(cat ours.rc)
  done
done

# A backup made before a copy that runs out of space is put back in
# place of the partial copy, as GNU does.
for side in gnu ours; do
  rm -rf mnt/* && printf 'old\n' > mnt/big || framework_failure_
  run_as_ $side cp -bv big mnt/big
  cat mnt/big > $side.left 2>&1
  ls mnt > $side.names || framework_failure_
done
compare_sides_ "cp -bv big (backup put back)"
compare gnu.left ours.left && compare gnu.names ours.names \
  || { echo "cp -bv: the backup was not put back as GNU does"; fail=1; }

Exit $fail
