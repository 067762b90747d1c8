#!/bin/sh
# --help lists the same options as GNU cp's, in the same order, and
# describes them in cpdd's own words.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

# GNU's --help marks option names up for a terminal unless TERM says
# it is a dumb one.
TERM=dumb
export TERM

# The short and long option of each option line, leaving out cpdd's
# own options: the engine's, --jobs and the checking ones.
options_ ()
{
  grep -E '^  (-[A-Za-z]|    --)' \
    | sed 's/^ *\(-[A-Za-z]\)\{0,1\}[, ]*\(--[a-z-]*\)\{0,1\}.*/\1 \2/' \
    | grep -v -e '--buffer-size' -e '--direct' -e '--io-method' \
        -e '--progress' -e '--stats' -e '--uncached' -e '--jobs' \
        -e '--fsync' -e '--atomic' -e '--hash-file' -e '--print-hash' -e '--verify' \
        -e '--resume' -e '--report' -e '--failed'
}
"$gnu_dir_/cp" --help | options_ > exp || framework_failure_
cp --help | options_ > out || fail=1
compare exp out || fail=1
test $(wc -l < exp) -ge 30 || framework_failure_

# No line of text is GNU's, but for the synopsis and blank lines.
"$gnu_dir_/cp" --help > gnu-help || framework_failure_
cp --help > our-help || fail=1
grep -Fx -f gnu-help our-help | grep -v -e '^$' -e '^Usage: ' -e '^  or: ' \
  > shared
compare /dev/null shared || fail=1

Exit $fail
