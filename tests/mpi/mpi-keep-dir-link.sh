#!/bin/sh
# mpicp --keep-directory-symlink --copy-contents copies into the
# directory a link of the destination leads to, as GNU cp does, also
# where a rank given a subtree below that link reaches the subtree's
# directory by its names, through the link as the walk went.  Whether
# subtrees are given away depends on when the ranks ask for work; the
# result must not.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_mpicp_

mkdir -p fix/s/d fix/t/real fix/t/other || framework_failure_
for i in $(seq 30); do
  mkdir -p fix/s/d/sub$i/deep || framework_failure_
  seq 2000 > fix/s/d/sub$i/deep/f || framework_failure_
  seq $i > fix/s/d/sub$i/g || framework_failure_
done
mkdir fix/s/d/e fix/s/d/e/below || framework_failure_
printf 'below\n' > fix/s/d/e/below/f || framework_failure_
ln -s real fix/t/d || framework_failure_
ln -s ../other fix/t/real/e || framework_failure_

for n in 2 4; do
  ( CPDD_TEST_MPI=$n
    . "$srcdir/tests/diff-helpers.sh"
    diff_run_ keep-$n cp -rT --keep-directory-symlink --copy-contents s t
    diff_run_ keep-a-$n cp -aT --keep-directory-symlink --copy-contents s t
    exit $fail ) || fail=1
done

Exit $fail
