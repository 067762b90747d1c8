#!/bin/sh
# cp --print-hash, --hash-file, --verify and --fsync (cpdd extensions):
# the lines printed are those the checksum programs print for the
# copies, for every method and for empty, sparse and ranged files;
# --verify passes good copies and catches a byte turned over on its way
# to storage, or in the copy before it is read back, with every method;
# bad arguments fail as GNU's argmatch options do.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"

# The program that prints ALGO's lines, with its options.
checker_ ()
{
  case $1 in
    xxh64) echo 'xxhsum -H1' ;;
    xxh128) echo 'xxhsum -H2' ;;
    *) echo "${1}sum" ;;
  esac
}

algos='sha256 md5'
if command -v xxhsum > /dev/null 2>&1 \
   && cp --print-hash=xxh128 --help > /dev/null 2>&1; then
  algos="$algos xxh128"
else
  echo "no xxhsum, or no xxh128 in this cp: not checking xxh128" >&2
fi

mkdir src || framework_failure_
head -c 3000000 /dev/urandom > src/dense || framework_failure_
: > src/empty || framework_failure_
printf 'a few bytes\n' > src/small || framework_failure_
truncate -s 5M src/holey \
  && printf x | dd of=src/holey bs=1 seek=1000000 conv=notrunc status=none \
  && printf y | dd of=src/holey bs=1 seek=4000000 conv=notrunc status=none \
  || framework_failure_
files='dense empty small holey'

# Every way cp can move the data that works here without a warning
# (direct I/O needs a build and a file system with it); --jobs=2 with
# 1 MiB ranges would split dense and holey, were a hash not asked for.
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE
methods=
for m in --io-method=auto --io-method=read --io-method=mmap \
         --io-method=offload --direct --uncached --reflink=never \
         --sparse=always --sparse=never --jobs=2; do
  rm -f probe || framework_failure_
  if cp $m src/dense probe > probe.out 2>&1 && ! test -s probe.out; then
    methods="$methods $m"
  else
    echo "cp $m says something here: not checked" >&2
  fi
done

n=0
for a in $algos; do
  for m in $methods; do
    n=$((n + 1))
    out=out$n
    mkdir $out || framework_failure_
    (cd src && cp $m --print-hash=$a $files ../$out) > $out.lines 2> $out.err \
      || { echo "$m $a: exit $?"; cat $out.err; fail=1; }
    test -s $out.err && { echo "$m $a: said something"; cat $out.err; fail=1; }
    (cd src && $(checker_ $a) $(for f in $files; do echo ../$out/$f; done)) \
      > $out.want 2> /dev/null || framework_failure_
    compare $out.want $out.lines || { echo "$m $a: lines differ"; fail=1; }
  done
done

# --hash-file takes the lines, which the checker then accepts.
mkdir logged || framework_failure_
cp --hash-file=sums src/dense src/holey logged > logged.out || fail=1
test -s logged.out && fail=1
sha256sum -c sums > /dev/null || { cat sums; fail=1; }

# A name with a backslash is escaped as sha256sum escapes it.
cp --print-hash src/small 'back\slash' > odd.lines || fail=1
sha256sum 'back\slash' > odd.want || framework_failure_
compare odd.want odd.lines || fail=1

# --verify: good copies pass with every method, and --debug says how
# the hash was taken and how the copy was read back.
for m in $methods; do
  rm -rf v && mkdir v || framework_failure_
  cp $m --verify src/dense src/holey src/empty v 2> v.err \
    || { echo "--verify $m: exit $?"; cat v.err; fail=1; }
  test -s v.err && { cat v.err; fail=1; }
done
cp --debug --verify --io-method=read src/dense d1 > d1.out || fail=1
grep -q ', hash: as copied, read back: ' d1.out || { cat d1.out; fail=1; }
cp --debug --verify --io-method=offload src/dense d2 > d2.out || fail=1
grep -qE ', hash: (as copied|source read again), read back: ' d2.out \
  || { cat d2.out; fail=1; }
# --verify alone splits a large file into ranges, which check
# themselves, holes and all.
cp --debug --verify --jobs=2 src/dense src/holey . > d3.out \
  && mkdir d3 && mv dense holey d3 || fail=1
grep -qE ', ranges: 3, hash: as copied, read back: ' d3.out \
  || { cat d3.out; fail=1; }
grep -qE ', ranges: 5, hash: as copied, read back: ' d3.out \
  || { cat d3.out; fail=1; }

# A byte turned over on its way to storage, with the methods that write
# through the process, or in the copy before it is read back, with
# every method: --verify fails with the names of both files, and keeps
# the copy.
shim=${abs_top_builddir-$PWD/..}/tests/shim/faultshim.so
corrupt_ ()
{
  if ! test -f "$shim"; then
    echo "tests/shim/faultshim.so was not built: no corruption $1 $2" >&2
    return
  fi
  how=$1; shift
  rm -f bad || framework_failure_
  env LD_PRELOAD="$shim" FAULT_MODE=corrupt FAULT_AT=1234567 \
    FAULT_FD_PATH='*/bad' FAULT_OP=$how \
    cp "$@" --verify src/dense bad 2> bad.err
  status=$?
  test $status = 1 || { echo "corrupt $how $*: exit $status"; fail=1; }
  printf "cp: 'bad' differs from 'src/dense' when read back\n" > bad.want \
    || framework_failure_
  compare bad.want bad.err || { echo "corrupt $how $*"; fail=1; }
  cmp -s src/dense bad && { echo "corrupt $how $*: not corrupted"; fail=1; }
  test -f bad || { echo "corrupt $how $*: copy removed"; fail=1; }
}
for m in --io-method=read --io-method=mmap --direct --uncached --jobs=2; do
  case " $methods " in
    *" $m "*) corrupt_ write,pwrite,pwritev2 $m ;;
  esac
done
# With --jobs each range is read back on its own, as soon as it is
# copied: a byte turned over when one range is read back may since
# have been written again by another, so only writes are corrupted.
for m in $methods; do
  test "$m" = --jobs=2 || corrupt_ open $m
done

# A device has no data to hash, read back or sync: it is written to
# as usual.
cp --verify --print-hash --fsync src/dense /dev/null > null.out 2>&1 \
  || fail=1
test -s null.out && { cat null.out; fail=1; }

# Bad arguments.
returns_ 1 cp --print-hash=crc32 src/small x 2> crc.err || fail=1
head -n 1 crc.err > crc.first || framework_failure_
printf "cp: invalid argument 'crc32' for '--print-hash'\n" > crc.want \
  || framework_failure_
compare crc.want crc.first || fail=1
returns_ 1 cp --print-hash=md5 --verify=sha256 src/small x 2> two.err \
  || fail=1
printf 'cp: --print-hash and --verify must use the same algorithm\n' \
  > two.want || framework_failure_
compare two.want two.err || fail=1
returns_ 1 cp --hash-file=no/dir/sums src/small x 2> nodir.err || fail=1
printf "cp: failed to open 'no/dir/sums': No such file or directory\n" \
  > nodir.want || framework_failure_
compare nodir.want nodir.err || fail=1
if test -w /dev/full; then
  returns_ 1 cp --hash-file=/dev/full src/small x 2> full.err || fail=1
  printf "cp: error writing '/dev/full': No space left on device\n" \
    > full.want || framework_failure_
  compare full.want full.err || fail=1
fi

Exit $fail
