#!/bin/sh
# iflag=mmap (a cpdd extension) reads the input through mmap windows and
# gives the same output file and the same report as GNU dd reading it
# with read; inputs that cannot be mapped are read the ordinary way.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

# Larger than one 8 MiB window, and not a multiple of any block size.
head -c 20000001 /dev/urandom > in || framework_failure_

for args in 'bs=1M' 'ibs=1000 obs=3000' 'bs=999 count=10000' \
            'bs=4096 skip=3000' 'bs=1M conv=ucase' 'bs=7 count=3 skip=1'; do
  rm -f out.gnu out.ours
  "$gnu_dir_/dd" if=in of=out.gnu $args 2> err.gnu || framework_failure_
  dd iflag=mmap if=in of=out.ours $args 2> err.ours \
    || { echo "failed: $args"; fail=1; }
  cmp out.gnu out.ours || { echo "output differs: $args"; fail=1; }
  mask_dd_times_ < err.gnu | sed "s,^$gnu_dir_/dd:,dd:," > exp
  mask_dd_times_ < err.ours > got
  compare exp got || { echo "report differs: $args"; fail=1; }
done

# With iflag=direct the input is read, not mapped, so direct I/O's rules
# apply as they do to GNU dd: a record size it refuses is an error.
for args in 'bs=1M' 'bs=3000'; do
  returns_ $("$gnu_dir_/dd" if=in of=out.gnu iflag=direct $args 2> err.gnu;
             echo $?) dd if=in of=out.ours iflag=mmap,direct $args 2> err.ours \
    || { echo "exit status differs: iflag=mmap,direct $args"; fail=1; }
  mask_dd_times_ < err.gnu | sed "s,^$gnu_dir_/dd:,dd:," > exp
  mask_dd_times_ < err.ours > got
  compare exp got || { echo "report differs: iflag=mmap,direct $args"; fail=1; }
  cmp out.gnu out.ours || { echo "output differs: iflag=mmap,direct $args"; fail=1; }
done

# A pipe cannot be mapped: read it instead.
cat in | dd iflag=mmap of=out bs=1M status=none || fail=1
cmp in out || fail=1

# mmap is an input flag only.
returns_ 1 dd if=in of=out oflag=mmap 2> err || fail=1
printf '%s\n' "dd: invalid output flag: 'mmap'" \
  "Try 'dd --help' for more information." > exp
compare exp err || fail=1

Exit $fail
