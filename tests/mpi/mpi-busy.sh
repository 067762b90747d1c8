#!/bin/sh
# When every other rank has as many files waiting as it may, rank 0
# copies the next file of its walk itself, instead of waiting for a
# rank to be free: rank 1 copies slowly (the shim makes each of its
# writes wait), and of a directory of 20 small files rank 1 gets a few
# and rank 0 copies the others, as its statistics say.

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
  -x FAULT_MODE=slow -x FAULT_SLEEP_MS=200 \
  -x FAULT_DISABLE=copy_file_range,sendfile -x FAULT_LOG="$PWD/fault.log" \
  mpicp -r --io-method=read --stats=json d copy > out 2> err || fail=1
diff -r d copy || fail=1
compare /dev/null out || fail=1
test -s fault.log || { echo "rank 1 never wrote slowly"; fail=1; }

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
