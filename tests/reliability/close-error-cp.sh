#!/bin/sh
# A failure to close the destination (EIO or ENOSPC, as NFS reports
# delayed write errors) or the source makes cp say so as GNU cp does and
# exit 1, with every I/O method and direct mode.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp
require_faultshim_

head -c 100000 /dev/urandom > src || framework_failure_

for method in $rel_methods_; do
  for direct in $rel_directs_; do
    opts=$(cp_xfer_opts_ $method $direct)
    ours_accepts_ . cp $opts || continue
    for fault in dst,eio dst,enospc src,eio; do
      file=${fault%,*} mode=${fault#*,}
      what="cp $opts with $mode closing $file"
      for side in gnu ours; do
        test $side = ours && o=$opts || o=
        rm -f dst || framework_failure_
        run_as_ $side with_faults_ FAULT_OP=close FAULT_FD_PATH="*/$file" \
          FAULT_MODE=$mode -- timeout 60 cp $o src dst
      done
      compare_sides_ "$what"
      check_no_crash_ "$what" $(cat ours.rc)
    done
  done
done

Exit $fail
