#!/bin/sh
# The size grammar of dd's operands: a unit letter with a 'B' that
# means bytes ("2cB", "2wB", "2bB"), the 'x' product of any number of
# factors, each with its own unit and 'B', the R and Q units too big
# for any operand, a zero factor that makes a product of overflowing
# ones fit, with a warning for each factor written "0x", and "Value
# too large" whenever a last unit overflowed, even in an otherwise
# malformed number.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
printf 0123456789abcdefghijklmnopqrstuvwxyz > fix/in || framework_failure_

for unit in c w b; do
  for op in bs ibs obs; do
    diff_run_ $op-2${unit}B dd if=in of=out $op=2${unit}B
  done
  diff_run_ cbs-2${unit}B dd if=in of=out cbs=2${unit}B conv=block
  for op in count skip seek; do
    diff_run_ $op-2${unit}B dd if=in of=out bs=3 $op=2${unit}B
    diff_run_ $op-2${unit}Bx3 dd if=in of=out bs=3 $op=2${unit}Bx3
    diff_run_ $op-1${unit}Bx0 dd if=in of=out bs=3 $op=1${unit}Bx0
    diff_run_ $op-2x3${unit}B dd if=in of=out bs=3 $op=2x3${unit}B
  done
  diff_run_ count-${unit}B dd if=in of=out bs=3 count=${unit}B
  diff_run_ count-2${unit}BB dd if=in of=out bs=3 count=2${unit}BB
  diff_run_ count-2${unit}iB dd if=in of=out bs=3 count=2${unit}iB
  diff_run_ count-2${unit}D dd if=in of=out bs=3 count=2${unit}D
done

for val in 1kBx2kB 1KiBx2 1KiBx2KiB 1Bx1kB 1Bx1k 1cBx1c 1cBx1cB 1kBx1B \
           1kBBx2 1x2Bx3; do
  diff_run_ count-$val dd if=in of=out bs=3 count=$val
  diff_run_ bs-$val dd if=in of=out count=1 bs=$val
done

for val in 2x3x4 2x3x4x5 1kx1kx1k 2Bx3x4 2x3Bx4 2x3x4B 2x3KBx4 2x3xKB \
           1Bx2B 1Bx2KB 1KBx2B 2xk 2xB 2x3xB 1x2BxB 2xx3 2x; do
  diff_run_ count-$val dd if=in of=out bs=3 count=$val
  diff_run_ seek-$val dd if=in of=out bs=3 seek=$val
done

for val in 1Yi 1YBB 1YBx1B 1ZiBB 1ZBBx2 1Yix0 1x2Yi 1x1YB \
           1R 1Q 1Ri 1QiB 1RB 1Rfoo 1Qx 1Rx0 3x1Qx0 1Qxfoo 0x1Rfoo \
           9223372036854775808foo 9223372036854775808xfoo 1Yxfoo \
           4x4611686018427387904 4x4611686018427387904x0 \
           0x0x3 2x0x3 00x0x3 0x3x0 2x00x3 0x0x1Y 0x0xfoo 2x+0x3; do
  diff_run_ count-$val dd if=in of=out bs=3 count=$val
  diff_run_ obs-$val dd if=in of=out obs=$val
done

Exit $fail
