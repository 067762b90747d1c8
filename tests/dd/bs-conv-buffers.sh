#!/bin/sh
# bs= writes each read as it comes only when no conversion looks at the
# data: block, unblock, lcase, ucase, ascii, ebcdic, ibm and swab keep
# input and output blocks apart, also block and unblock without cbs=,
# which then convert nothing.  The partial read warning, which is about
# bs= blocks, is then not given.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
printf 0123456789abcdefghijklmnopqrstuvwxyz > fix/in || framework_failure_
# The writer waits for the first read to take its first bytes alone.
slow_writer_ abc def > fix/slow || framework_failure_

# Output held until the input ends, so the copy onto itself stops.
diff_run_ self-block dd bs=200 conv=notrunc,block seek=2 if=in count=5 of=in
diff_run_ self-unblock dd bs=200 conv=notrunc,unblock seek=2 if=in count=5 \
  of=in

for conv in block unblock lcase ucase ascii ebcdic ibm swab sync sparse \
            noerror notrunc fsync block,sync unblock,sync block,swab; do
  diff_run_ pipe-$conv sh -c "sh slow | dd bs=4 conv=$conv count=3 > out"
  diff_run_ pipe-$conv-cbs \
    sh -c "sh slow | dd bs=4 conv=$conv cbs=2 count=3 > out"
done

Exit $fail
