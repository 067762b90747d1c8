#!/bin/sh
# The rule for files that cp and dd write besides their copies
# (--hash-file, hashlog=): one that is a source, lies inside a source
# tree, is a destination or lies inside a destination tree, or cannot
# be created, is refused before anything is written.  Every case is
# run with cp, cp --jobs=4, mpicp on 2 ranks where it was built, and
# dd; afterwards the sources, destinations and the named file are
# byte for byte as they were, the exit status is 1 and the message
# says why.  A side file that breaks no rule is written, as a control.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"

# The fixture every case starts from: a source file, a source tree
# with a file of its own, a destination directory that holds an
# earlier copy of both, and dd's input and output.
make_fixture_ ()
{
  rm -rf w && mkdir w && cd w || framework_failure_
  printf 'source file\n' > f \
    && mkdir -p s/sub d/s/sub \
    && printf 'in the tree\n' > s/SUMS \
    && head -c 70000 /dev/urandom > s/sub/big \
    && printf 'old copy\n' > d/f \
    && printf 'old tree copy\n' > d/s/x \
    && head -c 20000 /dev/urandom > in \
    && printf 'precious image\n' > img \
    || framework_failure_
  cd .. || framework_failure_
}

# Run the command $2... in a fresh fixture, expecting it to be refused
# with a message matching $1; nothing in the fixture may change, and
# no file may appear.
refused_ ()
{
  want_=$1; shift
  make_fixture_
  tree_digest_ w > before || framework_failure_
  (cd w && "$@") > out 2> err
  rc_=$?
  tree_digest_ w > after || framework_failure_
  if test $rc_ != 1; then
    echo "exit $rc_, not 1, for: $*" >&2; cat err >&2; fail=1
  fi
  grep -E "$want_" err > /dev/null \
    || { echo "no '$want_' for: $*" >&2; cat err >&2; fail=1; }
  compare before after || { echo "the files changed for: $*" >&2; fail=1; }
}

cp_variants_ 2

same='is the same file as'
inside='is inside the'
for c in $cps; do
  # A source file, and a source tree's own file or a new one in it.
  refused_ "$same the source 'f'" $c --hash-file=f f d/
  refused_ "$same the source 'f'" $c --hash-file=./f f new
  refused_ "$inside source directory 's'" $c -r --hash-file=s/SUMS s d/
  refused_ "$inside source directory 's'" $c -r --hash-file=s/sub/NEW s d/
  refused_ "$inside source directory 's'" $c -a --hash-file=s/SUMS f s d/
  # A destination, existing or not, and in a destination tree.
  refused_ "$same the destination 'd/f'" $c --hash-file=d/f f d/
  refused_ "$same the destination 'new'" $c --hash-file=new f new
  refused_ "$same the destination 'd/f'" $c --print-hash --verify \
    --hash-file=d/../d/f f d
  refused_ "$inside destination directory 'd/s'" $c -r --hash-file=d/s/x \
    s d/
  refused_ "$inside destination directory 'd/s'" $c -r \
    --hash-file=d/s/sub/NEW s d/
  refused_ "$inside destination directory 'd'" $c -rT --hash-file=d/NEW s d
  # Nowhere to make it.
  refused_ "failed to open 'nodir/S'" $c --hash-file=nodir/S f d/
  refused_ "failed to open 'f/S'" $c -r --hash-file=f/S s d/
done

# dd: the input (named, or as standard input), the output (named,
# existing or not, or as standard output), nowhere to make it.
refused_ "$same the input 'in'" dd if=in of=img hashlog=in status=none
refused_ "is standard input" sh -c 'dd of=img hashlog=in status=none < in'
refused_ "$same the output 'img'" dd if=in of=img hashlog=img status=none
refused_ "$same the output 'new'" dd if=in of=new hashlog=new status=none
refused_ "$same the output 'img'" dd if=in of=img hash=md5 \
  hashlog=./img status=none
refused_ "is standard output" sh -c 'dd if=in hashlog=img status=none 1<>img'
refused_ "failed to open 'nodir/log'" dd if=in of=img hash=sha256 \
  hashlog=nodir/log status=none
refused_ "failed to open 'img/log'" dd if=in of=new hashlog=img/log \
  status=none

# The control: a side file beside the copies, in the destination
# directory but outside any tree copied, is written, and checks.
for c in $cps; do
  make_fixture_
  (cd w && $c -r --hash-file=d/SUMS f s d/) || fail=1
  (cd w && sha256sum -c --quiet d/SUMS) || fail=1
  test "$(wc -l < w/d/SUMS)" = 3 || { cat w/d/SUMS; fail=1; }
done
make_fixture_
(cd w && dd if=in of=img hashlog=log status=none) || fail=1
(cd w && sha256sum -c --quiet log) || fail=1

Exit $fail
