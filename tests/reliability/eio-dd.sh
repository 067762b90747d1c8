#!/bin/sh
# An I/O error reading or writing makes dd report, count and stop (or,
# with conv=noerror, go on) exactly as GNU dd does, output included,
# with every I/O method and direct mode.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ dd
require_faultshim_

# bs= makes dd write each block as read; ibs/obs make it reblock, which
# has its own test.
dd_block_sizes=${dd_block_sizes-'bs=64k bs=5000'}

head -c 1000000 /dev/urandom > src || framework_failure_

# run_eio_ SIDE READ-OR-WRITE DD-ARG...: the copy, output in dst.SIDE.
# Two bad spots: one inside a block, one across a block boundary.
run_eio_ ()
{
  re_side_=$1 re_end_=$2; shift 2
  rm -f dst || framework_failure_
  fault_run_ $re_side_ $re_end_ '*/dst' FAULT_MODE=eio FAULT_AT=303000 \
    FAULT_LEN=200000 -- "$@"
  mv dst dst.$re_side_ 2>/dev/null || : > dst.$re_side_
}

for method in $rel_dd_methods_; do
  for direct in $rel_directs_; do
    # The record sizes here are deliberately not multiples of the
    # direct-I/O alignment, so GNU dd refuses direct I/O with them too;
    # dd's direct mode is tested in tests/dd/.
    test $direct = direct && continue
    opts=$(dd_xfer_opts_ $method $direct)
    for convs in '' conv=noerror conv=noerror,sync; do
      ours_accepts_ . dd $opts $convs || continue
      for blocks in $dd_block_sizes; do
        blocks=$(echo $blocks | tr , ' ')
        for end in read write; do
          test $end = write && test -n "$convs" && continue
          what="dd $opts $convs $blocks with EIO on ${end}s"
          dd_versus_gnu_ run_eio_ $end "$what" $method "$opts" \
            if=src of=dst $convs $blocks
        done
      done
    done
  done
done

Exit $fail
