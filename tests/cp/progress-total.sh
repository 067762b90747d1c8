#!/bin/sh
# The total of cp --progress=always's line, away from a terminal.  It
# is counted beside the copy, once that has run half a second (a
# shorter copy draws no line): until the count is over, the line shows
# the least the total can be and no percentage; then the percentage,
# which never goes down, and the time left, and the line that SIGUSR1
# asks for shows them too.  The work done is drawn at once as 100%.
# Files -n leaves as they are and bytes --resume finds copied leave
# the total, and a source named twice is in it once; --jobs=2 counts
# every worker's bytes; --verify counts the read-back.  mpicp's line is
# tests/mpi/mpi-progress.sh's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_

mkdir -p src/later t || framework_failure_
head -c 3000000 /dev/urandom > src/big || framework_failure_
head -c 1000000 /dev/urandom > src/later/small || framework_failure_
cp src/big src/later/small t/ || framework_failure_

# The lines of err, each drawn over the last after a carriage return,
# but the blank ones that wipe them.
lines_ () { tr '\r' '\n' < err | grep -v '^ *$' > lines; }
shows_ () { lines_; grep -E "$1" lines > /dev/null; }
shows_or_ended_ () { shows_ "$1" || process_ended_ $pid; }

# check_lines_ WHAT: fail unless the percentages of the lines never go
# down, the last line shows 100%, and the line was wiped at the end.
check_lines_ ()
{
  lines_
  sed -n 's/.* (\([0-9]*\)%) .*/\1/p' lines > percents
  awk 'NR > 1 && $1 < last { exit 1 } { last = $1 }' percents \
    || { echo "$1: a percentage went down"; cat lines; fail=1; }
  tail -n 1 lines | grep ' (100%) ' > /dev/null \
    || { echo "$1: the last line is not at 100%"; cat lines; fail=1; }
  tail -c 1 err | od -An -c | grep -F '\r' > /dev/null \
    || { echo "$1: the line was not wiped"; fail=1; }
}

# held_cp_ WHAT ARG...: run cp --progress=always ARG... in the
# background, its reads of the file $hold_path held back a byte at a
# time while the file "held" exists, from the offset $hold_at on; and
# return once a read is held, so that the copy cannot be over before
# the test lets it go.
hold_at=0 hold_path='*/src/big'
held_cp_ ()
{
  hc_what_=$1; shift
  touch held && rm -f holds || framework_failure_
  ( LD_PRELOAD=$faultshim_ FAULT_OP=$rel_read_ops_ FAULT_FD_PATH=$hold_path \
      FAULT_AT=$hold_at FAULT_MODE=hold FAULT_FLAG="$PWD/held" \
      FAULT_SLEEP_MS=10 FAULT_DISABLE=copy_file_range,sendfile \
      FAULT_LOG="$PWD/holds" \
    && export LD_PRELOAD FAULT_OP FAULT_FD_PATH FAULT_AT FAULT_MODE \
         FAULT_FLAG FAULT_SLEEP_MS FAULT_DISABLE FAULT_LOG \
    && exec cp --progress=always --io-method=read "$@" ) > out 2> err &
  pid=$!
  wait_until_ 600 held_or_ended_
  test -s holds || { echo "$hc_what_: no read was held"; fail=1; }
}
held_or_ended_ () { test -s holds || process_ended_ $pid; }

# let_go_ WHAT: end the hold once a line shows a percentage, and fail
# unless cp then succeeds.  What cp printed, and the reads held, tell
# why a copy ended before.
let_go_ ()
{
  wait_until_ 600 shows_or_ended_ ' \([0-9]+%\) ' \
    || { echo "$1: no percentage"; fail=1; }
  shows_ ' \([0-9]+%\) ' \
    || { echo "$1: cp ended with no percentage; its stderr, then the" \
              "last reads held:"; od -c err | tail -n 5
         tail -n 3 holds 2> /dev/null; fail=1; }
  rm -f held || framework_failure_
  wait $pid || { echo "$1: cp failed"; cat err; fail=1; }
}

# The count held in "later" while the copy of "big" goes on into a
# FIFO that the test reads at its own pace, a page at a time, so that
# it lasts as long as the test wants.
mkdir dst && mkfifo dst/big || skip_ "cannot make a FIFO"
exec 4<> dst/big || framework_failure_
( LD_PRELOAD=$faultshim_ FAULT_OP=opendir FAULT_MODE=pause \
    FAULT_FLAG="$PWD/counting" FAULT_FD_PATH='*/src/later' \
  && export LD_PRELOAD FAULT_OP FAULT_MODE FAULT_FLAG FAULT_FD_PATH \
  && exec cp -r --progress=always --io-method=read --buffer-size=4K \
       src/big src/later dst ) > out 2> err &
