#!/bin/sh
# The lines of --print-hash and --hash-file hold once cp ends: each
# passes sha256sum -c, with backups that move earlier copies aside,
# trees copied one over another, kept hard links, --update, --verify,
# --jobs=4 and mpicp; the lines are sha256 unless --print-hash names
# another algorithm, and a --verify=ALGO that differs is refused; a
# hash file naming a source or the destination loses nothing.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"

cp_variants_ 3

# Check that the file of lines $1 passes, and has $2 lines.
lines_pass_ ()
{
  sha256sum -c --strict --quiet "$1" || { cat "$1"; fail=1; }
  test "$(wc -l < "$1")" = "$2" \
    || { echo "$1: not $2 lines" >&2; cat "$1"; fail=1; }
}

mkdir a1 a2 m1 m2 t || framework_failure_
echo one > a1/x && echo two > a2/x \
  && mkdir m1/d m2/d t/sub \
  && echo m1x > m1/d/x && echo m1y > m1/d/y && echo m2x > m2/d/x \
  && echo linked > t/h1 && ln t/h1 t/sub/h2 && ln t/h1 t/h3 \
  && echo alone > t/z \
  || framework_failure_

for c in $cps; do
  # Finding 1: a hash file naming the source keeps the source.
  echo important > data || framework_failure_
  rm -rf out && mkdir out || framework_failure_
  returns_ 1 $c --hash-file=data data out/ 2> err || fail=1
  test "$(cat data)" = important || fail=1
  test ! -e out/data || fail=1

  # Finding 2: nor does one naming the destination spoil the copy.
  echo important > s || framework_failure_
  rm -f d
  returns_ 1 $c --verify --hash-file=d s d 2> err || fail=1
  test ! -e d || fail=1

  # Finding 4: numbered backups of copies this run made.
  for opts in --hash-file=B.sum '--verify --hash-file=B.sum'; do
    rm -rf dst B.sum && mkdir dst || framework_failure_
    $c --backup=numbered $opts a1/x a2/x dst/ || fail=1
    lines_pass_ B.sum 2
    grep 'dst/x\.~1~$' B.sum > /dev/null || fail=1
  done

  # Trees copied one over another, with and without backups.
  rm -rf md && mkdir md || framework_failure_
  $c -r --hash-file=M.sum m1/d m2/d md/ || fail=1
  lines_pass_ M.sum 2
  $c -r --backup=numbered --print-hash m1/d m2/d md/ > MB.sum || fail=1
  lines_pass_ MB.sum 3

  # Every name of a hard-linked set has its line with -a, however the
  # copy is made.
  for opts in '' --verify; do
    rm -rf tc && $c -a $opts --hash-file=L.sum t tc || fail=1
    lines_pass_ L.sum 4
  done

  # --update: a file kept as up to date gets no line; one copied does.
  rm -rf u && mkdir u && echo newer > u/x && touch -d '+1 hour' u/x \
    || framework_failure_
  $c -u --hash-file=U.sum a1/x a2/x u/ 2> /dev/null
  test ! -s U.sum || { cat U.sum; fail=1; }
  $c -r --update=older --hash-file=U.sum t u/ || fail=1
  lines_pass_ U.sum 4
done

# Finding 6: sha256 lines unless --print-hash names another.
echo data > f || framework_failure_
for algo in md5 sha1 sha512; do
  rm -f g S
  returns_ 1 cp --verify=$algo --hash-file=S f g 2> err || fail=1
  grep -- "--verify=$algo differs from sha256" err > /dev/null \
    || { cat err; fail=1; }
  test ! -e S && test ! -e g || fail=1
  cp --verify=$algo --print-hash=$algo --hash-file=S f g || fail=1
  ${algo}sum -c --quiet S || fail=1
done
rm -f g
cp --verify=sha256 --hash-file=S f g && sha256sum -c --quiet S || fail=1
rm -f g
cp --verify --hash-file=S f g && sha256sum -c --quiet S || fail=1

Exit $fail
