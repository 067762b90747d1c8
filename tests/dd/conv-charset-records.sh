#!/bin/sh
# With cbs=, conv=ascii also turns records into lines (unblock), and
# conv=ebcdic and conv=ibm turn lines into records (block), as in GNU
# dd; asking for the opposite record conversion is refused, while
# without cbs= neither applies.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
# EBCDIC records with trailing spaces (0x40), then every byte value once.
{ printf '\301\302\100\100\303\100\100\100' \
    && printf "$(printf '\\%03o' $(seq 0 255))"; } > fix/ebcdic \
  || framework_failure_
printf 'ab\nlonger line\n\nx' > fix/lines || framework_failure_

for cbs in 1 4 8 300; do
  diff_run_ ascii-cbs$cbs dd if=ebcdic of=out conv=ascii cbs=$cbs
done
diff_run_ ascii-lcase dd if=ebcdic of=out conv=ascii,lcase cbs=4 ibs=3 obs=7
diff_run_ ascii-sync dd if=ebcdic of=out conv=ascii,sync cbs=4 ibs=5
for conv in ebcdic ibm ebcdic,ucase ibm,lcase; do
  diff_run_ $conv-cbs dd if=lines of=out conv=$conv cbs=5
  diff_run_ $conv-whole-file dd if=ebcdic of=out conv=$conv cbs=6
done
diff_run_ ascii-no-cbs dd if=ebcdic of=out conv=ascii
diff_run_ ebcdic-no-cbs dd if=lines of=out conv=ebcdic

# The implied conversion counts as given: its opposite is refused, but
# only where cbs= makes either apply.
diff_run_ ascii-block dd if=ebcdic of=out conv=ascii,block cbs=4
diff_run_ ascii-then-block dd if=ebcdic of=out conv=ascii cbs=4 conv=block
diff_run_ ebcdic-unblock dd if=lines of=out conv=ebcdic,unblock cbs=4
diff_run_ ibm-unblock dd if=lines of=out cbs=4 conv=unblock,ibm
diff_run_ ascii-block-no-cbs dd if=ebcdic of=out conv=ascii,block
diff_run_ ibm-unblock-no-cbs dd if=lines of=out conv=ibm,unblock
diff_run_ ascii-unblock dd if=ebcdic of=out conv=ascii,unblock cbs=4
diff_run_ ebcdic-block dd if=lines of=out conv=ebcdic,block cbs=4

Exit $fail
