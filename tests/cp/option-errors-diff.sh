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
diff_run_ no-clobber-and-backup cp -n -b a new
diff_run_ backup-and-update-none cp -b --update=none a new
diff_run_ backup-and-update-none-fail cp --update=none-fail -S x a new
diff_run_ backup-none-and-no-clobber cp --backup=none -n a new
diff_run_ backup-bad-and-no-clobber cp -n --backup=bogus a new
diff_run_ backup-update-then-u cp -b --update=none -u a new
diff_run_ backup-no-clobber-then-i cp -b -n -i a new
diff_run_ backup-i-then-no-clobber cp -b -i -n a new
diff_run_ backup-none-fail-then-all cp -b --update=none-fail --update=all a new
diff_run_ links-before-backup cp -b -n -l -s a new
diff_run_ backup-before-reflink cp --reflink=always --sparse=never -b -n a new
diff_run_ update-bad cp --update=bogus a new
diff_run_ update-empty cp --update= a new
diff_run_ update-ambiguous cp --update=non a new
diff_run_ update-case cp --update=NONE a new
diff_run_ update-bad-first cp -b -n -l -s --update=x a new
diff_run_ u-takes-no-arg cp -u=none a new
diff_run_ update-separate-arg cp --update older a new
diff_run_ keep-takes-no-arg cp --keep-directory-symlink=yes a new
diff_run_ debug-takes-no-arg cp --debug=yes a new
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
