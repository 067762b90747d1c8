#!/bin/sh
# Sizes and offsets past what 32 bits hold, where a 32-bit build would
# first go wrong: a sparse file of 5 GiB copied by cp with every I/O
# method, contents and holes kept; dd's seek= and skip= past 2^32
# blocks and byte offsets past 2^31, as GNU's dd does them; and
# --buffer-size values that do not fit the build's size_t refused.
# The files are sparse: a few blocks of data on disk.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

gib=1073741824
two31=2147483648
two32=4294967296

# put_ FILE OFFSET TEXT: write TEXT into FILE at OFFSET, as GNU's dd
# does it, so that what we test does not make the fixture.
put_ ()
{
  printf %s "$3" \
    | "$gnu_dir_/dd" of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# Data just past 2^31 and astride 2^32, then at the last byte: what a
# 32-bit offset would truncate lands somewhere else.
: > big || framework_failure_
truncate -s $((5 * gib)) big \
  && put_ big 0 head \
  && put_ big $((two31 + 1)) past-2^31 \
  && put_ big $((two32 - 3)) astride-2^32 \
  && put_ big $((5 * gib - 4)) tail \
  || skip_ "cannot make a sparse file of 5 GiB here"

blocks_ () { stat -c %b "$1"; }
test "$(blocks_ big)" -lt 1024 \
  || { rm -f big; skip_ "this file system does not keep holes"; }

# same_contents_ A B: whether files A and B hold the same bytes, read
# only where either has data (SEEK_DATA, SEEK_HOLE): cmp would read
# gigabytes of holes.  Where the system cannot tell, all is data.
same_contents_ ()
{
  perl -e '
    use strict;
    sub extents {
      my ($f) = @_;
      open my $fh, "<", $f or die "$f: $!\n";
      my $size = -s $fh;
      my @x;
      my $pos = 0;
      while ($pos < $size) {
        my $data = sysseek ($fh, $pos, 3);   # SEEK_DATA
        last unless defined $data;
        my $hole = sysseek ($fh, $data, 4);  # SEEK_HOLE
        $hole = $size unless defined $hole;
        push @x, [$data, $hole - $data];
        $pos = $hole;
      }
      @x = ([0, $size]) if !@x && $size && !defined sysseek ($fh, 0, 3)
                           && $!{EINVAL};
      return @x;
    }
    sub bytes {
      my ($f, $off, $len) = @_;
      open my $fh, "<", $f or die "$f: $!\n";
      sysseek ($fh, $off, 0) or die "$f: $!\n";
      my $buf = "";
      while (length $buf < $len) {
        my $n = sysread ($fh, $buf, $len - length $buf, length $buf);
        die "$f: $!\n" unless defined $n;
        last if $n == 0;
      }
      return $buf;
    }
    my ($a, $b) = @ARGV;
    exit 1 if -s $a != -s $b;
    for my $x (extents ($a), extents ($b)) {
      my ($off, $len) = @$x;
      for (my $o = $off; $o < $off + $len; $o += 1 << 20) {
        my $n = $off + $len - $o < 1 << 20 ? $off + $len - $o : 1 << 20;
        bytes ($a, $o, $n) eq bytes ($b, $o, $n)
          or do { print STDERR "$a and $b differ near byte $o\n"; exit 1 };
      }
    }
  ' "$1" "$2"
}

mmap=--io-method=mmap
if emulated_ \
   && test "$("${abs_top_builddir-$PWD/..}/tests/cross/probe" \
               mmap_high probe)" != yes; then
  echo "note: not copying with $mmap: the emulator ($emulated_machine_)" \
       "maps files past 4 GiB from the wrong offset"
  mmap=
fi
rm -f probe
for how in --io-method=auto --io-method=read $mmap \
           --io-method=offload "--io-method=read --sparse=always"; do
  rm -f copy || framework_failure_
  cp $how big copy || { echo "cp $how failed" >&2; fail=1; continue; }
  test "$(stat -c %s copy)" = $((5 * gib)) \
    || { echo "cp $how: wrong size" >&2; fail=1; }
  same_contents_ big copy || { echo "cp $how: contents differ" >&2; fail=1; }
  test "$(blocks_ copy)" -lt 1024 \
    || { echo "cp $how: holes were filled" >&2; fail=1; }
done

# dd_diff_ TAG OPERAND...: run GNU's dd and ours with OPERANDs, each
# writing TAG.SIDE where "of=OUT" is given, and compare what they print,
# their exit status, the output's size and its last 64 bytes, where the
# bytes written end: reading it whole would read gigabytes of holes.
dd_diff_ ()
{
  tag_=$1; shift
  for side_ in gnu ours; do
    if test $side_ = ours; then dir_=$ours_dir_; else dir_=$gnu_dir_; fi
    rm -f "$tag_.$side_" || framework_failure_
    args_=
    for a_; do
      case $a_ in of=OUT) a_=of=$tag_.$side_ ;; esac
      args_="$args_ $a_"
    done
    # shellcheck disable=SC2086
    PATH="$dir_:$PATH" dd $args_ > "$tag_.$side_.out" 2> "$tag_.$side_.err-t"
    echo $? > "$tag_.$side_.rc"
    mask_dd_times_ < "$tag_.$side_.err-t" > "$tag_.$side_.err" \
      || framework_failure_
    test $side_ = gnu || gnu_libc_words_ "$tag_.$side_.err"
  done
  for what_ in rc out err; do
    compare "$tag_.gnu.$what_" "$tag_.ours.$what_" \
      || { echo "$tag_: $what_ differs from GNU's for: dd $*" >&2; fail=1; }
  done
  if test -f "$tag_.gnu"; then
    size_=$(stat -c %s "$tag_.gnu") || framework_failure_
    test "$(stat -c %s "$tag_.ours" 2>/dev/null)" = "$size_" \
      || { echo "$tag_: output size differs from GNU's" >&2; fail=1; }
    from_=$((size_ > 64 ? size_ - 64 : 0))
    cmp -i $from_ "$tag_.gnu" "$tag_.ours" \
      || { echo "$tag_: output differs from GNU's" >&2; fail=1; }
  fi
}

