#!/bin/sh
# A directory of the source or of the destination replaced by a
# symbolic link at each step of the copy: cp never reads through it
# what is outside the source, never creates or changes anything
# outside the destination, and says what GNU cp says of the situation
# it finds, or refuses the directory.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

swapshim=${abs_top_builddir-$PWD/..}/tests/shim/swapshim.so
test -f "$swapshim" || skip_ "tests/shim/swapshim.so was not built"

# The source: a directory with a file, a FIFO and a subdirectory, all
# old and, where we may, owned by another user; outside, a directory
# with the same names, which nothing may read or change.
setup_tree ()
{
  rm -rf src dst out ours.* log || framework_failure_
  mkdir -p src/a/sub out/sub || framework_failure_
  echo orig > src/a/f && mkfifo src/a/p || framework_failure_
  echo SECRET > out/f && mkfifo out/p || framework_failure_
  chmod 640 src/a/f src/a/p && chmod 600 out/f out/p || framework_failure_
  touch -h -d 2001-01-01 src/a/f src/a/p src/a/sub src/a || framework_failure_
  touch -h -d 2002-02-02 out/f out/p out/sub out || framework_failure_
  if test "$(id -u)" = 0; then
    chown -R nobody src/a || framework_failure_
  fi
  outside_before=$(digest_outside) || framework_failure_
}

digest_outside ()
{
  find out | LC_ALL=C sort | xargs ls -ld --full-time | sed 's/  */ /g'
  cat out/f
}

# Run the case WHAT: cp ARGS with the directory DIR replaced by a link
# to out just before the call CALL (see swapshim.c) on a file matching
# PATH, with FLAGS; with at most $nofile descriptors if it is set.
nofile=
swap_run ()
{
  what=$1 dir=$2 call=$3 path=$4 flags=$5; shift 5
  ( test -z "$nofile" || ulimit -n $nofile
    exec env LD_PRELOAD="$swapshim" SWAP_DIR="$PWD/$dir" \
      SWAP_TARGET="$PWD/out" SWAP_CALL="$call" SWAP_PATH="$path" \
      SWAP_FLAGS="$flags" SWAP_LOG="$PWD/log" cp "$@" > ours.out 2> ours.err )
  echo $? > ours.rc
  grep '^swapped' log > /dev/null \
    || { echo "$what: the swap never happened"; fail=1; }
  test "$(digest_outside)" = "$outside_before" \
    || { echo "$what: outside the tree changed"; digest_outside; fail=1; }
  if grep -r SECRET dst > /dev/null 2>&1; then
    echo "$what: a file from outside the source was copied"; fail=1
  fi
}

# Check that the run of WHAT exited with RC and said ERR (may be empty).
expect ()
{
  test "$(cat ours.rc)" = "$2" \
    || { echo "$1: exit $(cat ours.rc), not $2"; cat ours.err; fail=1; }
  printf '%s' "$3" > exp.err
  test -z "$3" || echo >> exp.err
  compare exp.err ours.err || { echo "$1: messages differ"; fail=1; }
}

# GNU cp's exit status and messages for the situation the swap left,
# met without any race: the directory DIR already a link to out.
gnu_after_swap ()
{
  dir=$1; shift
  mv "$dir" "$dir.moved" && ln -s "$PWD/out" "$dir" || framework_failure_
  "$gnu_dir_/cp" "$@" > gnu.out 2> gnu.err.raw
  echo $? > gnu.rc
  sed 's,^[^:]*/cp:,cp:,' gnu.err.raw > gnu.err
}

# Source, after its listing: the entry is now a link, copied as one.
setup_tree
swap_run after-listing src/a closedir '*' '' -a src dst
expect after-listing 0 ''
test -L dst/a || { echo "after-listing: dst/a is not a link"; fail=1; }

# Source, before descending: the directory is refused.
setup_tree
swap_run before-descent src/a openat '*/src/a' dir -a src dst
expect before-descent 1 "cp: cannot access 'src/a': Not a directory"

# Source, before opening an entry: the entry is read from the directory
# that was listed.
setup_tree
swap_run before-entry src/a openat '*/src/a/f' '' -a src dst
expect before-entry 0 ''
test "$(cat dst/a/f)" = orig || { echo "before-entry: wrong data"; fail=1; }

# Destination, before creating an entry: it is made in the directory cp
# made, wherever that is now.
setup_tree
swap_run dst-before-entry dst/a openat '*/dst/a/f' creat -a src dst
expect dst-before-entry 0 ''
test "$(cat dst/a.moved/f)" = orig \
  || { echo "dst-before-entry: the copy is not where it belongs"; fail=1; }

# Destination, before its new directory is opened: refused.
setup_tree
swap_run dst-before-descent dst/a openat '*/dst/a' dir -a src dst
expect dst-before-descent 1 "cp: cannot stat 'dst/a': Not a directory"

# Destination, before each change of owner, permissions or times, of a
# file or of the directory itself: they still go to the copy.  With -a
# permissions are set with the ACL, so -R shows the chmod; it makes a
# directory with its final permissions, unless they lack some of the
# owner's, as a read-only one does.
for case in fchown,fchownat:-a futimens,utimensat:-a fchmod,fchmodat:-R; do
  call=${case%:*} opt=${case#*:}
  for path in '*/dst/a/*' '*/dst/a'; do
    test "$opt" = -R && test "$path" = '*/dst/a/*' && continue
    setup_tree
    test "$opt" = -R && { chmod 555 src/a || framework_failure_; }
    swap_run "dst-before-$call-$path" dst/a $call "$path" '' $opt src dst
    expect "dst-before-$call-$path" 0 ''
    test "$(stat -c %a dst/a.moved/f)" = 640 \
      || { echo "dst-before-$call-$path: wrong mode"; fail=1; }
  done
done

# Destination, deep down with only two descriptors to hold each side's
# directories: the directory high up replaced while its descriptor was
# given back is taken again through "..", and is still the one made,
# so the rest of the copy goes there too.  Outside, the same tree
# waits for anything that would go by name.
setup_tree
mkdir -p src/a/l2/l3/l4/l5 out/l2/l3/l4/l5 || framework_failure_
echo deep > src/a/l2/l3/l4/l5/g || framework_failure_
echo later > src/a/l2/zz || framework_failure_
outside_before=$(digest_outside) || framework_failure_
nofile=40
swap_run dst-released dst/a openat '*/dst/a/l2/l3/l4/l5/g' creat -a src dst
nofile=
expect dst-released 0 ''
test "$(cat dst/a.moved/l2/l3/l4/l5/g)" = deep \
  && test "$(cat dst/a.moved/l2/zz)" = later \
  || { echo "dst-released: the copy is not where it belongs"; fail=1; }

# Destination, after the source's listing, an existing directory of the
# destination replaced: cp finds a link where the directory goes, as
# GNU cp would without a race.
setup_tree
mkdir -p dst/a || framework_failure_
swap_run dst-after-listing dst/a closedir '*' '' -a src/. dst
mv ours.rc ours-race.rc && mv ours.err ours-race.err || framework_failure_
setup_tree
mkdir -p dst/a || framework_failure_
gnu_after_swap dst/a -a src/. dst
mv ours-race.rc ours.rc && mv ours-race.err ours.err || framework_failure_
expect dst-after-listing "$(cat gnu.rc)" "$(cat gnu.err)"

Exit $fail
