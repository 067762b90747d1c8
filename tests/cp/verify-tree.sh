#!/bin/sh
# cp --verify of a tree: small files are read back in batches after one
# sync of their file system, large ones at once; either way a byte
# turned over on its way to storage, or in the copy before it is read
# back, fails the copy of that file alone, with its names, and the lines
# of --print-hash are those of the files that passed.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"

mkdir src || framework_failure_
i=0
while test $i -lt 60; do
  head -c $((i * 500 + 1)) /dev/urandom > src/f$i || framework_failure_
  i=$((i + 1))
done
mkdir src/sub || framework_failure_
head -c 9000000 /dev/urandom > src/sub/big || framework_failure_
: > src/sub/empty || framework_failure_

# Good copies pass, with one job and with two; every file's line is
# printed once the file has passed, and sha256sum accepts them.
for m in --jobs=1 --jobs=2; do
  cp -r $m --verify=sha256 --print-hash src "good$m" > "good$m.lines" \
    2> "good$m.err" || { cat "good$m.err"; fail=1; }
  test -s "good$m.err" && { cat "good$m.err"; fail=1; }
  test "$(wc -l < "good$m.lines")" = 62 || { cat "good$m.lines"; fail=1; }
  sha256sum --quiet -c "good$m.lines" || fail=1
done

# --debug says which were left for later and which were read at once.
cp -r --debug --verify src dbg > dbg.out || fail=1
grep -A1 "'src/f7' ->" dbg.out > small.line || framework_failure_
grep -q ', read back: later, with the files near it, after one sync$' \
  small.line || { cat small.line; fail=1; }
grep -A1 "'src/sub/big' ->" dbg.out > big.line || framework_failure_
grep -qE ', read back: (direct I/O|synced and dropped)$' big.line \
  || { cat big.line; fail=1; }

# One sync of the file system for all the small files.
if command -v strace > /dev/null 2>&1; then
  strace_ -f -e trace=syncfs,fdatasync,fsync -o trace \
    cp -r --verify src synced 2> /dev/null || framework_failure_
  grep -c '^[0-9]* *syncfs(' trace > syncs || framework_failure_
  test "$(cat syncs)" = 1 || { cat trace; fail=1; }
else
  echo "strace is missing: not counting the syncs" >&2
fi

# A copy left for its check and then overwritten by a later operand's
# copy, or moved aside as its backup, is checked before that, not
# reported as changed.
mkdir -p two/a/d two/b/d merged numbered || framework_failure_
echo one > two/a/d/f && echo two-two > two/b/d/f && echo x > two/a/g \
  && echo yy > two/b/g || framework_failure_
cp -r --verify two/a/d two/b/d merged/ 2> merged.err || fail=1
compare /dev/null merged.err || fail=1
cp --verify --backup=numbered two/a/g two/b/g numbered/ 2> numbered.err \
  || fail=1
compare /dev/null numbered.err || fail=1

shim=${abs_top_builddir-$PWD/..}/tests/shim/faultshim.so
test -f "$shim" || skip_ "tests/shim/faultshim.so was not built"

# NAME's copy corrupted by OP (FAULT_OP), with cp's options after: the
# copy fails with one message, the other files are copied and checked,
# and the bad copy is kept.
corrupt_ ()
{
  name=$1 op=$2; shift 2
  rm -rf bad || framework_failure_
  env LD_PRELOAD="$shim" FAULT_MODE=corrupt FAULT_AT=300 FAULT_COUNT=1 \
    FAULT_FD_PATH="*/bad/$name" FAULT_OP=$op \
    cp -r "$@" --verify --print-hash src bad > bad.lines 2> bad.err
  status=$?
  test $status = 1 || { echo "$name $op $*: exit $status"; fail=1; }
  printf "cp: 'bad/%s' differs from 'src/%s' when read back\n" \
    "$name" "$name" > bad.want || framework_failure_
  compare bad.want bad.err || { echo "$name $op $*"; fail=1; }
  cmp -s "src/$name" "bad/$name" && { echo "$name $op $*: same"; fail=1; }
  grep " bad/$name\$" bad.lines && { echo "$name $op $*: printed"; fail=1; }
  test "$(wc -l < bad.lines)" = 61 || { cat bad.lines; fail=1; }
  # The others are as their sources.
  mv "bad/$name" bad-one && cp "src/$name" "bad/$name" \
    && diff -r src bad > /dev/null || { echo "$name $op $*: others"; fail=1; }
}
for op in write open; do
  corrupt_ f17 $op
  corrupt_ f17 $op --jobs=2
  corrupt_ sub/big $op --io-method=read
done

Exit $fail
