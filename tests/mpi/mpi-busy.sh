#!/bin/sh
# When every other rank has as many files waiting as it may, rank 0
# copies the next file of its walk itself, instead of waiting for a
# rank to be free: rank 1's first write waits (the shim pauses it)
# until a file that rank 0 copied is whole, so that rank 1 answers for
# none of the files it was sent meanwhile, and of a directory of 20
# small files rank 1 gets a few and rank 0 copies the others, as its
# statistics say.  Were rank 0 to wait for rank 1 instead, the job
# would not end before the shim gives up the pause.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
require_faultshim_
perl -MJSON::PP -e 1 2> /dev/null || skip_ "no perl with JSON::PP"

# A directory with no subdirectory, so that no rank is given a subtree:
# every file rank 0 does not copy is one it sent.
mkdir d || framework_failure_
for i in $(seq 20); do
  echo "file $i" > d/f$i || framework_failure_
done

rm -f fault.log || framework_failure_
mpirun_ 2 -x LD_PRELOAD="$faultshim_" -x FAULT_RANK=1 \
  -x FAULT_OP=$rel_write_ops_ -x FAULT_FD_PATH='*/copy/f*' \
  -x FAULT_MODE=pause -x FAULT_FLAG="$PWD/paused" \
  -x FAULT_DISABLE=copy_file_range,sendfile -x FAULT_LOG="$PWD/fault.log" \
  mpicp -r --io-method=read --stats=json d copy > out 2> err &
job=$!

# Whether a file of the copy is whole: rank 1, paused before its first
# write, has written none.
one_whole_ ()
{
  for f in $(seq 20); do
    cmp -s d/f$f copy/f$f && return
  done
  return 1
}
paused_and_whole_ () { test -e paused && one_whole_; }
whole_or_ended_ () { paused_and_whole_ || process_ended_ $job; }
wait_until_ 300 whole_or_ended_ || { echo "rank 0 copied nothing"; fail=1; }
paused_and_whole_ || { echo "rank 1 did not pause while rank 0 copied"; fail=1; }
rm -f paused || framework_failure_
wait $job || fail=1
diff -r d copy || fail=1
compare /dev/null out || fail=1
test -s fault.log || { echo "rank 1 never wrote"; fail=1; }

# The files each rank copied, as "rank 0: N, rank 1: N".
perl -MJSON::PP -ne '
  my $s = JSON::PP->new->decode($_);
  print join (", ", map { "rank $_->{rank}: $_->{files}" } @{$s->{ranks}}),
    "\n"' err > files || { cat err; fail=1; }
read -r balance < files
case $balance in
  "rank 0: "[1-9]*", rank 1: "[1-9]*) ;;
  *) echo "files per rank: $balance"; fail=1 ;;
esac

Exit $fail
