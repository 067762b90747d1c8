#!/bin/sh
# --uncached copies are byte-exact, whether the kernel takes
# RWF_DONTCACHE or the copy falls back to dropping pages behind itself,
# and leave neither file in the page cache on the work file system.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

for size in 0 1 4097 1048577 3000000; do
  head -c $size /dev/urandom > in || framework_failure_
  for dontcache in 1 0; do
    # With direct I/O on one end, uncached I/O applies to the other.
    for opts in '' --direct=in --direct=out --sparse=always; do
      rm -f out
      CPDD_DONTCACHE=$dontcache cp --uncached $opts --buffer-size=1M in out \
        || { echo "failed: size $size dontcache=$dontcache $opts"; fail=1; }
      cmp in out || { echo "differs: size $size $opts"; fail=1; }
    done
  done
done

# Page-cache residency, where fincore can tell and we may drop caches.
if command -v fincore > /dev/null && test -w /proc/sys/vm/drop_caches; then
  head -c 67108864 /dev/urandom > big || framework_failure_
  # With direct I/O on one end, the other is uncached.
  for opts in '' --direct=in --direct=out; do
    for dontcache in 1 0; do
      what="cp --uncached $opts, dontcache=$dontcache"
      rm -f out
      sync && echo 3 > /proc/sys/vm/drop_caches || framework_failure_
      CPDD_DONTCACHE=$dontcache cp --uncached $opts big out || fail=1
      cmp big out || { echo "$what: the copy differs"; fail=1; }
      # At most a few MiB may linger: the last window.  The check comes
      # after a second copy, since cmp read both files into the cache.
      sync && echo 3 > /proc/sys/vm/drop_caches || framework_failure_
      CPDD_DONTCACHE=$dontcache cp --uncached $opts big out2 || fail=1
      for f in big out2; do
        pages=$(fincore --bytes --noheadings --output RES "$f") \
          || framework_failure_
        test "$pages" -le 8388608 \
          || { echo "$what: $f: $pages bytes cached"; fail=1; }
      done
      rm -f out2
    done
  done
fi

# A file system without RWF_DONTCACHE (tmpfs) gets one warning and a
# correct copy.
shm=$(mktemp -d /dev/shm/cpdd-uncached.XXXXXX) || skip_ "no tmpfs"
head -c 100000 /dev/urandom > in || framework_failure_
cp --uncached in "$shm/out" 2> err || fail=1
cmp in "$shm/out" || fail=1
test $(wc -l < err) -le 1 || fail=1
rm -rf "$shm"

Exit $fail
