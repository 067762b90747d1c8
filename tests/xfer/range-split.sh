#!/bin/sh
# A file's copy split into ranges and merged back (range-split.c): the
# edge cases of the split, and of merging outcomes out of order with a
# range failing in the middle, whose diagnostics come out once each.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./tests/xfer

range-split > failed 2> err || fail=1
compare /dev/null failed || fail=1

cat > exp <<'EOF_EXP' || framework_failure_
range-split: warning: the same
range-split: warning: another
range-split: range 2 failed
EOF_EXP
compare exp err || fail=1

Exit $fail
