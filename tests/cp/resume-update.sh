#!/bin/sh
# With --resume, -u finishes a copy that an earlier run left newer
# than its source but unfinished: all its data there but not its
# times, or full size with holes where the source has data, even when
# the source has holes of its own.  A newer file with data of its own
# is kept, as -u keeps it, and so is everything without --resume.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/cp/resume-helpers.sh"

MiB=1048576
mkdir src || framework_failure_
head -c 3000000 /dev/urandom > src/dense || framework_failure_
# Data, a hole of 2 MiB, data.
head -c $MiB /dev/urandom > src/sparse || framework_failure_
head -c $MiB /dev/urandom \
  | dd of=src/sparse bs=$MiB seek=3 conv=notrunc status=none \
  || framework_failure_
touch -d '2001-02-03 04:05:06.5' src/dense src/sparse || framework_failure_
chmod 640 src/sparse || framework_failure_

# unfinished_ DIR: the copies an earlier run left in DIR and had not
# finished: dense with its data but the time of the copying, sparse
# full size with only its first MiB.
unfinished_ ()
{
  rm -rf "$1" && mkdir "$1" || framework_failure_
  cp src/dense "$1/dense" || framework_failure_
  dd if=src/sparse of="$1/sparse" bs=$MiB count=1 status=none \
    || framework_failure_
  truncate -s 4M "$1/sparse" || framework_failure_
}

# Without --resume, -u keeps both, as GNU cp does.
unfinished_ dst
cp -a -u -T src dst || fail=1
test "$(stat -c %Y dst/dense)" = "$(stat -c %Y src/dense)" \
  && { echo '-u without --resume set the time'; fail=1; }
cmp -s src/sparse dst/sparse && { echo '-u finished sparse'; fail=1; }

for opts in -a '-a --jobs=2'; do
  unfinished_ dst
  cp $opts -u --resume -T src dst || fail=1
  same_tree_ src dst || { echo "$opts -u --resume: not finished"; fail=1; }
done

# A newer file of the source's size with data of its own, in the
# middle only, is kept: it is not a copy of this source.
unfinished_ dst
printf 'edited' | dd of=dst/dense bs=1 seek=1500000 conv=notrunc \
  status=none || framework_failure_
cp dst/dense kept || framework_failure_
cp -a -u --resume -T src dst || fail=1
cmp kept dst/dense || { echo '-u --resume replaced an edited file'; fail=1; }
test "$(stat -c %Y dst/dense)" = "$(stat -c %Y src/dense)" \
  && { echo '-u --resume set the time of an edited file'; fail=1; }

Exit $fail
