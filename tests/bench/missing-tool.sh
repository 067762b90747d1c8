#!/bin/sh
# cpdd-bench compare: tools that are not installed (rsync, cpio, strace,
# truss, fincore) are skipped with a note; once rsync is on PATH it is
# timed.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench
. "$abs_srcdir/tests/bench/tools-dir.sh"

bench=$(command -v cpdd-bench) || framework_failure_

# A PATH holding only what cpdd-bench itself needs.
tools_dir_ bin $bench_tools_
test -x bin/awk && test -x bin/dd || skip_ "no awk or dd in /bin, /usr/bin"

opts='--size 1M --runs 2 --pretouch 0 --tools cp,rsync,cpio -o out.csv .'

env PATH="$PWD/bin" "$bench" compare $opts > out 2> err || fail=1
cat err
for t in rsync cpio; do
  grep "^cpdd-bench: note: $t: not found; skipped\$" err > /dev/null || fail=1
  grep "^not run: $t: not found\$" out > /dev/null || fail=1
  grep "^hot,$t," out.csv && fail=1
done
grep '^cpdd-bench: note: neither strace nor truss found; no syscall counts$' \
  err > /dev/null || fail=1
# No syscall counts: an empty 13th column.
grep '^hot,cp,2,1048576,\([^,]*,\)\{8\},' out.csv > /dev/null || fail=1
# No fincore: one note, an empty 14th column and "-" in the table.
test "$(grep -c '^cpdd-bench: note: fincore (util-linux) not found: ' err)" \
  = 1 || fail=1
grep '^hot,cp,2,1048576,\([^,]*,\)\{9\},' out.csv > /dev/null || fail=1
grep '^cp  *[0-9].* -$' out > /dev/null || fail=1
grep '^cached: not measured' out > /dev/null || fail=1

# An "rsync" on PATH is picked up and timed.
printf '#!/bin/sh\nexec /bin/cat "$1" > "$2"\n' > bin/rsync || framework_failure_
chmod +x bin/rsync || framework_failure_
env PATH="$PWD/bin" "$bench" compare $opts > out 2> err || fail=1
grep '^hot,rsync,2,1048576,' out.csv > /dev/null || fail=1
grep rsync err && fail=1
grep '^rsync  *[0-9]' out > /dev/null || fail=1

Exit $fail
