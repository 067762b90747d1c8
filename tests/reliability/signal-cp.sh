#!/bin/sh
# SIGINT or SIGTERM in the middle of a copy kills cp as it kills GNU cp,
# leaving the partial destination (correct as far as it goes), with
# every I/O method and direct mode.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp
require_faultshim_

head -c 1000000 /dev/urandom > src || framework_failure_

for sig in INT TERM; do
  # GNU cp copies with read and write here, since the shim takes
  # copy_file_range away from it.
  signal_mid_copy_ gnu $sig cp src dst
  test -f dst || framework_failure_
  for method in $rel_methods_; do
    for direct in $rel_directs_; do
      opts=$(cp_xfer_opts_ $method $direct)
      ours_accepts_ . cp $opts || continue
      what="cp $opts, SIG$sig"
      signal_mid_copy_ ours $sig cp $opts src dst
      compare_sides_ "$what"
      test -f dst || { echo "$what: no partial destination"; fail=1; }
      is_prefix_ dst src || { echo "$what: the partial copy has wrong bytes"; fail=1; }
    done
  done
done

Exit $fail
