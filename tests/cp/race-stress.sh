#!/bin/sh
# For a few seconds, directories of the source and of the destination
# are swapped for symbolic links to a directory outside, and back, as
# fast as a shell can, while cp -a copies the tree again and again:
# whatever each copy reports, nothing outside is ever read into a copy,
# and nothing outside is created or changed.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

seconds=3

mkdir -p src out || framework_failure_
for d in a b c; do
  mkdir -p src/$d/sub || framework_failure_
  for f in 1 2 3 4 5 6 7 8; do
    echo "data $d $f" > src/$d/f$f || framework_failure_
    echo "data $d $f" > src/$d/sub/f$f || framework_failure_
  done
done
for f in 1 2 3 4 5 6 7 8; do
  echo SECRET > out/f$f || framework_failure_
done
mkdir out/sub || framework_failure_
echo SECRET > out/sub/f1 || framework_failure_
chmod 600 out/f* || framework_failure_
touch -d 2002-02-02 out/f* out/sub out || framework_failure_
digest_outside ()
{
  find out -print | LC_ALL=C sort | while read -r f; do
    stat -c '%n %F %a %u %g %s %Y' "$f"
  done
}
before=$(digest_outside) || framework_failure_

# Swap the directory $1/$2 for a link to out and back, until told to
# stop.
swapper ()
{
  while test ! -f stop; do
    if mv "$1/$2" "$1/$2.away" 2>/dev/null; then
      ln -s "$PWD/out" "$1/$2" 2>/dev/null
      rm -f "$1/$2" 2>/dev/null
      mv "$1/$2.away" "$1/$2" 2>/dev/null
    fi
  done
}

# The destination side: each copy goes to dst, which the swapper
# watches.
dst_swapper ()
{
  while test ! -f stop; do
    for d in a b c; do
      test -d dst/$d && test ! -L dst/$d \
        && mv dst/$d dst/$d.$$ 2>/dev/null \
        && ln -s "$PWD/out" dst/$d 2>/dev/null
    done
  done
}

swapper src a & p1=$!
swapper src/b sub & p2=$!
dst_swapper & p3=$!

mkdir done || framework_failure_
start=$(date +%s)
runs=0
while test $(($(date +%s) - start)) -lt $seconds; do
  cp -a src dst 2>> errs
  runs=$((runs + 1))
  if grep -r SECRET dst > /dev/null 2>&1; then
    echo "run $runs: a file from outside the source was copied"; fail=1
  fi
  mv dst done/$runs || framework_failure_
done
touch stop
wait $p1 $p2 $p3

after=$(digest_outside)
test "$after" = "$before" || { echo "outside the trees changed"; fail=1; }
test $runs -gt 0 || framework_failure_
echo "$runs copies"

# Every complaint is one of those a swapped directory explains: a link
# found in place of src/a may be a directory again when it is read, as
# GNU's cp then says too.
cat errs | sort | uniq -c | sort -rn | head -5
grep -v -e 'Not a directory' -e 'No such file or directory' \
  -e 'cannot overwrite non-directory' -e 'replaced while being copied' \
  -e 'File exists' -e 'cannot read symbolic link .*: Invalid argument' \
  errs && { echo "unexpected complaints"; fail=1; }

Exit $fail
