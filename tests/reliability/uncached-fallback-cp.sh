#!/bin/sh
# Where the kernel refuses uncached I/O (RWF_DONTCACHE), cp --uncached
# warns once, copies byte-exact, and drops what it copied from the page
# cache; forced to that fallback with CPDD_DONTCACHE=0, it does so
# without a word.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_
ours_has_option_ cp --uncached || skip_ "our cp has no --uncached"
fail=0

# Several times the 8 MiB the fallback keeps cached behind the copy.
head -c 48M /dev/urandom > src && sync src || framework_failure_

# The bytes of FILE in the page cache, if fincore can tell.
cached_ ()
{
  fincore --bytes --noheadings --output RES "$1" | tr -d ' '
}
check_cache=yes
if ! fincore --version > /dev/null 2>&1; then
  echo "note: no fincore: the page cache is not checked"
  check_cache=no
fi

# uncached_copy_ WHAT EXPECTED-ERR DROPPED CMD...
# Run CMD, which copies src to dst with our cp --uncached, and fail
# unless it succeeds with EXPECTED-ERR (a file) on standard error, the
# copy is byte-exact, and (where that can be checked) it left none of
# the files DROPPED (a list) in the page cache.
uncached_copy_ ()
{
  uc_what_=$1 uc_exp_=$2 uc_dropped_=$3; shift 3
  rm -f dst || framework_failure_
  # The source starts cached: the copy, not its absence, must drop it.
  cat src > /dev/null || framework_failure_
  uc_check_=$check_cache
  if test $uc_check_ = yes && test "$(cached_ src)" -lt $((40 << 20)); then
    echo "note: $uc_what_: src would not stay cached: cache not checked"
    uc_check_=no
  fi
  "$@" > uc.out 2> uc.err
  uc_rc_=$?
  test $uc_rc_ = 0 || { echo "$uc_what_: exit $uc_rc_"; fail=1; }
  compare /dev/null uc.out || fail=1
  compare "$uc_exp_" uc.err || { echo "$uc_what_: wrong messages"; fail=1; }
  # Before cmp, which reads both files into the cache.
  if test $uc_check_ = yes; then
    # Dropping is advice the kernel may not take for every page.
    for f in $uc_dropped_; do
      uc_cached_=$(cached_ $f)
      test "$uc_cached_" -le $((4 << 20)) \
        || { echo "$uc_what_: $uc_cached_ bytes of $f still cached"; fail=1; }
    done
  fi
  cmp src dst || { echo "$uc_what_: the copy differs"; fail=1; }
}

# A kernel without RWF_DONTCACHE refuses it on the first read.  A
# build without preadv2 and pwritev2 never asks, and uses the fallback
# without a word.
if cpdd_has_ HAVE_PREADV2 && cpdd_has_ HAVE_PWRITEV2; then
  cat > exp-src <<'EOF2'
cp: warning: uncached I/O not supported for 'src'; dropping copied data from the cache instead
EOF2
  sed 's/src/dst/' exp-src > exp-dst || framework_failure_
else
  : > exp-src && : > exp-dst || framework_failure_
fi
uncached_copy_ "cp --uncached, no RWF_DONTCACHE" exp-src 'src dst' \
  with_faults_ FAULT_DISABLE=preadv2,pwritev2 -- cp --uncached src dst

# A file system that takes it for reads but not for writes: the warning
# names the destination, and still comes once.  Reads with the flag
# may leave pages that were cached before in the cache.
uncached_copy_ "cp --uncached, no RWF_DONTCACHE for writes" exp-dst dst \
  with_faults_ FAULT_DISABLE=pwritev2 -- cp --uncached src dst

# The fallback chosen on purpose is silent.
uncached_copy_ "CPDD_DONTCACHE=0 cp --uncached" /dev/null 'src dst' \
  env CPDD_DONTCACHE=0 cp --uncached src dst

Exit $fail