# Past 2^32 blocks of one byte, both ways.
dd_diff_ seek-2-32-blocks if=big of=OUT bs=1 skip=$((two32 - 3)) \
  seek=$((two32 + 1)) count=12
dd_diff_ skip-2-32-blocks if=big bs=1 skip=$((two32 - 3)) count=12
dd_diff_ skip-end if=big bs=1 skip=$((5 * gib - 4))
dd_diff_ skip-beyond-end if=big bs=1 skip=$((5 * gib + 1))
# 2^32 blocks of 512 bytes are 2 TiB: the sparse output's end.
dd_diff_ seek-2-32-512-blocks if=big of=OUT bs=512 count=1 seek=$two32

# Byte offsets past 2^31 and 2^32 with larger blocks.
dd_diff_ skip-bytes-2-31 if=big bs=4096 count=1 iflag=skip_bytes \
  skip=$((two31 + 1))
dd_diff_ skip-bytes-2-32 if=big bs=4096 count=1 iflag=skip_bytes,count_bytes \
  skip=$((two32 - 3)) count=12
dd_diff_ seek-bytes-2-31 if=big of=OUT bs=4096 count=1 oflag=seek_bytes \
  skip=$((two31 + 1)) iflag=skip_bytes seek=$((two31 + 7))
dd_diff_ seek-bytes-2-32 if=big of=OUT bs=64K count=1 oflag=seek_bytes \
  seek=$((two32 + 5))

# --buffer-size: sizes that fit neither 32 nor 64 bits are refused
# alike by every build.  5 GiB is taken where size_t has 64 bits (the
# buffer is had only when data moves), and refused with the same
# message where it has 32, as is 2^32 exactly.
size_t_bytes=$(sed -n 's/^#define SIZEOF_SIZE_T //p' \
                 "$abs_top_builddir/config.h")
test -n "$size_t_bytes" || framework_failure_
printf 'x\n' > small || framework_failure_
for size in 18446744073709551616 9223372036854775808 5G 4294967296; do
  case $size_t_bytes:$size in
    8:5G | 8:4294967296)
      cp --io-method=offload --buffer-size=$size small copy-$size \
        || { echo "--buffer-size=$size refused" >&2; fail=1; }
      compare small copy-$size || fail=1 ;;
    *)
      printf "cp: invalid buffer size: '%s'\n" $size > exp || framework_failure_
      returns_ 1 cp --buffer-size=$size small copy-$size 2> err || fail=1
      compare exp err || fail=1
      test ! -e copy-$size || fail=1 ;;
  esac
done

Exit $fail
