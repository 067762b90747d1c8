#!/bin/sh
# dd reports a full output file system as GNU dd does, records and all,
# with every I/O method and direct mode, and leaves a correct partial file.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ dd

# bs= makes dd write each block as read; ibs/obs make it reblock, which
# GNU dd reports differently.  Both have their own test.
dd_block_sizes=${dd_block_sizes-'bs=64k bs=3000 bs=4096,seek=3'}

mount_tiny_fs_ 1m mnt
head -c 2000000 /dev/urandom > big || framework_failure_

for method in $rel_dd_methods_; do
  for direct in $rel_directs_; do
    rm -rf mnt/* || framework_failure_
    opts=$(dd_xfer_opts_ $method $direct)
    ours_accepts_ mnt dd $opts || continue
    # GNU dd has no methods: it is compared in its one way of copying.
    gnu_opts=
    test $direct = direct && gnu_opts='iflag=direct oflag=direct'

    for blocks in $dd_block_sizes; do
      blocks=$(echo "$blocks" | tr , ' ')
      what="dd $opts $blocks"
      rm -f mnt/out || framework_failure_
      run_as_ gnu timeout 60 dd $gnu_opts if=big of=mnt/out $blocks
      rm -f mnt/out || framework_failure_
      run_as_ ours timeout 60 dd $opts if=big of=mnt/out $blocks
      compare_sides_ "$what"
      check_no_crash_ "$what" $(cat ours.rc)
      test "$(cat ours.rc)" = 1 || { echo "$what: exit $(cat ours.rc)"; fail=1; }
      case $blocks in
        *seek=*) ;;
        *) is_prefix_ mnt/out big \
             || { echo "$what: the partial copy has wrong bytes"; fail=1; } ;;
      esac
    done
  done
done

Exit $fail
