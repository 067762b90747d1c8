#!/bin/sh
# cp --report=FILE writes one JSON object a line, one per file copied,
# skipped or failed, then a summary; jq reads it.  Names that are not
# UTF-8 keep their bytes in a base64 field; a line break in a name is
# escaped, so that each record stays one line.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
command -v jq > /dev/null || skip_ "jq is not installed"
require_faultshim_

mkdir -p s/sub || framework_failure_
echo hello > s/a || framework_failure_
head -c 70000 /dev/zero > s/sub/big || framework_failure_
echo x > s/bad1 && echo y > s/sub/bad2 || framework_failure_
nl='
'
echo z > "s/line${nl}break" || framework_failure_
printf 'w\n' > "s/$(printf 'odd\377name')" || framework_failure_
ln -s a s/link || framework_failure_

# check_lines_ FILE: every line of FILE is one JSON object; the last is
# the summary, and every other a file's.
check_lines_ ()
{
  jq -e -s 'all(type == "object")' "$1" > /dev/null \
    || { echo "$1: not JSON Lines"; cat "$1"; fail=1; }
  n_lines=$(wc -l < "$1")
  n_objs=$(jq -s length "$1")
  test "$n_lines" = "$n_objs" || { echo "$1: $n_lines lines, $n_objs objects"; fail=1; }
  test "$(tail -n 1 "$1" | jq -r .record)" = summary \
    || { echo "$1: no summary at the end"; fail=1; }
  test "$(jq -s '[.[] | select(.record == "summary")] | length' "$1")" = 1 \
    || { echo "$1: not one summary"; fail=1; }
}

# An ordinary copy, the report on standard output, with and without
# workers: every entry has its record, copied.
for jobs in 1 2; do
  rm -rf d && cp -r --jobs=$jobs --print-hash=sha256 --report=- s d \
    > out 2> err || fail=1
  # The hash lines and the records share standard output, each whole.
  grep -a -v '^{' out > hashes
  grep -a '^{' out > rep
  test "$(wc -l < hashes)" = 6 || { echo "jobs=$jobs: hash lines"; fail=1; }
  check_lines_ rep
  compare /dev/null err || fail=1
  test "$(jq -s '[.[] | select(.record == "file")] | length' rep)" = 9 \
    || { echo "jobs=$jobs: not 9 records"; cat rep; fail=1; }
  jq -e -s 'map(select(.record == "file")) | all(.outcome == "copied")' \
    rep > /dev/null || fail=1
  jq -e -s '.[-1] | .files == 9 and .copied == 9 and .failed == 0
            and .skipped == 0 and .bytes == 70014
            and (.seconds | type) == "number"' rep > /dev/null \
    || { echo "jobs=$jobs: bad summary"; tail -n 1 rep; fail=1; }
  # The regular file's record: its names, type, bytes, method, hash.
  want=$(sha256sum < s/sub/big | cut -d' ' -f1)
  jq -e -s --arg h "$want" \
    'map(select(.source == "s/sub/big")) | length == 1 and (.[0] |
       .destination == "d/sub/big" and .type == "regular"
       and .bytes == 70000 and (.method | type) == "string"
       and .hash_algorithm == "sha256" and .hash == $h)' rep > /dev/null \
    || { echo "jobs=$jobs: bad record of s/sub/big"; cat rep; fail=1; }
  jq -e -s 'map(select(.source == "s/link"))[0].type == "symlink"
            and map(select(.source == "s/sub"))[0].type == "directory"' \
    rep > /dev/null || { echo "jobs=$jobs: bad types"; fail=1; }
  # The names: a line break escaped; bytes that are not UTF-8 in base64.
  jq -e -s --arg n "s/line${nl}break" 'any(.source == $n)' rep > /dev/null \
    || { echo "jobs=$jobs: name with a line break lost"; fail=1; }
  b64=$(printf 's/odd\377name' | base64)
  jq -e -s --arg b "$b64" \
    'map(select(.source_base64 == $b))
     | length == 1 and .[0].source == "s/odd\ufffdname"
     and (.[0].destination_base64 | @base64d | startswith("d/odd"))' \
    rep > /dev/null || { echo "jobs=$jobs: bad non-UTF-8 name"; fail=1; }
  jq -e -s 'map(select(.source == "s/a"))[0] | has("source_base64") | not' \
    rep > /dev/null || { echo "jobs=$jobs: base64 of a UTF-8 name"; fail=1; }
done

