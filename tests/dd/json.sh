#!/bin/sh
# status=json (a cpdd extension) prints the final statistics as one
# JSON object on standard error, and nothing else.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

head -c 5000 /dev/urandom > in || framework_failure_
printf 'a\nbbbb\n' > lines || framework_failure_

dd if=in of=out bs=1000 status=json 2> err || fail=1
cmp in out || fail=1
test "$(wc -l < err)" = 1 || fail=1
grep -E '^\{"records_in": \{"full": 5, "partial": 0\}, "records_out": \{"full": 5, "partial": 0\}, "truncated_records": 0, "bytes": 5000, "seconds": [0-9.]+, "bytes_per_second": [0-9]+\}$' err \
  || fail=1

dd if=lines of=out conv=block cbs=2 status=json 2> err || fail=1
grep '"records_in": {"full": 0, "partial": 1}, "records_out": {"full": 0, "partial": 1}, "truncated_records": 1, "bytes": 4,' err \
  || fail=1

# Perl, if it has a JSON parser, agrees that it is JSON.
if perl -MJSON::PP -e 1 2>/dev/null; then
  perl -MJSON::PP -e 'local $/; my $j = decode_json (<STDIN>);
                      exit ! ($j->{bytes} == 4)' < err || fail=1
fi

Exit $fail
