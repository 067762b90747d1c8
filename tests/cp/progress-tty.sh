#!/bin/sh
# cp --progress in a real terminal: cp runs in a tmux pane of 80
# columns, and the test reads the screen (capture-pane) at states it
# waits for.  The copies go into FIFOs that the test reads at its own
# pace, so that they last as long as it wants: the line is drawn on one
# row and redrawn there, with a percentage that is near the bytes the
# test has read, never goes down and ends at 100, and a time left; a
# diagnostic in the middle of the copy gets a row of its own, the line
# going on below it; the line is wiped at the end.  With standard
# error not a terminal, --progress draws nothing; a copy shorter than
# a second draws nothing either.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/cp/tmux-helpers.sh"

command -v tmux > /dev/null || skip_ "tmux is not installed"
mkfifo go || skip_ "cannot make a FIFO"

size=3000000
total_re='6\.0 MB'
head -c $size /dev/urandom > a || framework_failure_
head -c $size /dev/urandom > b || framework_failure_
: > c || framework_failure_
mkdir x dst || framework_failure_
mkfifo dst/a dst/b dst/c || framework_failure_
exec 4<> dst/a 5<> dst/b || framework_failure_

cr=$(printf '\r')

# The screen, and its rows that are not blank.
screen_ ()
{
  tmux_ capture-pane -p > screen || framework_failure_
  grep -n -v '^ *$' screen > rows
}

# The progress line as it must look on the screen, with the total known.
line_re="^[0-9.]+ [kM]?B of $total_re \\([0-9]+%\\) written to cache in"
line_re="$line_re [0-9]+:[0-9][0-9]:[0-9][0-9](, ETA [0-9]+:[0-9][0-9]:[0-9][0-9])?"
line_re="$line_re, [0-9.]+ [kM]?B/s *\$"

