#!/bin/sh
# A tree deeper than PATH_MAX (5,000 levels of 200-byte names) is copied
# whole, with a handful of descriptors, where GNU cp 9.10 gives up with
# "File name too long".

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
perl -e 1 || skip_ "perl is needed"
# cp raises its stack limit to grow its stack into it, as the kernel
# lets a main thread do; qemu-user allocates the stack once, at the
# size of the limit at start, so the guard against overflow is wrong.
skip_if_emulated_ "its stack does not grow with the stack limit"

depth=5000

# Make, or check, a chain of DEPTH directories below $1 with a file at
# the bottom, by descending one level at a time, as no name for the
# bottom would be short enough.
perl -e '
  my ($top, $depth) = @ARGV;
  my $name = "d" x 200;
  mkdir $top or die "$top: $!\n";
  chdir $top or die "$top: $!\n";
  for (1 .. $depth)
    {
      mkdir $name, 0750 or die "mkdir: $!\n";
      chdir $name or die "chdir: $!\n";
    }
  open my $f, ">", "leaf" or die "leaf: $!\n";
  print $f "bottom\n";
  close $f or die "leaf: $!\n";
' src $depth || framework_failure_
touch -d 2001-01-01 src || framework_failure_

check_copy ()
{
  perl -e '
    my ($top, $depth) = @ARGV;
    my $name = "d" x 200;
    chdir $top or die "$top: $!\n";
    for my $level (1 .. $depth)
      {
        opendir my $d, "." or die "level $level: $!\n";
        my @entries = grep { !/^\.\.?$/ } readdir $d;
        "@entries" eq $name or die "level $level holds @entries\n";
        my $mode = (lstat $name)[2] & 07777;
        $mode == 0750 or die sprintf "level %d: mode %o\n", $level, $mode;
        chdir $name or die "level $level: $!\n";
      }
    open my $f, "<", "leaf" or die "leaf: $!\n";
    <$f> eq "bottom\n" or die "leaf: wrong data\n";
  ' "$1" $depth
}

# Few descriptors are to be had: the walk must give back and take again
# those of the directories high up, and still copy everything.
(ulimit -n 40 && cp -a src dst) > out 2> err || { cat err; fail=1; }
compare /dev/null out || fail=1
compare /dev/null err || fail=1
check_copy dst || fail=1
test "$(stat -c %Y dst)" = "$(stat -c %Y src)" \
  || { echo "the top directory's time was not kept"; fail=1; }

# And with plenty of them, into an existing directory.
mkdir into || framework_failure_
cp -R src into > out 2> err || { cat err; fail=1; }
compare /dev/null err || fail=1
check_copy into/src || fail=1

# With too little stack to be had for the whole depth, the copy stops
# at a level it has no room for, with a message, instead of crashing.
(ulimit -s 2048 && cp -R src small) > out 2> err
status=$?
test $status = 1 || { echo "too little stack: exit status $status"; fail=1; }
grep '^cp: cannot copy .*: directories nested too deeply$' err > /dev/null \
  || { echo "too little stack: no message"; fail=1; }
test "$(wc -l < err)" = 1 || { echo "too little stack: more said"; fail=1; }

Exit $fail
