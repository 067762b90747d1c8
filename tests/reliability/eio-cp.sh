#!/bin/sh
# An I/O error reading the source or writing the destination makes cp
# say so as GNU cp does, exit 1 and go on to the next file, with every
# I/O method and direct mode; never a damaged copy reported as success.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp
require_faultshim_

head -c 1000000 /dev/urandom > src || framework_failure_
printf 'small\n' > small || framework_failure_

# run_eio_ SIDE READ-OR-WRITE [FAULT_DISABLE=...] -- CMD...
run_eio_ ()
{
  re_side_=$1 re_end_=$2; shift 2
  rm -rf d && mkdir d || framework_failure_
  fault_run_ $re_side_ $re_end_ '*/d/src' FAULT_MODE=eio FAULT_AT=303104 "$@"
}

for method in $rel_methods_; do
  for direct in $rel_directs_; do
    opts=$(cp_xfer_opts_ $method $direct)
    ours_accepts_ . cp $opts || continue
    for end in read write; do
      what="cp $opts with EIO on ${end}s"
      run_eio_ ours $end -- timeout 60 cp $opts src small d
      check_no_crash_ "$what" $(cat ours.rc)
      cmp small d/small || { echo "$what: the next file was not copied"; fail=1; }
      if ! test -s fault.log; then
        fault_not_met_ $method "$what"
        cmp src d/src || { echo "$what: the copy differs"; fail=1; }
        continue
      fi
      test "$(cat ours.rc)" = 1 \
        || { echo "$what: exit $(cat ours.rc) after an I/O error"; fail=1; }
      mv ours.rc ours.rc-keep && mv ours.err ours.err-keep \
        && mv ours.out ours.out-keep || framework_failure_

      # GNU cp copies with read and write when copy_file_range is not
      # there; otherwise its message names both files.  The methods
      # that may offload the copy may say either.
      run_eio_ gnu $end FAULT_DISABLE=copy_file_range -- timeout 60 cp src small d
      for f in rc err out; do mv ours.$f-keep ours.$f || framework_failure_; done
      case $method in
        read|mmap) compare_sides_ "$what" ;;
        *) if ! (fail=0; compare_sides_ "$what" >/dev/null 2>&1
                 test $fail = 0); then
             run_eio_ gnu $end -- timeout 60 cp src small d
             compare_sides_ "$what"
           fi ;;
      esac
    done
  done
done

Exit $fail
