#!/bin/sh
# A source that shrinks or grows while dd copies it gives a clean error
# or a consistent copy, never a crash (SIGBUS with mmap), with every
# I/O method and direct mode.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_

resize_during_copy_ dd

Exit $fail
