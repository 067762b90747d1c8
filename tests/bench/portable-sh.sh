#!/bin/sh
# cpdd-bench must run under any POSIX shell (Solaris's included): it
# parses with dash, and shellcheck finds nothing in it as sh.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./bench

prog=$(command -v cpdd-bench) || framework_failure_
ran=

if command -v dash > /dev/null; then
  dash -n "$prog" || { echo "dash cannot parse cpdd-bench"; fail=1; }
  ran="$ran dash"
fi
if command -v shellcheck > /dev/null; then
  shellcheck -s sh "$prog" || { echo "shellcheck -s sh complains"; fail=1; }
  ran="$ran shellcheck"
fi
if command -v checkbashisms > /dev/null; then
  # -f: its re-exec under a POSIX shell (for Solaris) makes it look
  # like a wrapper, of which only the start would be checked.
  checkbashisms -f "$prog" || { echo "checkbashisms complains"; fail=1; }
  ran="$ran checkbashisms"
fi
test -n "$ran" || skip_ "none of dash, shellcheck, checkbashisms is here"
echo "checked with:$ran"

Exit $fail
