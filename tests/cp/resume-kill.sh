#!/bin/sh
# A tree copy killed with SIGKILL, or stopped by a full disk, in the
# middle of a file, is finished by the same command with --resume: the
# tree is then the source's, every attribute and hard link included,
# and the part of the file copied before is not copied again.  With
# one job, and with two copying a large file in ranges at once.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
. "$srcdir/tests/cp/resume-helpers.sh"
require_faultshim_

resume_tree_ src
MiB=1048576
# Ranges of 1 MiB, so that the 5 MB file is copied in five at once.
CPDD_CHUNK_SIZE=$MiB
export CPDD_CHUNK_SIZE

for opts in -a '-a --jobs=2' '-pR --jobs=3'; do
  rm -rf dst ref
  cp $opts -T src ref || framework_failure_
  kill_at_ 2500000 '*/dst/big' cp $opts -T src dst
  test -f dst/big || { echo "$opts: nothing of big copied"; fail=1; continue; }
  cmp -s src/big dst/big && { echo "$opts: big copied whole"; fail=1; }
  # What was there before, less at most a MiB at the end of each
  # stretch written, is kept.
  had=$(du -B1 --apparent-size -s dst | cut -f1)
  cp $opts -T --resume --stats src dst 2> err || { cat err; fail=1; }
  same_tree_ ref dst || { echo "$opts: not an uninterrupted copy"; fail=1; }
  skipped=$(stat_figure_ skipped err)
  # With one job, big's first 2.5 MB were written in order before the
  # kill.  With more, the other ranges may or may not have been copied
  # by then, as the threads were scheduled: nothing more is sure.
  case $opts in
    *--jobs*) min=0 ;;
    *) min=$((2500000 / MiB * MiB)) ;;
  esac
  test "$skipped" -ge $min \
    || { echo "$opts: skipped $skipped of $had"; cat err; fail=1; }
  copied=$(stat_figure_ copied err)
  total=$(du -B1 --apparent-size -s ref | cut -f1)
  test "$copied" -le $((total - skipped)) || { cat err; fail=1; }

  # Resumed again, nothing is copied.
  cp $opts -T --resume --stats src dst 2> err || { cat err; fail=1; }
  test "$(stat_figure_ copied err)" = 0 || { cat err; fail=1; }
  same_tree_ ref dst || fail=1
done

# -u keeps a copy cut short, as it is newer than its source; with
# --resume, it is finished: whether cut short or full size with holes.
rm -rf ref && cp -a -T src ref || framework_failure_
for opts in -a '-a --jobs=2'; do
  rm -rf dst
  kill_at_ 2500000 '*/dst/big' cp $opts -T src dst
  cp $opts -u -T src dst || fail=1
  cmp -s src/big dst/big && { echo "$opts -u: big finished"; fail=1; }
  cp $opts -u -T --resume src dst || fail=1
  same_tree_ ref dst || { echo "$opts -u --resume: not finished"; fail=1; }
done

# A full disk at 2.5 MB of big, then room again.
rm -rf dst
with_faults_ FAULT_OP=$rel_write_ops_ FAULT_FD_PATH='*/dst/big' \
  FAULT_AT=2500000 FAULT_LEN=100000000 FAULT_MODE=enospc \
  FAULT_DISABLE=copy_file_range -- cp -a -T src dst 2> err && fail=1
grep 'No space left' err > /dev/null || { cat err; fail=1; }
cp -a -T --resume --stats src dst 2> err || { cat err; fail=1; }
same_tree_ src dst || fail=1
test "$(stat_figure_ skipped err)" -ge $((2 * MiB)) || { cat err; fail=1; }

Exit $fail
