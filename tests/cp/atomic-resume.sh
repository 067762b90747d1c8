#!/bin/sh
# cp --atomic --resume: what an interrupted --atomic run left in its
# temporary file is continued there, then renamed over the old file; a
# complete copy is kept in place, with no temporary file; a copy that a
# run without --atomic cut short, or a leftover that is not a copy, is
# copied whole aside.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
. "$srcdir/tests/cp/resume-helpers.sh"
require_faultshim_

MiB=1048576
size=5000000
mkdir src dst || framework_failure_
head -c $size /dev/urandom > src/f || framework_failure_
touch -d '2001-02-03 04:05:06.5' src/f || framework_failure_
echo old > dst/f && ln dst/f old-link || framework_failure_

# resumed_ NAME WANT-MIN-SKIPPED OPTS...: copy src/f to dst/NAME with
# --atomic --resume and OPTS; the copy must equal the source, no
# temporary file be left, and at least WANT-MIN-SKIPPED bytes have been
# kept, the rest copied.
resumed_ ()
{
  name_=$1 min_=$2
  shift 2
  cp -a --atomic --resume --stats "$@" src/f dst/$name_ 2> err \
    || { cat err; fail=1; }
  cmp src/f dst/$name_ || { echo "$name_: the copy differs"; fail=1; }
  test "$(stat -c %Y.%y src/f)" = "$(stat -c %Y.%y dst/$name_)" \
    || { echo "$name_: times differ"; fail=1; }
  test -e dst/.$name_.cpdd-part && { echo "$name_: temporary left"; fail=1; }
  skipped_=$(stat_figure_ skipped err)
  copied_=$(stat_figure_ copied err)
  test "$skipped_" -ge "$min_" \
    || { echo "$name_: skipped $skipped_ < $min_"; cat err; fail=1; }
  test $((skipped_ + copied_)) = $size \
    || { echo "$name_: skipped $skipped_ + copied $copied_"; cat err; fail=1; }
}

# A run killed mid-file leaves the old file whole under its name and
# the data so far in the temporary file, which the next run continues.
kill_at_ 3500000 '*/.f.cpdd-part' cp -a --atomic --io-method=read --buffer-size=256K src/f dst/f
test -s dst/.f.cpdd-part || { echo 'no temporary file left'; fail=1; }
compare old-link dst/f || fail=1
resumed_ f $((2 * MiB))
test "$copied_" -le $((size - 2 * MiB)) || fail=1
# The rename replaced the file: its other name keeps the old data.
echo old > exp && compare exp old-link || fail=1

# Complete: kept in place, nothing copied, no temporary made.
ino=$(stat -c %i dst/f) || framework_failure_
resumed_ f $size
test "$(stat -c %i dst/f)" = "$ino" || { echo 'complete copy replaced'; fail=1; }

# Cut short by a run without --atomic: not continued in place, where a
# reader may open it, but copied whole aside.
head -c 2000000 src/f > dst/g || framework_failure_
ino=$(stat -c %i dst/g) || framework_failure_
resumed_ g 0
test "$skipped_" = 0 || fail=1
test "$(stat -c %i dst/g)" = "$ino" && { echo 'cut copy written in place'; fail=1; }

# A leftover that is not a copy of the source is filled anew.
head -c 3000000 /dev/urandom > dst/.h.cpdd-part || framework_failure_
resumed_ h 0
test "$skipped_" = 0 || fail=1

# With workers, which decide how to finish the files handed to them.
head -c 3000000 src/f > dst/.j.cpdd-part || framework_failure_
resumed_ j $((2 * MiB)) --jobs=2

Exit $fail
