#!/bin/sh
# hash= and hashlog= (cpdd extensions): the digest of the data dd
# writes, after conv=, skip=, seek= and count=, with holes as zeros,
# checked against the coreutils and xxhash checksum programs; the lines
# are those "sha256sum -c" reads back, also for names that need
# escaping; status=json carries them; bad algorithms and logs fail as
# operands do.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

# The program that checks ALGO's digests, with its options.
checker_ ()
{
  case $1 in
    xxh64) echo 'xxhsum -H1' ;;
    xxh128) echo 'xxhsum -H2' ;;
    *) echo "${1}sum" ;;
  esac
}

# The digest of standard input by ALGO, as its checker prints it.
want_ ()
{
  $(checker_ $1) | sed 's/ .*//'
}

# The digest dd printed for ALGO in the statistics on file ERR.
got_ ()
{
  sed -n "s/^$(echo $1 | tr a-z A-Z) (.*) = //p" "$2"
}

algos='md5 sha1 sha224 sha256 sha384 sha512'
if command -v xxhsum > /dev/null 2>&1; then
  dd if=/dev/null hash=xxh128 status=none 2> /dev/null \
    && algos="$algos xxh64 xxh128"
else
  echo "xxhsum is missing: not checking xxh64 and xxh128" >&2
fi
list=$(echo $algos | tr ' ' ,)

head -c 300000 /dev/urandom > in || framework_failure_
printf 'Some Text\nin Lines\n' > text || framework_failure_
{ head -c 70000 /dev/urandom; head -c 200000 /dev/zero; printf z; } \
  > zeros || framework_failure_

# check_ NAME EXPECTED-FILE DD-OPERAND...: run dd with every algorithm
# and compare each digest with that of EXPECTED-FILE's bytes.
check_ ()
{
  name=$1 expected=$2; shift 2
  dd "$@" hash=$list 2> $name.err || { cat $name.err; fail=1; return; }
  for a in $algos; do
    want=$(want_ $a < $expected) && got=$(got_ $a $name.err) \
      || framework_failure_
    test "$want" = "$got" \
      || { echo "$name $a: $got, not $want"; cat $name.err; fail=1; }
  done
}

check_ plain in if=in of=out bs=4096
check_ empty /dev/null if=/dev/null of=out
tr a-z A-Z < text > text.upper || framework_failure_
check_ ucase-right text.upper if=text of=out conv=ucase
head -c 5000 in > small || framework_failure_
check_ reblock small if=small of=out ibs=7 obs=1000
# skip= and count= choose what is written.
tail -c +1025 in | head -c 2048 > part || framework_failure_
check_ skip-count part if=in of=out bs=512 skip=2 count=4
# seek= hashes only what this dd wrote, not what it passed over.
cp in out || framework_failure_
check_ seek small if=small of=out seek=3 bs=1000 conv=notrunc
# conv=sparse makes holes; they hash as the zeros they read as.
check_ sparse zeros if=zeros of=out bs=4096 conv=sparse
test "$(stat -c %b out)" -lt 400 \
  || echo "conv=sparse made no holes here; hashed anyway" >&2
# To a pipe, and the name there is "-".
dd if=in bs=1000 hash=sha256 2> pipe.err | sha256sum > pipe.want \
  || framework_failure_
grep -q '^SHA256 (-) = ' pipe.err || { cat pipe.err; fail=1; }
test "$(got_ sha256 pipe.err)" = "$(sed 's/ .*//' pipe.want)" || fail=1

# hashlog= takes the lines, which the checkers accept; the statistics
# stay as they are.
dd if=in of=logged hash=$list hashlog=log 2> log.err || fail=1
grep -q ' = ' log.err && { echo "hashes printed as well as logged"; fail=1; }
grep -q 'records out' log.err || fail=1
test "$(wc -l < log)" = "$(echo $algos | wc -w)" || fail=1
for a in $algos; do
  grep "^$(echo $a | tr a-z A-Z) " log > log.$a || framework_failure_
  $(checker_ $a | sed 's/ -H.//') -c log.$a > /dev/null \
    || { echo "$a: its checker refuses the logged line"; fail=1; }
done

# A name with a backslash and a newline: the line is escaped so that
# sha256sum -c finds the file.
nl='
'
odd="a\\b${nl}c"
dd if=in of="$odd" hash=sha256 hashlog=odd.log status=none || fail=1
sha256sum -c odd.log > /dev/null || { cat odd.log; fail=1; }

# status=none leaves only the hashes; status=json carries them.
dd if=in of=out hash=md5 status=none 2> none.err || fail=1
test "$(wc -l < none.err)" = 1 && grep -q '^MD5 (out) = ' none.err \
  || { cat none.err; fail=1; }
dd if=in of=out hash=sha256,md5 status=json 2> json.err || fail=1
want=$(sha256sum < in | sed 's/ .*//')
grep -q "\"hashes\": {\"sha256\": \"$want\", \"md5\": \"" json.err \
  || { cat json.err; fail=1; }
test "$(wc -l < json.err)" = 1 || { cat json.err; fail=1; }

# Errors: as for any operand's bad value, and a log that cannot be
# made stops dd before it copies anything.
returns_ 1 dd if=in of=out hash=sha256,crc 2> bad.err || fail=1
printf '%s\n' "dd: invalid hash algorithm: 'crc'" \
  "Try 'dd --help' for more information." > bad.want || framework_failure_
compare bad.want bad.err || fail=1
returns_ 1 dd if=in of=out hash= 2> empty.err || fail=1
grep -q "^dd: invalid hash algorithm: ''$" empty.err || fail=1
rm -f never || framework_failure_
returns_ 1 dd if=in of=never hash=md5 hashlog=no/such/dir/log 2> log.err \
  || fail=1
grep -q "^dd: failed to open 'no/such/dir/log': No such file or directory$" \
  log.err || { cat log.err; fail=1; }
if test -w /dev/full; then
  returns_ 1 dd if=in of=out hash=md5 hashlog=/dev/full 2> full.err \
    || fail=1
  grep -q "^dd: error writing '/dev/full': No space left on device$" \
    full.err || { cat full.err; fail=1; }
fi

Exit $fail
