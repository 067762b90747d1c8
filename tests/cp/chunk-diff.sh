#!/bin/sh
# cp --jobs copies a large file in ranges, concurrently: the result is
# GNU cp's, content, size and holes, whatever the file's length is in
# ranges, and with every I/O method, direct and uncached I/O.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
# Our cp runs with 3 workers (diff-helpers.sh wraps it), and splits
# files into ranges of 1 MiB: CPDD_CHUNK_SIZE is a knob for the tests
# only.
CPDD_TEST_JOBS=3
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

MiB=1048576

# Print the data extents of FILE (SEEK_DATA / SEEK_HOLE), one per line.
extents_ ()
{
  python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
end = os.fstat(fd).st_size
pos = 0
while pos < end:
    try:
        data = os.lseek(fd, pos, os.SEEK_DATA)
    except OSError:
        break
    hole = os.lseek(fd, data, os.SEEK_HOLE)
    print(data, hole)
    pos = hole
print("size", end)' "$1"
}

mkdir fix || framework_failure_
# Exactly 3 ranges, 3 ranges and 1 byte, less than a range, nothing.
head -c $((3 * MiB)) /dev/urandom > fix/exact || framework_failure_
head -c $((3 * MiB + 1)) /dev/urandom > fix/plus1 || framework_failure_
head -c 100000 /dev/urandom > fix/small || framework_failure_
: > fix/empty || framework_failure_
# Holes: data in the first range, none in the second (an empty
# range), data across the third and fourth, and a hole at the end.
truncate -s $((6 * MiB)) fix/sparse || framework_failure_
for at in 4096 $((2 * MiB + 5000)) $((3 * MiB - 100)) $((4 * MiB - 10)); do
  head -c 20000 /dev/urandom \
    | dd of=fix/sparse bs=1 seek=$at conv=notrunc status=none \
    || framework_failure_
done
# Runs of ranges that are all hole, skipped together.
truncate -s $((40 * MiB + 7)) fix/far || framework_failure_
printf a | dd of=fix/far bs=1 seek=100 conv=notrunc status=none \
  && printf b | dd of=fix/far bs=1 seek=$((33 * MiB + 5)) conv=notrunc \
       status=none || framework_failure_
# Zeros written out, in and across ranges, for --sparse=always.
{ head -c $((MiB / 2)) /dev/urandom && head -c $((2 * MiB)) /dev/zero \
    && head -c 300000 /dev/urandom && head -c $MiB /dev/zero; } \
  > fix/zeros || framework_failure_

files='exact plus1 small empty sparse far zeros'
# The same files again in a directory, to copy as a tree (into a
# directory the copy makes, where workers open and create each file).
mkdir fix/tree || framework_failure_
for f in $files; do
  ln fix/$f fix/tree/$f || framework_failure_
done

for f in $files; do
  diff_run_ plain-$f cp $f out
  diff_run_ always-$f cp --sparse=always $f out
  diff_run_ never-$f cp --sparse=never $f out
done
diff_run_ archive cp -a . ../archive-out
diff_run_ tree cp -r tree tree-copy

# The holes are where GNU cp leaves them.
for f in sparse far zeros; do
  for how in plain always never; do
    extents_ $how-$f.gnu/out > gnu.ext || framework_failure_
    extents_ $how-$f.ours/out > ours.ext || framework_failure_
    compare gnu.ext ours.ext || { echo "$how-$f: holes differ"; fail=1; }
  done
done

# cpdd's own options, against GNU cp's copy with the same holes.
cp="$ours_dir_/cp"
for opts in --direct --uncached --io-method=auto --io-method=read \
            --io-method=mmap --io-method=offload \
            '--direct --sparse=always' '--uncached --sparse=always' \
            '--io-method=mmap --sparse=always' '--direct --io-method=mmap' \
            '--io-method=offload --sparse=never'; do
  sparse=auto
  case $opts in *--sparse=*) sparse=${opts##*--sparse=} ;; esac
  for f in $files; do
    rm -f ours gnu || framework_failure_
    "$gnu_dir_/cp" --sparse=$sparse fix/$f gnu || framework_failure_
    "$cp" $opts fix/$f ours 2> err
    rc=$?
    # Direct I/O may be refused by the file system, and RWF_DONTCACHE
    # by it or the kernel (before Linux 6.14, or qemu-user): one
    # warning, not one per range.
    grep -v -e '^cp: warning: direct I/O not supported' \
      -e '^cp: warning: uncached I/O not supported' err > err2
    test $rc = 0 && ! test -s err2 && test $(grep -c . err) -le 2 \
      || { echo "cp $opts $f: status $rc"; cat err; fail=1; }
    cmp gnu ours || { echo "cp $opts $f: content differs"; fail=1; }
    case $f in
      sparse|far|zeros)
        extents_ gnu > gnu.ext && extents_ ours > ours.ext \
          || framework_failure_
        compare gnu.ext ours.ext || { echo "cp $opts $f: holes differ"; fail=1; }
    esac
  done
done

# The files of a range or more are copied in ranges, the others in one
# go.
for f in $files; do
  rm -f ours || framework_failure_
  "$cp" --debug fix/$f ours > debug || fail=1
  case $f in
    exact) want='ranges: 3' ;;
    plus1) want='ranges: 4' ;;
    sparse) want='ranges: 6' ;;
    far) want='ranges: 41' ;;
    zeros) want='ranges: 4' ;;
    *) want= ;;
  esac
  got=$(grep -o 'ranges: [0-9]*' debug)
  test "$got" = "$want" || { echo "$f: '$got', not '$want'"; fail=1; }
done

# So are they in a tree, where a worker opens and creates a file in a
# directory the copy made.
rm -rf tree-out || framework_failure_
"$cp" -r --debug fix/tree tree-out > debug || fail=1
grep -o 'ranges: [0-9]*' debug | LC_ALL=C sort > got || framework_failure_
printf 'ranges: %s\n' 3 4 4 41 6 > want || framework_failure_
compare want got || { echo "a tree's large files not in ranges"; fail=1; }

# --stats counts each byte of the ranges once.
rm -f ours || framework_failure_
"$cp" --stats=json fix/plus1 ours 2> stats || fail=1
grep "\"bytes\": $((3 * MiB + 1))[,}]" stats \
  || { echo "--stats miscounts a file in ranges:"; cat stats; fail=1; }

Exit $fail
