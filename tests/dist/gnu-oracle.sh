#!/bin/sh
# tests/gnu-oracle builds the release it is given once, keeps it in the
# cache, refuses a build without ACL or xattr support, and says in one
# line why there is no oracle; the differential tests skip with that
# line.  A stand-in source tarball takes the place of GNU's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
oracle=$abs_top_srcdir/tests/gnu-oracle

# make_tarball_ NAME FEATURES: a source tree whose configure writes
# FEATURES into lib/config.h and whose make makes src/cp and src/dd
# that say their version, counting the builds in $PWD/builds.
make_tarball_ ()
{
  rm -rf "$1" && mkdir -p "$1/lib" "$1/src" || framework_failure_
  printf '#!/bin/sh\nprintf "%%s\\n" %s > lib/config.h\n' "$2" \
    > "$1/configure" && chmod +x "$1/configure" || framework_failure_
  printf 'all:\n\techo built >> %s/builds\n' "$PWD" > "$1/Makefile" \
    || framework_failure_
  for p in cp dd; do
    printf '\tprintf "#!/bin/sh\\\\necho %s 9.10\\\\n" > src/%s\n' $p $p
    printf '\tchmod +x src/%s\n' $p
  done >> "$1/Makefile" || framework_failure_
  tar -cf "$1.tar" "$1" || framework_failure_
}

features="'#define USE_ACL 1' '#define USE_XATTR 1'"
make_tarball_ coreutils-9.10 "$features"
export CPDD_UPSTREAM_CACHE=$PWD/cache
CPDD_UPSTREAM_TARBALL=$PWD/coreutils-9.10.tar sh "$oracle" 9.10-1 \
  > dir 2> err || fail=1
echo "$PWD/cache/coreutils-9.10-1/cpdd-oracle" > exp-dir
compare exp-dir dir || fail=1
"$(cat dir)/dd" > version || fail=1
echo 'dd 9.10' > exp-version
compare exp-version version || fail=1

# Once built, it is not built again, and --tree names the tree.
sh "$oracle" --tree 9.10-1 > tree || fail=1
echo "$PWD/cache/coreutils-9.10-1" > exp-tree
compare exp-tree tree || fail=1
echo built > exp-builds
compare exp-builds builds || fail=1

# GNU's cp built without xattr support would disagree with ours.
make_tarball_ noxattr "'#define USE_ACL 1'"
returns_ 1 env CPDD_UPSTREAM_TARBALL=$PWD/noxattr.tar \
  sh "$oracle" 9.9-1 > out 2> err || fail=1
compare /dev/null out || fail=1
echo "gnu-oracle: GNU's build found no xattr support" \
  "(install libattr1-dev)" > exp-err
tail -n 1 err > last-err || framework_failure_
compare exp-err last-err || fail=1

# What cannot be had is said in one line, the last, which the harness
# hands the tests.
returns_ 1 env CPDD_UPSTREAM_TARBALL=$PWD/missing.tar \
  sh "$oracle" 9.8-1 > out 2> err || fail=1
test "$(wc -l < err)" = 1 || fail=1
grep '^gnu-oracle: cannot unpack .*/missing.tar: .*No such file' err \
  > /dev/null || fail=1

# A test that compares with GNU skips with that line.
( trap - 0
  gnu_oracle='no GNU here, for this test'
  . "$abs_top_srcdir/tests/diff-helpers.sh"
  require_gnu_ cp ) > skip-out 2>&1
test $? = 77 || fail=1
grep 'no GNU cp to compare with: no GNU here, for this test' skip-out \
  > /dev/null || fail=1

Exit $fail
