#!/bin/sh
# cp -a --progress on a real tree (/usr/include, /usr/lib/python3 and
# /usr/share/perl5, those that are here) and one file of 2 GiB, in a
# tmux pane, serial and with --jobs=2, from a hot cache and (as root) a
# cold one.  The fault shim holds the copy still at points the test
# names: at the start, then with the large file half copied, then
# nearly all.  At each, once the line shows the same percentage on two
# redraws, that percentage is compared with the bytes the copy's files
# really hold (their sizes, or their blocks where fewer), within 5
# points.  Over the whole copy, as tmux logged it, the percentage starts
# below 10, never goes down, ends at 100, and each line short of 100
# tells the time left; once a line has shown a percentage, none shows
# only the least the total can be.  CPDD_PROGRESS_BIG_MIB sets the large file's
# size in MiB (2048), and CPDD_PROGRESS_COLD=no leaves out the cold
# runs: the CI's other builds, the same code again, run it so.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
. "$srcdir/tests/cp/tmux-helpers.sh"
require_faultshim_

command -v tmux > /dev/null || skip_ "tmux is not installed"
parts=
for part in /usr/include /usr/lib/python3 /usr/share/perl5; do
  test -d $part && parts="$parts $part"
done
test -n "$parts" || skip_ "none of the real tree's parts is here"
big_mib=${CPDD_PROGRESS_BIG_MIB-2048}

mkdir t-src || framework_failure_
cp -a $parts t-src/ 2> /dev/null
yes 'a line of the large file, not all zeros' | head -c ${big_mib}M \
  > t-src/big || framework_failure_
test $(stat -c %s t-src/big) = $((big_mib * 1048576)) || framework_failure_

# copied_ DIR: the bytes of DIR's regular files, each once however many
# names it has: its size, or the bytes of its blocks where fewer, as in
# a file copied in ranges, which has its size before its data.
copied_ ()
{
  find "$1" -type f -printf '%i %s %b\n' 2> /dev/null |
    awk '!seen[$1]++ { b = $3 * 512; s += ($2 < b ? $2 : b) }
         END { printf "%.0f\n", s }'
}
total=$(copied_ t-src)

mkfifo go || skip_ "cannot make a FIFO"

# held_pane_ ARG...: run cp -a --progress ARG... in a pane of 100
# columns, under the fault shim's hold.
held_pane_ ()
{
  pane_ 100 "LD_PRELOAD='$faultshim_' FAULT_OP=$rel_read_ops_,$rel_write_ops_ \\
FAULT_FD_PATH='*/t-*' FAULT_MODE=hold FAULT_FLAG='$PWD/held' \\
FAULT_SLEEP_MS=10 cp -a --progress $*"
}

# The progress line on the screen: the last row that is not blank.
line_ ()
{
  tmux_ capture-pane -p > screen || framework_failure_
  grep -v '^ *$' screen | tail -n 1
}

# settled_: whether the line was redrawn with the same percentage as
# the time before, set in PCT: the copy is held, or moves by less than
# a point a second.
last_pct= last_clock=
settled_ ()
{
  sl_line=$(line_)
  sl_pct=$(printf '%s\n' "$sl_line" | sed -n 's/.* (\([0-9]*\)%) .*/\1/p')
  sl_clock=$(printf '%s\n' "$sl_line" | sed -n 's/.* in \([0-9:]*\).*/\1/p')
  test -n "$sl_pct" || return 1
  if test "$sl_pct" = "$last_pct" && test "$sl_clock" != "$last_clock"; then
    pct=$sl_pct
    return 0
  fi
  last_pct=$sl_pct last_clock=$sl_clock
  return 1
}

# sample_ WHAT DST AT: once the copy of big in DST holds AT bytes, where
# it is held, and the line settles, fail unless its percentage is
# within 5 points of the bytes in DST.
samples=0
reached_ () { test $(copied_ "$1") -ge $2; }
sample_ ()
{
  if ! wait_until_ 600 reached_ $2/big $3; then
    echo "$1: the copy of big never reached $3 bytes"; fail=1; return
  fi
  last_pct= last_clock=
  if ! wait_until_ 600 settled_; then
    echo "$1: the line never settled"; cat screen; fail=1; return
  fi
  sm_real=$(awk -v c=$(copied_ $2) -v t=$total 'BEGIN { print int (100 * c / t) }')
  echo "$1: the line says $pct%, $2 holds $sm_real%"
  test $((pct - sm_real)) -le 5 && test $((sm_real - pct)) -le 5 \
    || { echo "$1: off by more than 5 points"; cat screen; fail=1; }
  samples=$((samples + 1))
}

# check_lines_ WHAT: fail unless the lines tmux logged start below 10%,
# never go down, end at 100% and tell the time left short of 100%.
check_lines_ ()
{
  tr '\r' '\n' < raw | grep -v '^ *$' > all
  echo "$1: $(grep -c ' of >= ' all) lines before the total was counted"
  sed -n '/%/,$p' all | grep ' of >= ' && { echo "$1: a least total late"; fail=1; }
  grep ' ([0-9]*%) ' all > lines
  sed 's/.* (\([0-9]*\)%) .*/\1/' lines > percents
  test "$(head -n 1 percents)" -lt 10 \
    || { echo "$1: the first line is at $(head -n 1 percents)%"; fail=1; }
  awk 'NR > 1 && $1 < last { exit 1 } { last = $1 }' percents \
    || { echo "$1: a percentage went down"; cat lines; fail=1; }
  test "$(tail -n 1 percents)" = 100 \
    || { echo "$1: the last line is not at 100%"; cat lines; fail=1; }
  grep -v ' (100%) ' lines | grep -v ', ETA [0-9]*:[0-9][0-9]:[0-9][0-9]' \
    && { echo "$1: a line without the time left"; fail=1; }
  tail -c 1 raw | od -An -c | grep -F '\r' > /dev/null \
    || { echo "$1: the line was not wiped"; fail=1; }
}

big=$((big_mib * 1048576))
heats=hot
test "$(id -u)" = 0 && test -w /proc/sys/vm/drop_caches \
  && test "${CPDD_PROGRESS_COLD-yes}" != no && heats='hot cold'
n=0
for heat in $heats; do
  for jobs in 1 2; do
    n=$((n + 1)) what="$heat, --jobs=$jobs"
    echo 0 > held || framework_failure_
    if test $heat = cold; then
      sync && echo 3 > /proc/sys/vm/drop_caches || framework_failure_
    fi
    held_pane_ --jobs=$jobs t-src t-dst$n
    sample_ "$what, at the start" t-dst$n 0
    for at in $((big / 2)) $((big - big / 16)); do
      echo $at > held || framework_failure_
      sample_ "$what, big at $at" t-dst$n $at
    done
    rm -f held || framework_failure_
    wait_until_ 600 test -s rc || { echo "$what: cp never ended"; fail=1; }
    test "$(cat rc)" = 0 || { echo "$what: cp failed"; cat screen; fail=1; }
    check_lines_ "$what"
    cmp t-src/big t-dst$n/big || fail=1
    rm -rf t-dst$n || framework_failure_
  done
done
test $samples = $((3 * n)) || fail=1

Exit $fail