pid=$!
: > got || framework_failure_
# Read a page of the copy of big, but never the last ones, which a
# test that went wrong would wait for in vain.
read_page_ ()
{
  test $(stat -c %s got) -lt 2990000 || return 0
  fifo_ dd bs=4096 count=1 iflag=fullblock <&4 >> got 2> /dev/null
}
drawn_ () { read_page_; shows_ "$1"; }
# The count starts once the copy has run half a second.
counting_ () { read_page_; test -e counting; }
wait_until_ 600 counting_ || { echo "the count never paused"; fail=1; }
wait_until_ 600 drawn_ '^[0-9.]+ [kM]?B of >= 3\.0 MB written to cache in ' \
  || { echo "no line with the least total"; cat lines; fail=1; }
grep '%' lines && { echo "a percentage before the count was over"; fail=1; }
rm -f counting || framework_failure_
eta=' of 4\.0 MB \([0-9]+%\) written to cache in [0-9:]+, ETA [0-9:]+, '
wait_until_ 600 drawn_ "$eta" \
  || { echo "no line with the total and the time left"; cat lines; fail=1; }
kill -USR1 $pid || framework_failure_
wait_until_ 600 drawn_ '^[0-9]+ bytes .*copied, .*, [0-9]+% of 4\.0 MB, ETA ' \
  || { echo "SIGUSR1: no line with a percentage"; cat lines; fail=1; }
fifo_ head -c $((3000000 - $(stat -c %s got))) <&4 >> got || framework_failure_
wait $pid || { echo "cp failed"; cat err; fail=1; }
exec 4<&-
cmp src/big got || fail=1
cmp src/later/small dst/later/small || fail=1
check_lines_ "count held"
# The least total comes before any percentage, and never after.
sed -n '/%/,$p' lines | grep ' of >= ' && { echo "a least total late"; fail=1; }

# -n: the file kept leaves the total, which the copy still completes.
rm -rf dst && mkdir -p dst/later && cp src/later/small dst/later/ \
  || framework_failure_
held_cp_ "-n" -r -n src/later src/big dst
let_go_ "-n"
check_lines_ "-n"
grep -E ' of 3\.0 MB \(100%\) .*, 1\.0 MB skipped *$' lines > /dev/null \
  || { echo "-n: the total still holds the file kept"; cat lines; fail=1; }
cmp src/big dst/big || fail=1

# A source named twice is copied once, and counted once; the warning
# for it comes last.
rm -rf dst && mkdir dst || framework_failure_
held_cp_ "named twice" src/big src/big dst
let_go_ "named twice"
lines_
grep -E ' of 3\.0 MB \(100%\) ' lines > /dev/null \
  || { echo "named twice: counted twice"; cat lines; fail=1; }
cmp src/big dst/big || fail=1

# --resume: what an earlier run copied leaves the total, and the
# percentage still reaches 100 (rsync's trap, its PRs 816 and 822).
rm -rf dst && mkdir dst && head -c 2097152 src/big > dst/big \
  || framework_failure_
hold_at=2500000
held_cp_ "--resume" --resume src/big dst
let_go_ "--resume"
hold_at=0
check_lines_ "--resume"
grep -E ' of 903 kB \(100%\) .*, 2\.1 MB skipped *$' lines > /dev/null \
  || { echo "--resume: the total still holds the bytes kept"; cat lines
       fail=1; }
cmp src/big dst/big || fail=1

# --jobs=2: one line for the workers together.
rm -rf dst || framework_failure_
hold_path='*/t/big'
held_cp_ "--jobs=2" -r --jobs=2 t dst
let_go_ "--jobs=2"
check_lines_ "--jobs=2"
grep -E ' of 4\.0 MB \(100%\) ' lines > /dev/null \
  || { echo "--jobs=2: not the tree's total"; cat lines; fail=1; }
compare_trees_ () { cmp t/big "$1/big" && cmp t/small "$1/small"; }
compare_trees_ dst || fail=1

# --verify: each byte is written, then read back.
rm -rf dst || framework_failure_
held_cp_ "--verify" -r --verify t dst
let_go_ "--verify"
check_lines_ "--verify"
grep -E ' of 8\.0 MB \(100%\) written to cache and read back ' lines \
  > /dev/null || { echo "--verify: not twice the data"; cat lines; fail=1; }
compare_trees_ dst || fail=1

Exit $fail
