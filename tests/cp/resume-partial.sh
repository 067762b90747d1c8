#!/bin/sh
# cp --resume keeps what an earlier run copied of a file and copies the
# rest: a copy cut short, one full size with holes (ranges copied at
# once), one whose last block was half written; it leaves a complete
# copy unwritten, and copies anew another file of the same name.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
. "$srcdir/tests/cp/resume-helpers.sh"
require_faultshim_

MiB=1048576
head -c 5000000 /dev/urandom > f || framework_failure_
touch -d '2001-02-03 04:05:06.5' f || framework_failure_

# resumed_ WANT-SKIPPED OPTS...: resume the copy of f into g with OPTS,
# which must end with g equal to f, having skipped WANT-SKIPPED bytes and
# copied the rest.
resumed_ ()
{
  want_=$1
  shift
  cp --resume --stats "$@" f g 2> err || { cat err; fail=1; }
  cmp f g || { echo "resume $*: the copy differs"; fail=1; }
  got_=$(stat_figure_ skipped err)
  test "$got_" = "$want_" \
    || { echo "resume $*: skipped $got_, not $want_"; cat err; fail=1; }
  got_=$(stat_figure_ copied err)
  test "$got_" = $((5000000 - want_)) \
    || { echo "resume $*: copied $got_"; cat err; fail=1; }
}

for p in -a -p ''; do
  # Cut short at 3500000 bytes, with a time of its own: the first three
  # MiB are kept, the half MiB before the cut is copied again.
  head -c 3500000 f > g || framework_failure_
  resumed_ $((3 * MiB)) $p
  test -z "$p" || test "$(stat -c %Y f)" = "$(stat -c %Y g)" || fail=1

  # Full size, with the ranges at 0 and 3 MiB copied (--jobs presizes
  # the file, each range starts at its own offset).
  rm -f g && truncate -s 5000000 g || framework_failure_
  dd if=f of=g bs=$MiB count=2 conv=notrunc status=none || framework_failure_
  dd if=f of=g bs=$MiB skip=3 seek=3 count=1 conv=notrunc status=none \
    || framework_failure_
  resumed_ $((3 * MiB)) $p

  # A range whose last write was cut in the middle of a block: zeros
  # where the data stops.
  rm -f g && truncate -s 5000000 g || framework_failure_
  head -c $((2 * MiB - 1000)) f | dd of=g conv=notrunc status=none \
    || framework_failure_
  resumed_ $MiB $p
done

# With workers, which decide themselves how to finish a file handed to
# them, too small to be split.
mkdir -p d e && cp -a f d/f && head -c 3500000 f > e/f || framework_failure_
cp -a --jobs=2 --resume --stats -T d e 2> err || { cat err; fail=1; }
cmp f e/f || fail=1
test "$(stat_figure_ skipped err)" = $((3 * MiB)) || { cat err; fail=1; }

# The JSON statistics count the bytes skipped too.
head -c 3500000 f > g || framework_failure_
cp -a --resume --stats=json f g 2> err || fail=1
grep '"bytes": 1854272, .*"bytes_skipped": 3145728}$' err > /dev/null \
  || { cat err; fail=1; }

# A complete copy is written to in no way: a write to it fails.
cp -a f g || framework_failure_
with_faults_ FAULT_OP=$rel_write_ops_,fdatasync,fsync FAULT_FD_PATH='*/g' \
  FAULT_MODE=eio -- cp -a --resume --stats f g 2> err || { cat err; fail=1; }
test "$(stat_figure_ skipped err)" = 5000000 || { cat err; fail=1; }
test "$(stat_figure_ copied err)" = 0 || { cat err; fail=1; }
# So is one found complete by its data, without times kept.
touch g || framework_failure_
with_faults_ FAULT_OP=$rel_write_ops_ FAULT_FD_PATH='*/g' FAULT_MODE=eio \
  -- cp --resume --stats f g 2> err || { cat err; fail=1; }
test "$(stat_figure_ skipped err)" = 5000000 || { cat err; fail=1; }

# Full size with the source's time, but with a hole where the source has
# data, as a power cut leaves data never written back: completed.
cp -a f g || framework_failure_
if fallocate -p -o $((2 * MiB)) -l $MiB g 2>/dev/null; then
  touch -d '2001-02-03 04:05:06.5' g || framework_failure_
  cmp f g > /dev/null 2>&1 && framework_failure_
  resumed_ $((5000000 - MiB)) -a
fi

# Another file of that name, as long, with other data and another time:
# copied whole, without -a too.
for p in -a ''; do
  head -c 5000000 /dev/urandom > g || framework_failure_
  resumed_ 0 $p
done

# Longer than the source: copied whole.
head -c 6000000 /dev/urandom > g || framework_failure_
resumed_ 0 -a

# A complete copy of a read-only file, which its owner may not open to
# write, is kept as it is, attributes set again.
as_user=$(unprivileged_runner_)
if test -n "$as_user"; then
  mkdir ro && cp f ro/f && chmod 444 ro/f || framework_failure_
  chmod go+rx . || framework_failure_
  test "$(id -u)" = 0 && { chown -R 65534:65534 ro || framework_failure_; }
  $as_user cp -a ro/f ro/g || fail=1
  $as_user cp -a --resume --stats ro/f ro/g 2> err || { cat err; fail=1; }
  test "$(stat_figure_ skipped err)" = 5000000 || { cat err; fail=1; }
  cmp ro/f ro/g || fail=1
fi

# A regular file's copy filled from a pipe is made anew: nothing tells
# how much of it came from the pipe before.
head -c 100 /dev/urandom > g || framework_failure_
printf 'piped\n' | cp --resume /dev/stdin g || fail=1
printf 'piped\n' > exp || framework_failure_
compare exp g || fail=1

# With --verify the copy is read back whole: a byte gone wrong in the
# part kept, which -a only samples where holes show, fails the copy;
# where the build cannot see holes, -a compares it all and copies that
# part again.
head -c 3500000 f > g || framework_failure_
printf x | dd of=g bs=1 seek=2000000 conv=notrunc status=none \
  || framework_failure_
if cp -a --resume --verify f g 2> err; then
  cmp f g || fail=1
  returns_ 1 grep . err || fail=1
else
  test $? = 1 || fail=1
  grep . err > /dev/null || fail=1
fi
head -c 3500000 f > g || framework_failure_
cp -a --resume --verify f g || fail=1
cmp f g || fail=1

Exit $fail
