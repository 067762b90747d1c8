#!/bin/sh
# dd's hashlog= never costs data and its lines hold: a log that cannot
# be made stops dd before of= is opened, let alone emptied; hashlog=
# alone hashes with sha256; with conv=sparse,notrunc the hash is of
# the bytes the output holds, old ones kept under holes included.  And
# gnulib's messages start "dd: " however dd was invoked, as GNU's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"

# Finding 3: an uncreatable log leaves of= alone.
echo precious > img || framework_failure_
head -c 4096 /dev/urandom > in || framework_failure_
returns_ 1 dd if=in of=img hash=sha256 hashlog=/nonexistent/log \
  status=none 2> err || fail=1
test "$(cat img)" = precious || fail=1
grep "failed to open '/nonexistent/log'" err > /dev/null || fail=1

# Finding 7: hashlog= alone logs sha256; an unwritable one fails.
dd if=in of=out hashlog=log status=none || fail=1
grep '^SHA256 (out) = ' log > /dev/null || { cat log; fail=1; }
sha256sum -c --quiet log || fail=1
if test -w /dev/full; then
  returns_ 1 dd if=in of=out hashlog=/dev/full status=none 2> err || fail=1
  grep "error writing '/dev/full'" err > /dev/null || { cat err; fail=1; }
fi

# Finding 5: a block of zeros seeked over keeps what the output held,
# and the hash is of that; the same where the output can only be
# written (standard output opened write-only, of= read again), and
# where there was nothing before (the zeros).
{ head -c 4096 /dev/urandom; head -c 4096 /dev/zero;
  head -c 4096 /dev/urandom; } > zin || framework_failure_
head -c 12288 /dev/urandom > old || framework_failure_
cp old old2 && cp old old3 || framework_failure_
dd if=zin of=old bs=4096 conv=sparse,notrunc hash=sha256 hashlog=old.sum \
  status=none || fail=1
sha256sum -c --quiet old.sum || { cat old.sum; fail=1; }
cmp old zin > /dev/null && { echo "old data not kept" >&2; fail=1; }
dd if=zin bs=4096 conv=sparse,notrunc hash=md5 hashlog=old2.md5 \
  status=none 1<> old2 || fail=1
sed 's/(-)/(old2)/' old2.md5 > old2.sum && md5sum -c --quiet old2.sum \
  || { cat old2.md5; fail=1; }
dd if=zin of=old3 bs=4096 seek=1 conv=sparse,notrunc hash=sha256 \
  status=none 2> err || fail=1
want=$( (dd if=old3 bs=4096 skip=1 count=3 status=none) | sha256sum \
        | cut -d' ' -f1)
grep "= $want\$" err > /dev/null || { cat err; echo "want $want"; fail=1; }
dd if=zin of=fresh bs=4096 conv=sparse hash=sha256 hashlog=fresh.sum \
  status=none || fail=1
sha256sum -c --quiet fresh.sum || fail=1

# Finding 8: gnulib's diagnostics with the short name.
mkdir bin && ln -s "$abs_top_builddir/src/dd" bin/dd || framework_failure_
returns_ 1 "$PWD/bin/dd" if=in of=out conv=nosuch 2> err || fail=1
sed -n 1p err | grep "^dd: invalid conversion" > /dev/null \
  || { cat err; fail=1; }
if test -w /dev/full; then
  returns_ 1 "$PWD/bin/dd" --help > /dev/full 2> err || fail=1
  grep "^dd: write error" err > /dev/null || { cat err; fail=1; }
fi

Exit $fail
