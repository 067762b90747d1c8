#!/bin/sh
# The crash model itself (CRASH-MODEL): the states that calls of known
# effect leave on the crash-simulating file system, in each variant.
# Unsynced data is lost, synced data kept; names are lost until their
# directory is synced ("lost") or kept at once ("eager"); a size set
# by truncate is kept in "eager", its unsynced data reading as zeros;
# "kill" keeps everything done.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/fs/fs-helpers.sh"
. "$srcdir/tests/fs/crash-lib.sh"

mkdir mnt.back && printf old > mnt.back/old || framework_failure_
crash_mount_
printf a > mnt/a && printf b > mnt/b && sync mnt/b || framework_failure_
crash_mark_; m1=$crash_at_
sync mnt || framework_failure_
crash_mark_; m2=$crash_at_
mv mnt/b mnt/c && truncate -s 4 mnt/c && printf x > mnt/old \
  || framework_failure_
crash_unmount_; m3=$(($crash_last_ + 1))

# Each name in the state, with its content, zero bytes shown as 0.
describe () {
  (cd $1 && for f in *; do printf '%s=%s ' $f "$(tr '\0' 0 < $f)"; done)
}
while read n variant want; do
  rm -rf st && perl "$crash_tool_" crash.journal $(eval echo \$$n) \
    $variant st || framework_failure_
  got=$(describe st)
  test "$got" = "$want " \
    || { echo "$n $variant: got '$got', want '$want '"; fail=1; }
done <<\END
m1 lost  old=old
m1 eager a= b=b old=old
m1 kill  a=a b=b old=old
m2 lost  a= b=b old=old
m2 eager a= b=b old=old
m3 lost  a= b=b old=old
m3 eager a= c=b000 old=
m3 kill  a=a c=b000 old=x
END

Exit $fail
