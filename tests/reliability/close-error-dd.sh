#!/bin/sh
# A failure to close the output (EIO or ENOSPC, as NFS reports delayed
# write errors) or the input makes dd say so as GNU dd does, statistics
# and exit status included, with every I/O method and direct mode.

# An error that only close reports (NFS reports delayed write errors
# so) must not be lost.  GNU dd closes input and output before its
# statistics and says
#   dd: closing output file 'dst': Input/output error
# (or "closing input file 'src'") with exit status 1 and no statistics.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ dd
require_faultshim_

head -c 100000 /dev/urandom > src || framework_failure_

# dd opens its files on descriptors 0 and 1.  With those closed, each
# file is opened straight onto its descriptor, and the only close the
# fault can hit is the last one; close-open-dd.sh tests the other case.
dd_std_fds=${dd_std_fds-closed}

run_close_ ()
{
  rc_side_=$1; shift
  if test $rc_side_ = ours; then rc_dir_=$ours_dir_; else rc_dir_=$gnu_dir_; fi
  rm -f dst || framework_failure_
  if test $dd_std_fds = closed; then
    ( PATH="$rc_dir_:$PATH" && export PATH && "$@" <&- >&- ) 2> $rc_side_.err
  else
    ( PATH="$rc_dir_:$PATH" && export PATH && "$@" ) \
      < /dev/null > /dev/null 2> $rc_side_.err
  fi
  echo $? > $rc_side_.rc
  : > $rc_side_.out
  mask_dd_times_ < $rc_side_.err > $rc_side_.err-t \
    && mv $rc_side_.err-t $rc_side_.err
}

for method in $rel_dd_methods_; do
  for direct in $rel_directs_; do
    opts=$(dd_xfer_opts_ $method $direct)
    gnu_opts=
    test $direct = direct && gnu_opts='iflag=direct oflag=direct'
    ours_accepts_ . dd $opts || continue
    for fault in dst,eio dst,enospc src,eio; do
      file=${fault%,*} mode=${fault#*,}
      what="dd $opts with $mode closing $file"
      for side in gnu ours; do
        test $side = ours && o=$opts || o=$gnu_opts
        run_close_ $side with_faults_ FAULT_OP=close FAULT_FD_PATH="*/$file" \
          FAULT_MODE=$mode -- timeout 60 dd $o if=src of=dst bs=4096
      done
      compare_sides_ "$what"
      check_no_crash_ "$what" $(cat ours.rc)
    done
  done
done

Exit $fail
