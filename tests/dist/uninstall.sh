#!/bin/sh
# "make uninstall" removes every file "make install" put in place.
. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/dist/install-helpers.sh"
require_build_makefile_

inst=$PWD/inst
for transform in 's,x,x,' 's/^/my-/'; do
  rm -rf "$inst" || framework_failure_
  dist_make_ install "$inst" "$transform" || { cat make-install.log; fail=1; }
  installed_files_ "$inst" > before || framework_failure_
  grep '/bin/' before > /dev/null || fail=1
  dist_make_ uninstall "$inst" "$transform" \
    || { cat make-uninstall.log; fail=1; }

  # Only the info directory file, shared with other packages, may stay,
  # and it must no longer list our entries.
  installed_files_ "$inst" > after || framework_failure_
  echo ./usr/local/share/info/dir > exp-dir || framework_failure_
  if test -s after; then
    compare exp-dir after || fail=1
    grep -i cpdd "$inst/usr/local/share/info/dir" && fail=1
  fi
done

Exit $fail
