#!/bin/sh
# bench/file-floor: on a few files it times both ways for 1 and 2
# threads, prints its table (data at ratio 1, cp -a's ratio beside it),
# leaves nothing behind; --unshare gives each thread a descriptor table
# of its own; usage errors.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./bench
. "$srcdir/tests/diff-helpers.sh"

mkdir d || framework_failure_
file-floor --files=40 --runs=3 --threads=1,2 d > out 2> err || fail=1
compare /dev/null err || fail=1

sed -n 1p out | grep '^40 files of 1024 bytes, 3 runs each' > /dev/null \
  || fail=1
sed -n 2p out > head
echo 'threads way    median_us    min_us    max_us   ratio' > exp-head
compare exp-head head || fail=1
sed 1,2d out | awk '{ print $1, $2 }' > rows
printf '%s\n' '1 data' '1 cp-a' '2 data' '2 cp-a' > exp-rows
compare exp-rows rows || fail=1
sed 1,2d out | awk '$2 == "data" && $6 != "1.00" { bad = 1 }
  !($4 <= $3 && $3 <= $5 && $6 > 0) { bad = 1 }
  END { exit bad }' \
  || fail=1

# The source and every copy are removed.
ls -A d > left || framework_failure_
compare /dev/null left || fail=1

# --unshare: each copying thread takes a table of its own, and says so.
if cpdd_has_ HAVE_UNSHARE; then
  file-floor --files=40 --runs=1 --threads=2 --unshare d > out 2> err \
    || fail=1
  compare /dev/null err || fail=1
  grep '^40 files of 1024 bytes, 1 runs each, a descriptor table per thread;' \
    out > /dev/null || fail=1
  # Under an emulator strace would see the emulator's calls.
  if strace -V > /dev/null 2>&1 && ! emulated_; then
    traced_ -f -ff -e trace=unshare -o trace \
      file-floor --files=4 --runs=1 --threads=1,2 --unshare d > out \
      || fail=1
    # Both ways, a thread per run of one and two per run of two.  Each
    # thread's calls are in a file of their own, whole: in one file, a
    # call another thread interrupts is split over two lines.
    test "$(cat trace.* | grep -c '^unshare(CLONE_FILES) *= 0$')" = 6 \
      || { echo "not 6 unshares:"; cat trace.*; fail=1; }
  fi
  ls -A d > left || framework_failure_
  compare /dev/null left || fail=1
else
  returns_ 1 file-floor --unshare d 2> err || fail=1
  grep 'not supported on this system' err > /dev/null || fail=1
fi

# A directory that cannot be used fails, naming why, not a timing.
returns_ 1 file-floor --files=4 --runs=1 out 2> err || fail=1
grep "cannot open out" err > /dev/null || fail=1

# Usage errors: status 1 and a hint.
returns_ 1 file-floor --runs=0 d 2> err || fail=1
grep 'invalid number of runs: 0' err > /dev/null || fail=1
grep -- "--help' for more information" err > /dev/null || fail=1
returns_ 1 file-floor --threads=1,65 d 2> err || fail=1
grep 'invalid number of threads: 65' err > /dev/null || fail=1
returns_ 1 file-floor 2> err || fail=1
grep 'missing directory operand' err > /dev/null || fail=1
returns_ 1 file-floor d e 2> err || fail=1
grep 'extra operand: e' err > /dev/null || fail=1

Exit $fail
