#!/bin/sh
# --sparse=always turns a trailing run of zeros shorter than a block into
# a hole too, so the copy allocates no more blocks than GNU's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

# The file system must make holes of whole blocks.
truncate -s 1M probe || framework_failure_
"$gnu_dir_/cp" --sparse=always probe probe.copy || framework_failure_
test "$(stat -c %b probe.copy)" = 0 || skip_ "no holes on this file system"

# Each case: bytes of data, then the file's full size (zeros after).
for spec in 0:100 0:10000 4096:4097 4096:4196 8192:8292 5000:20000 \
            100:8192 70000:200000 131072:140000 1:65536; do
  data=${spec%:*} size=${spec#*:}
  f=in.$data.$size
  head -c "$data" /dev/urandom > "$f" || framework_failure_
  truncate -s "$size" "$f" || framework_failure_
  for how in file pipe; do
    for side in ours gnu; do
      if test $side = ours; then prog=cp; else prog=$gnu_dir_/cp; fi
      out=$f.$how.$side
      if test $how = file; then
        "$prog" --sparse=always "$f" "$out" || fail=1
      else
        cat "$f" | "$prog" --sparse=always /dev/stdin "$out" || fail=1
      fi
      cmp "$f" "$out" || fail=1
    done
    ours=$(stat -c %b "$f.$how.ours") gnu=$(stat -c %b "$f.$how.gnu")
    test "$ours" = "$gnu" || {
      echo "$f from a $how: $ours blocks, GNU's copy has $gnu" >&2; fail=1; }
  done
done

Exit $fail
