#!/bin/sh
# Short reads and writes make dd count full and partial records exactly
# as GNU dd does (and iflag=fullblock make them full again), with every
# I/O method and direct mode.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ dd
require_faultshim_

head -c 1000000 /dev/urandom > src || framework_failure_

# run_short_ SIDE READ-OR-WRITE DD-ARG...: the copy, output in dst.SIDE.
run_short_ ()
{
  rs_side_=$1 rs_end_=$2; shift 2
  rm -f dst || framework_failure_
  fault_run_ $rs_side_ $rs_end_ '*/dst' FAULT_MODE=short FAULT_AT=303104 -- "$@"
  mv dst dst.$rs_side_ 2>/dev/null || : > dst.$rs_side_
}

for method in $rel_dd_methods_; do
  for direct in $rel_directs_; do
    # The record sizes here are deliberately not multiples of the
    # direct-I/O alignment, so GNU dd refuses direct I/O with them too;
    # dd's direct mode is tested in tests/dd/.
    test $direct = direct && continue
    opts=$(dd_xfer_opts_ $method $direct)
    for flags in '' iflag=fullblock; do
      ours_accepts_ . dd $opts $flags || continue
      for blocks in bs=64k ibs=4096,obs=10000; do
        blocks=$(echo $blocks | tr , ' ')
        for end in read write; do
          what="dd $opts $flags $blocks with short ${end}s"
          dd_versus_gnu_ run_short_ $end "$what" $method "$opts" \
            if=src of=dst $flags $blocks
        done
      done
    done
  done
done

Exit $fail
