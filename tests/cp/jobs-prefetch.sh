#!/bin/sh
# cp --jobs asks for the data of the files that wait for a worker
# (POSIX_FADV_WILLNEED), so that a tree that is not cached has more
# than one read per worker in flight; not for files found cached, and
# never with --uncached or direct
# I/O, which keep the data out of the page cache, nor from tmpfs, whose
# files are in memory.  The descriptors of
# the waiting files must not starve a deep copy under a low limit.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"

mkdir src src/sub || framework_failure_
for f in 1 2 3 4 5 6 7 8 9 10; do
  echo "file $f" > src/f$f || framework_failure_
  head -c 70000 /dev/zero > src/sub/g$f || framework_failure_
done
: > src/empty || framework_failure_

# How many files "cp -a --jobs=2 OPTIONS... src DEST" asked the data
# of, from strace's record (of fadvise64, or fadvise64_64 as a 32-bit
# program calls it).
willneed_count ()
{
  dest=$1
  shift
  strace_ -f -o trace-$dest -e trace=/fadvise64,preadv2 \
    cp -a --jobs=2 "$@" src $dest 2> err-$dest || return 1
  grep -c 'POSIX_FADV_WILLNEED' trace-$dest
  :
}

# Drop the data of the source's files from the page cache; false if it
# cannot be told that they are out (no fincore, or a file system that
# keeps them, as tmpfs does).
drop_source ()
{
  command -v fincore > /dev/null 2>&1 || return 1
  sync
  for f in src/f* src/sub/g*; do
    dd if=$f iflag=nocache count=0 status=none || return 1
    test "$(fincore -n -b -o RES $f)" -eq 0 || return 1
  done
}

if emulated_; then
  echo "under the emulator ($emulated_machine_), strace would trace it:" \
       "the advice is not checked"
elif strace -o /dev/null true 2>/dev/null; then
  # Cached, the files need not be read ahead, where preadv2 can tell
  # (not in a build without it, which asks for all).  Another test may drop
  # the whole page cache meanwhile (the benchmark tests' cold runs): a
  # copy that asked is tried again, the files read again first, and
  # one of three must ask for none.
  want=0
  cpdd_has_ HAVE_PREADV2 || want=20
  for try in 1 2 3; do
    cat src/f* src/sub/g* > /dev/null || framework_failure_
    rm -rf hot || framework_failure_
    n=$(willneed_count hot) || fail=1
    diff -r src hot || fail=1
    test "$n" = $want && break
  done
  test "$n" = $want \
    || { echo "asked for the data of $n cached files, not $want"; fail=1; }

  # Uncached, every file is asked for; as above, a try may meet a file
  # that something else brought back into the cache meanwhile.
  if drop_source; then
    for try in 1 2 3; do
      rm -rf all || framework_failure_
      n=$(willneed_count all) || fail=1
      diff -r src all || fail=1
      test "$n" = 20 && break
      drop_source || break
    done
    test "$n" = 20 \
      || { echo "asked for the data of $n files, not 20"; fail=1; }
  else
    echo "the files cannot be dropped from the cache: no cold case"
  fi

  n=$(willneed_count uncached --uncached) || fail=1
  diff -r src uncached || fail=1
  test "$n" = 0 \
    || { echo "asked for data with --uncached: $n times"; fail=1; }

  # Direct I/O may be refused here; the advice is checked if it was not.
  if n=$(willneed_count direct --direct); then
    test "$n" = 0 \
      || { echo "asked for data with --direct: $n times"; fail=1; }
  fi

  # tmpfs cannot say whether a read would wait (RWF_NOWAIT), and needs
  # no reading ahead: neither is asked.
  if make_fs_ tmpfs mem; then
    cp -a src mem/src && cd mem || framework_failure_
    n=$(willneed_count copy) || fail=1
    diff -r src copy || fail=1
    test "$n" = 0 \
      || { echo "asked for data on tmpfs: $n times"; fail=1; }
    grep -c 'preadv2(' trace-copy > probes
    test "$(cat probes)" = 0 \
      || { echo "probed the cache on tmpfs: $(cat probes) times"; fail=1; }
    cd .. || framework_failure_
  fi
else
  echo "strace cannot trace here: the advice is not checked"
fi

# A chain of 300 directories with two files on each level, copied by
# four workers under a limit of 100 descriptors: the walkers, the
# directories waiting for their attributes and the waiting files
# share what the limit allows.
perl -e '
  my ($top, $depth) = @ARGV;
  mkdir $top or die "$top: $!\n";
  chdir $top or die "$top: $!\n";
  for my $i (1 .. $depth)
    {
      for my $f ("a", "b")
        {
          open my $fh, ">", $f or die "$f: $!\n";
          print $fh "$i$f\n";
          close $fh or die "$f: $!\n";
        }
      mkdir "d", 0750 or die "mkdir: $!\n";
      chdir "d" or die "chdir: $!\n";
    }
' deep 300 || framework_failure_
(ulimit -n 100 && cp -a --jobs=4 deep deep-copy) 2> err || fail=1
compare /dev/null err || fail=1
diff -r deep deep-copy || fail=1

Exit $fail
