#!/bin/sh
# With POSIXLY_CORRECT set, cp never writes through a dangling symbolic
# link it made itself earlier in the same run, at any depth: the copy
# would land outside the destination.  GNU cp 9.10 refuses this only
# for links made from operands (the manual lists the difference).

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

mkdir -p a/x b/x out c d || framework_failure_
ln -s ../../out/victim a/x/1 || framework_failure_
ln -s ../out/victim2 a/2 || framework_failure_
printf 'data\n' > b/x/1 || framework_failure_
printf 'data\n' > b/2 || framework_failure_

# Deep in a tree.
POSIXLY_CORRECT=1 returns_ 1 cp -dR a/x b/x c 2> err || fail=1
cat > exp <<'EOF2'
cp: will not copy 'b/x/1' through just-created symlink 'c/x/1'
EOF2
compare exp err || fail=1
test -L c/x/1 || fail=1

# As an operand.
POSIXLY_CORRECT=1 returns_ 1 cp -d a/2 b/2 d 2> err || fail=1
cat > exp <<'EOF2'
cp: will not copy 'b/2' through just-created symlink 'd/2'
EOF2
compare exp err || fail=1

# Nothing was written outside the destinations.
test -e out/victim && fail=1
test -e out/victim2 && fail=1

# A dangling link that was there before the copy is still written
# through, as POSIX says.
mkdir e || framework_failure_
ln -s ../out/planted e/2 || framework_failure_
POSIXLY_CORRECT=1 cp b/2 e || fail=1
compare b/2 out/planted || fail=1

Exit $fail
