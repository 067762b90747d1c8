#!/bin/sh
# Files of awkward sizes copy byte for byte on the work file system
# with every --io-method and every --direct mode.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

mkdir d || framework_failure_
. "$abs_srcdir/tests/xfer/matrix.sh" d

Exit $fail
