#!/bin/sh
# cp writes through a destination symlink to an existing file, and with
# --remove-destination replaces the link itself, as GNU cp does.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp

mkdir fix fix/d || framework_failure_
printf 'new\n' > fix/a || framework_failure_
printf 'old\n' > fix/t || framework_failure_
ln -s t fix/lnk && ln -s ../t fix/d/a && ln -s nowhere fix/dang \
  || framework_failure_

diff_run_ through-link cp a lnk
diff_run_ through-link-in-dir cp a d
if ours_has_option_ cp --remove-destination; then
  diff_run_ remove-link cp --remove-destination a lnk
  diff_run_ remove-dangling cp --remove-destination a dang
fi

Exit $fail
