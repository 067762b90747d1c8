#!/bin/sh
# --help, --version and unknown options count wherever they stand
# among the operands, and '--' ends the options, as with GNU dd; with
# POSIXLY_CORRECT, options stop at the first operand.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
printf 'some data\n' > fix/in || framework_failure_

# Our help and version texts are our own: compare which one is shown,
# by its usage or license line, with the exit status and the rest.
shown_='dd "$@" > o; s=$?; grep -e "^Usage: dd " -e "^License" o; rm o; exit $s'

diff_run_ help-after sh -c "$shown_" sh if=in --help
diff_run_ help-between sh -c "$shown_" sh if=in --help of=out
diff_run_ version-after sh -c "$shown_" sh if=in of=out --version
diff_run_ unknown-long-after dd if=in --bogus
diff_run_ unknown-short-after dd if=in -x
diff_run_ dashdash dd if=in -- of=out
diff_run_ dashdash-last dd if=in of=out --
diff_run_ dashdash-help dd if=in -- --help
diff_run_ posix-help-after env POSIXLY_CORRECT=1 dd if=in --help
diff_run_ posix-help-first env POSIXLY_CORRECT=1 sh -c "$shown_" sh \
  --help if=in

Exit $fail
