#!/bin/sh
# With direct I/O, files of every size from 0 to three alignments plus
# one copy byte for byte: the aligned part goes direct, the tail through
# the page cache.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/xfer

echo x > probe || framework_failure_
xfer-copy --direct probe probe.out 2> err && test ! -s err \
  || skip_ "this file system does not do direct I/O"
# A one-byte buffer is rounded up to the alignment.
align=$(xfer-copy --debug --direct --buffer-size=1 probe probe.out \
        | sed -n 's/.*buffer size: \([0-9]*\),.*/\1/p')
test -n "$align" || framework_failure_

# Every size up to 3 * 512 + 1 for any alignment, and every size up
# to 3 * ALIGN + 1 when that is not many more.
max=$((3 * align + 1))
test $align -le 1024 || max=1537
sizes=$(seq 0 $max)
k=1
while test $k -le 3; do
  sizes="$sizes $((k * align - 1)) $((k * align)) $((k * align + 1))"
  k=$((k + 1))
done

# Make the inputs, slices of one random pool, in one process.
head -c $((3 * align + 1)) /dev/urandom > pool || framework_failure_
perl -e 'local $/; open P, "<", "pool" or die; my $p = <P>;
         for my $n (@ARGV) { open F, ">", "in.$n" or die;
                             print F substr ($p, 0, $n); close F or die }' \
  $sizes || framework_failure_

# Both ends direct, through the read loop; the mmap method's direct
# output shares the same writer and is covered by round-trip.sh.
pairs=
for n in $sizes; do pairs="$pairs in.$n out.$n"; done
xfer-copy --io-method=read --direct --buffer-size=$((2 * align)) \
  $pairs 2> err || fail=1
compare /dev/null err || fail=1
perl -e 'sub slurp { local $/; open my $f, "<", $_[0] or return "";
                     my $d = <$f>; defined $d ? $d : "" }
         my $bad = 0;
         for my $n (@ARGV)
           { -e "out.$n" && slurp ("in.$n") eq slurp ("out.$n")
               or print "size $n differs\n" and $bad = 1 }
         exit $bad' $sizes || fail=1

Exit $fail