# Names at the edges of UTF-8: valid ones are strings alone; each of
# the others (overlong, a surrogate, beyond U+10FFFF, cut short) has
# its bytes in base64, which give back the name exactly.
mkdir names || framework_failure_
for n in 'e\303\251' 'smile\360\237\230\200' 'q\342\202\254' \
         'over\300\200' 'sur\355\240\200' 'big\364\220\200\200' \
         'cut\342\202' 'ctl\001\177'; do
  name=$(printf "$n") && touch "names/$name" || framework_failure_
done
cp -r --report=nrep names ncopy || fail=1
for n in 'e\303\251' 'smile\360\237\230\200' 'q\342\202\254' \
         'ctl\001\177'; do
  name=$(printf "names/$n")
  jq -e -s --arg n "$name" \
    'map(select(.source == $n)) | length == 1 and (.[0] | has("source_base64") | not)' \
    nrep > /dev/null || { echo "valid name $n: bad record"; fail=1; }
done
for n in 'over\300\200' 'sur\355\240\200' 'big\364\220\200\200' \
         'cut\342\202'; do
  printf "names/$n" > want || framework_failure_
  b64=$(base64 < want)
  jq -r -s --arg b "$b64" 'map(select(.source_base64 == $b)) | length' \
    nrep > count || framework_failure_
  test "$(cat count)" = 1 || { echo "invalid name $n: no base64"; fail=1; }
  printf '%s' "$b64" | base64 -d > got || fail=1
  compare want got || fail=1
done

# -n and -u keep what is there: skipped, no error.
for opt in -n -u; do
  cp -r --report=rep$opt $opt s/. d > out 2> err || fail=1
  check_lines_ rep$opt
  jq -e -s '.[-1] | .skipped == 7 and .copied == 2 and .failed == 0' \
    rep$opt > /dev/null || { echo "$opt: bad summary"; cat rep$opt; fail=1; }
  jq -e -s 'map(select(.source == "s/./a"))[0].outcome == "skipped"' \
    rep$opt > /dev/null || { echo "$opt: s/./a not skipped"; fail=1; }
done

# Read errors on two files, with and without workers: those fail, with
# the message cp printed and its errno; the rest is copied.
for jobs in 1 2; do
  rm -rf d
  with_faults_ FAULT_OP=$rel_read_ops_ FAULT_FD_PATH='*/bad[12]' \
    FAULT_MODE=eio FAULT_DISABLE=copy_file_range -- \
    cp -r --jobs=$jobs --report=rep s d > out 2> err
  test $? = 1 || fail=1
  check_lines_ rep
  jq -e -s '.[-1] | .failed == 2 and .copied == 7 and .files == 9' rep \
    > /dev/null || { echo "jobs=$jobs: bad summary"; cat rep; fail=1; }
  # Each failure's record has the message cp printed for it, and errno.
  jq -r -s 'map(select(.outcome == "failed")) | sort_by(.source) | .[]
            | "\(.source) \(.errno)"' rep > failures
  printf '%s\n' 's/bad1 5' 's/sub/bad2 5' > exp
  compare exp failures || fail=1
  jq -r 'select(.outcome == "failed") | "cp: \(.error)"' rep | sort > said
  sed '$d' err | sort > err.sorted
  compare err.sorted said || fail=1
  test "$(tail -n 1 err)" = 'cp: 2 of 9 files were not copied' \
    || { echo "jobs=$jobs: no count at the end"; cat err; fail=1; }
  # Read by sendfile or read, as the build has them.
  grep -E "error (copying 's/bad1' to 'd/bad1'|reading 's/bad1'): Input/output error" \
    said > /dev/null || fail=1
  # The directory holding a failed file is no failure itself.
  jq -e -s 'map(select(.source == "s/sub"))[0].outcome == "copied"' rep \
    > /dev/null || fail=1
done

# A file its user may not read fails to open: errno 13, as a user
# without privileges meets it.
as_nobody=$(unprivileged_runner_)
if test -n "$as_nobody"; then
  mkdir -p perm/src && echo a > perm/src/ok && echo b > perm/src/locked \
    || framework_failure_
  chmod 0 perm/src/locked && chmod 777 perm && chmod 755 . \
    || framework_failure_
  (cd perm && $as_nobody cp -r --report=rep src dst) > out 2> err
  test $? = 1 || fail=1
  jq -e -s 'map(select(.outcome == "failed")) | length == 1 and (.[0] |
       .source == "src/locked" and .errno == 13
       and .error == "cannot open \u0027src/locked\u0027 for reading: Permission denied")' \
    perm/rep > /dev/null || { echo "unreadable: bad record"; cat perm/rep; fail=1; }
  jq -e -s 'map(select(.source == "src/ok"))[0].outcome == "copied"' \
    perm/rep > /dev/null || fail=1
fi

Exit $fail
