#!/bin/sh
# mpicp's --stats add up what every rank copied, to what our cp counts
# for the same tree, and then say how the work was spread: a third
# line naming the ranks that copied the fewest and the most bytes and
# files, and a fourth giving each rank's busy seconds and the times its
# asking for work was answered with some; or in JSON a "ranks" member
# listing each rank's bytes and files, which add up to the totals, and
# its busy seconds, no more than the copy's, and steals.  On 1, 2 and 4 ranks, with
# subtrees given away, and on 2 with -L, where rank 0 walks alone.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_mpicp_
perl -MJSON::PP -e 1 2> /dev/null || skip_ "no perl with JSON::PP"
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

# Subdirectories to give away, files copied whole, and a file split
# into ranges.
mkdir -p fix/tree/a/b fix/tree/c || framework_failure_
for d in fix/tree fix/tree/a fix/tree/a/b fix/tree/c; do
  for i in 1 2 3 4 5 6; do
    head -c $((i * 1000)) /dev/urandom > $d/f$i || framework_failure_
  done
done
head -c 3M /dev/urandom > fix/tree/big || framework_failure_

# The totals of human statistics: the bytes, then the files.
totals_ ()
{
  sed -n 's/^\([0-9]*\) bytes .*/\1/p; s/^\([0-9]*\) files*,.*/\1/p'
}

cp --stats -a fix/tree cp-copy 2> cp.err || fail=1
totals_ < cp.err > cp.n || framework_failure_
test "$(wc -l < cp.n)" = 2 || { cat cp.err; framework_failure_; }

# check_json_ N FILE: FILE is one valid JSON object whose "ranks" lists
# ranks 0 to N - 1, in order, with bytes and files that add up to the
# totals; print the totals as totals_ does.
check_json_ ()
{
  perl -MJSON::PP -e '
    my ($n, $file) = @ARGV;
    open my $fh, "<", $file or die "$file: $!\n";
    my @lines = <$fh>;
    @lines == 1 or die "$file: not one line\n";
    my $s = decode_json ($lines[0]);
    my $r = $s->{ranks};
    ref $r eq "ARRAY" && @$r == $n or die "$file: not $n ranks\n";
    my ($bytes, $files) = (0, 0);
    for my $i (0 .. $n - 1)
      {
        $r->[$i]{rank} == $i or die "$file: rank $i is $r->[$i]{rank}\n";
        0 <= $r->[$i]{busy_seconds}
          && $r->[$i]{busy_seconds} <= $s->{seconds}
          or die "$file: rank $i busy $r->[$i]{busy_seconds} s\n";
        $r->[$i]{steals} =~ /^[0-9]+$/
          or die "$file: rank $i stole $r->[$i]{steals} times\n";
        $bytes += $r->[$i]{bytes};
        $files += $r->[$i]{files};
      }
    $bytes == $s->{bytes} or die "$file: ranks copied $bytes bytes\n";
    $files == $s->{files} or die "$file: ranks copied $files files\n";
    print "$s->{bytes}\n$s->{files}\n";' "$1" "$2"
}

# check_human_ N FILE: FILE is four lines, the third naming N ranks and
# only ranks below N, the fourth each of ranks 0 to N - 1 in order.
check_human_ ()
{
  size='[0-9.]+ [kMGTPEZYRQ]?B'
  rank='\(rank [0-9]+\)'
  re="^ranks: $1, bytes per rank: min $size $rank, max $size $rank;"
  re="$re files per rank: min [0-9]+ $rank, max [0-9]+ $rank\$"
  test "$(wc -l < "$2")" = 4 && sed -n 3p "$2" | grep -E "$re" > /dev/null \
    || { echo "$2: no balance line for $1 ranks:"; cat "$2"; return 1; }
  re='busy seconds, steals per rank:'
  i=0
  while test $i -lt $1; do
    test $i = 0 || re="$re;"
    re="$re $i: [0-9]+\.[0-9]{2}, [0-9]+"
    i=$((i + 1))
  done
  sed -n 4p "$2" | grep -E "^$re\$" > /dev/null \
    || { echo "$2: no line of busy times for $1 ranks:"; cat "$2"; return 1; }
  for r in $(sed -n '3s/[^(]*(rank \([0-9]*\))/\1 /gp' "$2"); do
    test "$r" -lt "$1" || { echo "$2: rank $r of $1"; return 1; }
  done
}

for n in 1 2 4; do
  mpirun_ $n mpicp --stats -a fix/tree human-$n 2> human-$n.err || fail=1
  check_human_ $n human-$n.err || fail=1
  totals_ < human-$n.err > human-$n.n || framework_failure_
  compare cp.n human-$n.n || fail=1

  mpirun_ $n mpicp --stats=json -a fix/tree json-$n 2> json-$n.err || fail=1
  check_json_ $n json-$n.err > json-$n.n || fail=1
  compare cp.n json-$n.n || fail=1
done

mpirun_ 2 mpicp --stats=json -aL fix/tree json-L 2> json-L.err || fail=1
check_json_ 2 json-L.err > json-L.n || fail=1
compare cp.n json-L.n || fail=1

Exit $fail
