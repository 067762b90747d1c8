#!/bin/sh
# --parents as GNU 9.10 does it, operand by operand:
# - the directories made for an operand get their attributes after its
#   copy, even a failed one, but none if they could not all be made,
#   and none are touched where the operand's whole parent was there;
# - whether the last leading directory was made or found carries over
#   to the next operand, which, after a made one, takes its destination
#   to be new: anything there already makes the copy fail ("File
#   exists", a link not written through) rather than be replaced;
# - a source directory is looked at before what is in the way where
#   attributes are wanted.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/s/a fix/d fix/t/g fix/e/t fix/m fix/p || framework_failure_
echo x > fix/s/a/f && echo y > fix/s/g && echo y > fix/g \
  && echo deep > fix/t/g/f && ln -s other fix/e/t/g && echo o > fix/e/t/other \
  && touch -d @1000000000 fix/s fix/s/a fix/s/a/f fix/t fix/t/g \
  && touch -d @1100000000 fix/e/t \
  && chmod 555 fix/m && touch -d @1000000000 fix/m \
  && echo in-the-way > fix/p/a \
  || framework_failure_
# Run cp with the arguments given, then print the modification time of
# each directory below d and e: as it is if the fixture set it, else
# "now"; exit as cp did.
cat > fix/cp-times <<'EOF' || framework_failure_
cp "$@"
rc=$?
find d e -type d | LC_ALL=C sort | while read -r dir; do
  t=$(stat -c %Y "$dir")
  test "$t" -lt 1500000000 || t=now
  echo "$dir $t $(stat -c %a "$dir")"
done
exit $rc
EOF

# Carried over: a tree, a file, a link in the way of a new destination.
diff_run_ tree cp -R --parents s/a/f s d
diff_run_ tree-a sh cp-times -a --parents s/a/f s d
diff_run_ file sh -c 'echo old > d/g && cp --parents s/a/f g d'
diff_run_ file-f sh -c 'echo old > d/g && cp -f --parents s/a/f g d'
diff_run_ link sh -c 'echo o > d/zz && ln -s zz d/g && cp --parents s/a/f g d'
diff_run_ found sh -c 'mkdir -p d/s/a && echo old > d/g \
  && cp --parents s/a/f g d'

# Attributes: a failing operand leaves the parent it found alone; a
# missing source part stops before anything is set.
diff_run_ failed-times sh cp-times -a --parents t/g/f e
diff_run_ missing-part sh cp-times -a --parents m/nope/f d
diff_run_ missing-part-r sh cp-times -r --parents m/nope/f d
diff_run_ in-the-way-p sh -c 'cd p && cp -p --parents a/b/f .'
diff_run_ in-the-way sh -c 'cd p && cp --parents a/b/f .'

Exit $fail
