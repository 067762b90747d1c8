#!/bin/sh
# mpicp --atomic: the ranks fill each file's temporary file (whole, or
# the ranges of a large one, which they open by its name), and the rank
# that ends the file renames it over the destination: the tree and the
# operands end up as cp --atomic makes them, hard links of the old
# files keep the old data, and no temporary file is left.  A failed
# range leaves the old file.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_mpicp_
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE

mkdir src src/sub || framework_failure_
head -c 5000000 /dev/urandom > src/sub/big || framework_failure_
for i in $(seq 40); do
  printf 'new %s\n' $i > src/f$i && printf 'new %s\n' $i > src/sub/g$i \
    || framework_failure_
done
touch -d '2004-05-06 07:08:09' src/sub/big src/f1 || framework_failure_

# The old tree: every file with other data, and a second link of two.
make_old_ ()
{
  rm -rf dst keep && mkdir keep || framework_failure_
  cp -R src dst || framework_failure_
  find dst -type f -exec sh -c 'printf old > "$1"' sh {} \; \
    || framework_failure_
  ln dst/sub/big keep/big && ln dst/f1 keep/f1 || framework_failure_
}

# No temporary file left below DIR, and KEEP's links have the old data.
check_left_ ()
{
  test -z "$(find "$2" -name '*.cpdd-part')" \
    || { echo "$1: temporary files left"; find "$2" -name '*.cpdd-part'
         fail=1; }
  printf old > exp-old || framework_failure_
  compare exp-old keep/big && compare exp-old keep/f1 \
    || { echo "$1: a link of an old file changed"; fail=1; }
}

for n in 2 4; do
  make_old_
  mpirun_ $n mpicp --atomic -a -T src dst 2> err || { cat err; fail=1; }
  diff -r src dst || fail=1
  test "$(stat -c %Y dst/sub/big)" = "$(stat -c %Y src/sub/big)" || fail=1
  check_left_ "tree on $n ranks" dst

  # An operand, whose ranges rank 0 sends once it has made the copy.
  make_old_
  mpirun_ $n mpicp --atomic src/sub/big dst/sub/big 2> err \
    || { cat err; fail=1; }
  compare src/sub/big dst/sub/big || fail=1
  check_left_ "operand on $n ranks" dst

  # A new tree, made through temporary files all the same.
  rm -rf new && mpirun_ $n mpicp --atomic -R src new 2> err \
    || { cat err; fail=1; }
  diff -r src new || fail=1
  test -z "$(find new -name '*.cpdd-part')" || fail=1
done

# A range that fails on rank 1 fails the copy, which leaves the old
# file and no temporary one.
require_faultshim_
make_old_
mpirun_ 2 -x LD_PRELOAD="$faultshim_" -x FAULT_RANK=1 \
  -x FAULT_OP=$rel_write_ops_ -x FAULT_FD_PATH='*/.big.cpdd-part' \
  -x FAULT_MODE=eio -x FAULT_AT=0 -x FAULT_DISABLE=copy_file_range \
  -x FAULT_LOG="$PWD/fault.log" \
  mpicp --atomic --io-method=read src/sub/big dst/sub/big 2> err
rc=$?
if test -s fault.log; then
  test $rc = 1 || { echo "failed range: exit $rc"; fail=1; }
  compare exp-old dst/sub/big || { echo "failed range: old file changed"; fail=1; }
else
  # Rank 0 copied every range itself: nothing failed.
  compare src/sub/big dst/sub/big || fail=1
fi
check_left_ "failed range" dst

Exit $fail
