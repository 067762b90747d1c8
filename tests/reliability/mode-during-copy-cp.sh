#!/bin/sh
# While cp copies, a new destination never has permission bits that
# its final mode (the source's, as GNU cp gives it) denies, so no one
# can open it in the meantime; with every I/O method and direct mode.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp
require_faultshim_

umask 022
head -c 1000000 /dev/urandom > src || framework_failure_

for mode in 600 640 700 604; do
  chmod $mode src || framework_failure_
  "$gnu_dir_/cp" src gnu-dst || framework_failure_
  final=$(stat -c %a gnu-dst) || framework_failure_
  rm -f gnu-dst || framework_failure_
  for method in $rel_methods_; do
    for direct in $rel_directs_; do
      opts=$(cp_xfer_opts_ $method $direct)
      ours_accepts_ . cp $opts || continue
      what="cp $opts of a mode $mode file"
      stalled_run_ ours 'stat -c %a dst > during' cp $opts src dst
      test "$(cat ours.rc)" = 0 || { echo "$what: exit $(cat ours.rc)"; fail=1; }
      during=$(cat during)
      # The bits set while copying, less those of the final mode.
      extra=$(printf '%o' $((0$during & ~0$final)))
      test "$extra" = 0 \
        || { echo "$what: mode $during while copying, $final after"; fail=1; }
      test "$(stat -c %a dst)" = $final \
        || { echo "$what: final mode $(stat -c %a dst), not $final"; fail=1; }
    done
  done
done

Exit $fail
