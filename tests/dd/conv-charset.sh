#!/bin/sh
# conv=ascii, ebcdic, ibm, lcase and ucase translate all 256 byte values
# as GNU dd does, and ascii undoes ebcdic.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
perl -e 'print map chr, 0..255' > fix/all || framework_failure_

for conv in ascii ebcdic ibm lcase ucase ascii,lcase ascii,ucase \
            ebcdic,lcase ebcdic,ucase ibm,ucase ibm,lcase; do
  diff_run_ "conv-$conv" dd if=all of=out conv=$conv
done

# Round trips: EBCDIC is a permutation, so ascii inverts it exactly.
dd if=fix/all conv=ebcdic status=none | dd conv=ascii status=none > back \
  || fail=1
compare fix/all back || fail=1

Exit $fail
