#!/bin/sh
# dd --help: it succeeds like GNU's, names every operand, conv= word,
# flag and status level dd accepts (and dd accepts every word it
# names), and says it all in cpdd's own words: no line but the usage
# lines is GNU dd's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

diff_run_ help-status sh -c 'dd --help > /dev/null'

dd --help > help 2> err || fail=1
compare /dev/null err || fail=1

# The words of each list, as dd accepts them.
operands='if of ibs obs bs cbs count skip iseek seek oseek conv iflag oflag
  status'
convs='ascii ebcdic ibm block unblock lcase ucase sparse swab sync excl
  nocreat notrunc noerror fdatasync fsync'
flags='append direct directory dsync sync fullblock mmap nonblock noatime
  nocache noctty nofollow count_bytes skip_bytes seek_bytes'
levels='none noxfer progress json'

for op in $operands; do
  grep -E "(^| )$op=" help > /dev/null \
    || { echo "--help lacks operand $op=" >&2; fail=1; }
done
for word in $convs $flags $levels; do
  grep -E "^ +$word " help > /dev/null \
    || { echo "--help lacks the word $word" >&2; fail=1; }
done
grep -E -e '--help ' help > /dev/null || fail=1
grep -E -e '--version ' help > /dev/null || fail=1

# Each word listed is one dd knows (none is refused as invalid).
for word in $convs; do
  dd if=/dev/null of=out conv=$word cbs=1 2> err
  grep 'invalid' err && { echo "conv=$word refused" >&2; fail=1; }
  rm -f out
done
for word in $flags; do
  dd if=/dev/null iflag=$word count=0 2> err
  grep 'invalid' err && { echo "iflag=$word refused" >&2; fail=1; }
done
for word in $levels; do
  dd if=/dev/null status=$word 2> err || fail=1
  grep 'invalid' err && { echo "status=$word refused" >&2; fail=1; }
done

# Our own words: compare with GNU's help line by line, blanks squeezed.
squeeze_ () { sed -e 's/^ *//' -e 's/  */ /g' -e '/^$/d' -e '/^Usage:/d' \
                  -e '/^or: /d'; }
"$gnu_dir_/dd" --help | squeeze_ | sort -u > gnu-lines || framework_failure_
squeeze_ < help | sort -u > our-lines || framework_failure_
comm -12 gnu-lines our-lines > shared || framework_failure_
compare /dev/null shared || fail=1

Exit $fail