last_pct=-1 last_line=
# look_ FD: read a page more of the copy held on FD, but never its last
# ones, which a test gone wrong would wait for in vain; then look at
# the screen, and at its progress line if it changed: one that fits a
# row, a percentage that does not go down and is within 3 points of
# the bytes the test has read.
look_ ()
{
  test $(stat -c %s got) -lt $((size - 10000)) \
    && fifo_ dd bs=4096 count=1 iflag=fullblock <&$1 >> got 2> /dev/null
  screen_
  line=$(grep '%' rows | tail -n 1 | sed 's/^[0-9]*://')
  test -n "$line" && test "$line" != "$last_line" || return 0
  last_line=$line
  printf '%s\n' "$line" >> seen
  printf '%s\n' "$line" | grep -E "$line_re" > /dev/null \
    || { echo "not a progress line: $line"; fail=1; }
  test ${#line} -lt 80 || { echo "wider than the pane: $line"; fail=1; }
  pct=$(printf '%s\n' "$line" | sed 's/.* (\([0-9]*\)%) .*/\1/')
  test $pct -ge $last_pct || { echo "down from $last_pct: $line"; fail=1; }
  last_pct=$pct
  read=$(($(stat -c %s got) + done_before))
  off=$((pct - read * 100 / (2 * size)))
  test $off -le 3 && test $off -ge -3 \
    || { echo "$read bytes read, but: $line"; fail=1; }
}
shows_ () { look_ $1; grep -E "$2" rows > /dev/null; }

: > got && : > seen || framework_failure_
done_before=0
pane_ 80 'cp --progress --io-method=read --buffer-size=4K a x b c dst'

# The first lines: one row, redrawn in place, with the time left.
wait_until_ 600 shows_ 4 '%.*, ETA ' \
  || { echo "no progress line"; cat screen; fail=1; }
test $(wc -l < rows) = 1 || { echo "not one row:"; cat screen; fail=1; }
first_row=$(cut -d: -f1 rows)
first=$last_line
wait_until_ 600 eval 'look_ 4; test "$last_line" != "$first"' \
  || { echo "never redrawn"; fail=1; }
test "$(cut -d: -f1 rows)" = "$first_row" \
  || { echo "redrawn on another row:"; cat screen; fail=1; }
test $(wc -l < rows) = 1 || { echo "not one row:"; cat screen; fail=1; }

# The rest of a, then the diagnostic about x, then b under it.
fifo_ head -c $((size - $(stat -c %s got))) <&4 > /dev/null || framework_failure_
done_before=$size && : > got || framework_failure_
diag="cp: -r not specified; omitting directory 'x'"
wait_until_ 600 eval 'shows_ 5 "^2:.*%" && grep -F "1:$diag" rows > /dev/null' \
  || { echo "no line below the diagnostic:"; cat screen; fail=1; }
printf '%s\n' "1:$diag" > exp
head -n 1 rows > got-row
compare exp got-row || fail=1
test $(wc -l < rows) = 2 || { echo "garbled:"; cat screen; fail=1; }
# Nothing but carriage returns came before the diagnostic.
head -n 1 raw | grep -F "$diag" > /dev/null \
  || { echo "a new line before the diagnostic"; fail=1; }

# All of b: the work is done, and shown at 100% while cp waits to
# open the FIFO dst/c, which no one reads yet.
fifo_ head -c $((size - $(stat -c %s got))) <&5 > /dev/null || framework_failure_
: > got || framework_failure_
wait_until_ 600 eval 'screen_; grep "^2:.*(100%)" rows > /dev/null' \
  || { echo "never at 100%:"; cat screen; fail=1; }
exec 6<> dst/c || framework_failure_
wait_until_ 600 test -s rc || { echo "cp never ended"; fail=1; }
screen_
# The count of files not copied, as stderr is a terminal, takes the
# row of the line, which it overwrites whole only if the line was wiped.
printf '%s\n' "1:$diag" "2:cp: 1 of 4 files were not copied" > exp
compare exp rows || { echo "the line was not wiped"; fail=1; }
test "$(cat rc)" = 1 || { echo "exit status $(cat rc)"; fail=1; }
exec 4>&- 5>&- 6>&-

# Standard error not a terminal: nothing drawn, though the copy lasts
# longer than a second, as the line SIGUSR1 asks for tells, and goes
# on after that.
rm -rf dst && mkdir dst && mkfifo dst/a || framework_failure_
exec 4<> dst/a || framework_failure_
: > got && done_before=0 || framework_failure_
rm -f pid || framework_failure_
pane_ 80 "sh -c 'echo \$\$ > pid && exec cp --progress --io-method=read \
  --buffer-size=4K a dst' 2> err"
# A page read first shows that cp runs its copy, and so has set its
# handler of SIGUSR1, whose default action would kill it.
usr1_ ()
{
  test -s pid \
    && fifo_ dd bs=4096 count=1 iflag=fullblock <&4 >> got 2> /dev/null \
    && kill -USR1 $(cat pid)
  sed -n 's/.* copied, \([0-9.e+-]*\) s, .*/\1/p' err 2> /dev/null \
    | tail -n 1 \
    | awk '$1 >= 1 { ok = 1 } END { exit !ok }'
}
wait_until_ 600 usr1_ || { echo "no line a second in"; fail=1; }
fifo_ dd bs=4096 count=1 iflag=fullblock <&4 >> got 2> /dev/null
fifo_ head -c $((size - $(stat -c %s got))) <&4 > /dev/null || framework_failure_
wait_until_ 600 test -s rc || { echo "cp never ended"; fail=1; }
exec 4>&-
grep "$cr" err && { echo "drawn with stderr not a terminal"; fail=1; }
screen_
test -s rows && { echo "drawn on the screen:"; cat screen; fail=1; }

# A copy shorter than a second: nothing drawn, where --stats says it
# was that short.
pane_ 80 'cp --progress --stats=json a a.copy'
wait_until_ 600 test -s rc || { echo "cp never ended"; fail=1; }
secs=$(sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p' raw)
if test -n "$secs" && awk "BEGIN { exit !($secs < 1) }"; then
  sed "s/$cr\$//" raw | grep "$cr" \
    && { echo "a short copy drew a line"; fail=1; }
fi
cmp a a.copy || fail=1

Exit $fail
