#!/bin/sh
# Short reads and writes (any call moving fewer bytes than asked) still give dd a
# byte-exact copy, with every I/O method and direct mode.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_

exact_under_fault_ dd short

Exit $fail
