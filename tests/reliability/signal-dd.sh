#!/bin/sh
# SIGTERM in the middle of a copy ends dd as it ends GNU dd: the same
# statistics (none), exit status and output file, with every I/O method
# and direct mode.  SIGINT and SIGUSR1 have their own tests.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ dd
require_faultshim_

head -c 1000000 /dev/urandom > src || framework_failure_
dd_signals=${dd_signals-TERM}

for sig in $dd_signals; do
  for direct in $rel_directs_; do
    gnu_opts=
    test $direct = direct && gnu_opts='iflag=direct oflag=direct'
    signal_mid_copy_ gnu $sig dd $gnu_opts if=src of=dst bs=64k
    mv dst dst.gnu || framework_failure_
    for method in $rel_dd_methods_; do
      opts=$(dd_xfer_opts_ $method $direct)
      ours_accepts_ . dd $opts || continue
      what="dd $opts, SIG$sig"
      signal_mid_copy_ ours $sig dd $opts if=src of=dst bs=64k
      compare_sides_ "$what"
      cmp dst.gnu dst || { echo "$what: the output differs from GNU's"; fail=1; }
    done
  done
done

Exit $fail
