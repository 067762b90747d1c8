#!/bin/sh
# A FIFO, device or socket reached by following links (-L everywhere,
# -H for an operand) is not put in place of an existing file: GNU cp
# fails with EEXIST and keeps the file, even with -f; only unlinking
# first (--remove-destination, --preserve=links onto a file with other
# links) or a backup makes room.  Not following (-r, -P, -H below the
# operands), the file is replaced.  Below the operands, -H follows no
# link, so a link there to the file it would replace is "the same
# file", not a copy that destroys it.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

require_root_
mkdir -p fix/d fix/e/d || framework_failure_
special_files_ fix fix/d
for f in fifo null sock d/fifo d/null d/sock; do
  printf 'keep %s\n' $f > fix/e/$f || framework_failure_
done
ln -s fifo fix/lfifo || framework_failure_
mkdir -p fix/s/t fix/dd/t && echo data > fix/dd/t/f \
  && ln -s ../../dd/t/f fix/s/t/f || framework_failure_

for o in -rL -rH -rLf -rHf -aL '-rL --attributes-only' '-rL -v' \
         '-rL --remove-destination' '-rL --backup=numbered' -r -rv -a; do
  t=$(echo "$o" | tr -d ' =')
  diff_run_ ops$t cp $o fifo null sock e/
  diff_run_ tree$t cp $o d e/
done
diff_run_ H-link cp -rH lfifo e/fifo
diff_run_ links sh -c 'ln e/fifo e/fifo2 && cp -rL --preserve=links fifo e/'
for o in -rHT -rHTf '-rHT --remove-destination' -rHTs; do
  t=$(echo "$o" | tr -d ' =')
  diff_run_ same$t cp $o s dd
done

Exit $fail
