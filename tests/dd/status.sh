#!/bin/sh
# status=none, noxfer and progress (the last symbol of a list wins),
# invalid levels, and the truncated record count in the report.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 5000 /dev/urandom > fix/in || framework_failure_
printf 'a\nbb\nccc\n' > fix/lines || framework_failure_
# Input that stops for over a second once dd has written its first two
# bytes to "out", then gives one byte: dd has run over a second when it
# reads it, and ends at the next read, so it draws one line however
# late a loaded machine runs either side.  Timed from its own start,
# the pause could end less than a second after a late dd's start (no
# line), and two bytes at its end gave a second line when they came
# over two seconds after it.
cat > fix/slow <<'EOS' || framework_failure_
printf ab
i=0
until test "$(stat -c %s out 2>/dev/null)" = 2; do
  i=$((i + 1))
  test $i -le 6000 || exit 1
  sleep .1
done
sleep 1.2
printf c
EOS

diff_run_ none dd if=in of=out status=none
diff_run_ noxfer dd if=in of=out status=noxfer
diff_run_ progress-fast dd if=in of=out status=progress
diff_run_ last-wins dd if=in of=out status=none,noxfer
diff_run_ empty-level dd if=in of=out status=
diff_run_ bad-in-list dd if=in of=out status=progress,x
diff_run_ truncated-one dd if=lines of=out conv=block cbs=2
diff_run_ truncated-many dd if=lines of=out conv=block cbs=1
diff_run_ one-byte dd if=in of=out count=1 bs=1

# A slow input gives one progress line, redrawn with a carriage return
# and ended by a newline before the final report.
for side in ours gnu; do
  if test $side = ours; then d=$ours_dir_; else d=$gnu_dir_; fi
  rm -f out || framework_failure_
  sh fix/slow | "$d/dd" status=progress bs=1 of=out 2> err.$side \
    || fail=1
  tr '\r' '\n' < err.$side | sed 's,^.*dd:,dd:,' | mask_dd_times_ \
    | sed 's/copied, [0-9]* s, .*/copied, T s, R B\/s/' > mask.$side \
    || framework_failure_
done
compare mask.gnu mask.ours || fail=1
test "$(tr -cd '\r' < err.ours | wc -c)" = 1 || fail=1

Exit $fail
