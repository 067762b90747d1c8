#!/bin/sh
# cp --atomic over existing files on the crash-simulating file system
# (CRASH-MODEL), alone and with --jobs=2: at every crash point, in every
# variant, each name holds the whole old file or the whole new one,
# never a missing, empty or partial file.  Temporary files left over
# are allowed; the same command with --resume then makes every file the
# new one and leaves none.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
. "$srcdir/tests/fs/crash-lib.sh"

mkdir -p old/sub new/sub || framework_failure_
names='a b c d e f g h i sub/j sub/k sub/l'
for n in $names; do
  printf 'old %s\n' $n > old/$n && head -c 150000 /dev/urandom > new/$n \
    || framework_failure_
done
head -c 300000 /dev/urandom > old/b && printf 'new b\n' > new/b \
  || framework_failure_

check_old_or_new () {
  for n in $names; do
    test -f $1/dst/$n && test ! -h $1/dst/$n \
      && { cmp -s old/$n $1/dst/$n || cmp -s new/$n $1/dst/$n; } \
      || { echo "$n: neither old nor new" >&2; return 1; }
  done
  cp -R --atomic --resume $jobs new/. $1/dst && diff -r new $1/dst >&2
}

for jobs in '' --jobs=2; do
  rm -rf mnt.back && mkdir mnt.back && cp -a old mnt.back/dst \
    || framework_failure_
  crash_mount_
  cp -R --atomic $jobs new/. mnt/dst || fail=1
  # Without a crash, every file is the new one.
  diff -r new mnt/dst || fail=1
  crash_unmount_
  crash_points_=0 crash_states_=0 crash_violations_=0
  crash_variants_='lost eager kill'
  crash_sweep_ check_old_or_new 1 $(($crash_last_ + 1))
  echo "cp --atomic $jobs: $(crash_summary_)"
  test $crash_violations_ = 0 || fail=1
done

Exit $fail
