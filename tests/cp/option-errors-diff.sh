#!/bin/sh
# Conflicting or malformed options are refused with GNU's messages.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix || framework_failure_
printf 'a\n' > fix/a || framework_failure_
mkdir fix/d || framework_failure_

diff_run_ link-and-symlink cp -ls a new
diff_run_ backup-and-no-clobber cp --backup -n a new
diff_run_ two-target-dirs cp -t d -t d a
diff_run_ missing-suffix-arg cp -S
diff_run_ unknown-short cp -K a new
diff_run_ parents-one-operand cp --parents a
diff_run_ no-operands-with-t cp -t d
diff_run_ missing-t-dir cp -t nodir a
diff_run_ no-preserve-needs-arg cp --no-preserve a new
# -t with -T is reported only after every other option error, and
# after a missing operand; a context to keep comes before all of them.
diff_run_ t-and-T-no-operand cp -t new -T
diff_run_ t-and-T-bad-backup cp -t d -T --backup=bogus a
diff_run_ t-and-T-reflink-sparse cp -t d -T --sparse=always --reflink=always a
diff_run_ t-and-T-context cp -t d -T --preserve=context a
diff_run_ context-no-operand cp --preserve=context
diff_run_ context-and-links cp -l -s --preserve=context a new
diff_run_ help-exit sh -c 'cp --help >/dev/null'
diff_run_ version-exit sh -c 'cp --version >/dev/null'

Exit $fail
