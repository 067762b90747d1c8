#!/bin/sh
# cpdd-bench must run under any POSIX shell (Solaris's included): its
# entry point and every part it reads parse with dash, and shellcheck
# finds nothing in them as sh.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./bench

prog=$(command -v cpdd-bench) || framework_failure_
{ ls "$abs_srcdir"/bench/*.sh && echo "$prog"; } > files \
  || framework_failure_

# shellcheck and checkbashisms see one file at a time, and a part uses
# the variables and functions of the others: they get the program as
# one script, the parts and then the entry point, which calls into
# them (shellcheck wants functions defined before the calls it sees).
# map gives the line where each file starts in it, to name the file of
# a complaint.  The awk programs are in single quotes on purpose.
printf '#!/bin/sh\n# shellcheck disable=SC2016\n' > whole || framework_failure_
: > map || framework_failure_
while read -r f; do
  echo "$(($(wc -l < whole) + 1)) $f" >> map || framework_failure_
  cat "$f" >> whole || framework_failure_
done < files

# Print the messages of file $1, in the "FILE:LINE:..." form of
# shellcheck -f gcc, with the file and line they come from.
unwhole_ ()
{
  awk 'NR == FNR {
         start[++n] = $1; name[n] = substr($0, length($1) + 2); next
       }
       {
         split($0, f, ":")
         for (i = n; i > 1 && start[i] > f[2] + 0; i--)
           ;
         sub(/^[^:]*:[0-9]*:/, name[i] ":" (f[2] - start[i] + 1) ":")
         print
       }' map "$1"
}

ran=

if command -v dash > /dev/null; then
  while read -r f; do
    dash -n "$f" || { echo "dash cannot parse $f"; fail=1; }
  done < files
  ran="$ran dash"
fi
if command -v shellcheck > /dev/null; then
  shellcheck -s sh -f gcc whole > sc.out \
    || { unwhole_ sc.out; echo "shellcheck -s sh complains"; fail=1; }
  ran="$ran shellcheck"
fi
if command -v checkbashisms > /dev/null; then
  # -f: its re-exec under a POSIX shell (for Solaris) makes it look
  # like a wrapper, of which only the start would be checked.
  checkbashisms -f whole > cb.out 2>&1 \
    || { cat cb.out map; echo "checkbashisms complains"; fail=1; }
  ran="$ran checkbashisms"
fi
test -n "$ran" || skip_ "none of dash, shellcheck, checkbashisms is here"
echo "checked with:$ran"

Exit $fail
