#!/bin/sh
# cp without --preserve drops the set-user-ID and set-group-ID bits, for
# root and for an ordinary user, as GNU cp does, with every I/O method.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp

test "$(id -u)" = 0 || skip_ "making set-user-ID files of other users needs root"
command -v setpriv > /dev/null || skip_ "no setpriv to become another user"
nobody_group=$(id -gn nobody 2>/dev/null) || skip_ "no user nobody"
as_nobody="setpriv --reuid=nobody --regid=$nobody_group --clear-groups"

umask 022
# The test's own directory is private; nobody must get into it.
chmod a+x . || framework_failure_
mkdir work && chmod 777 work || framework_failure_
printf '#!/bin/sh\n' > work/src || framework_failure_
$as_nobody test -r work/src || skip_ "nobody cannot read the test directory"

for mode in 4755 2755 6755 2775 6777; do
  chmod $mode work/src || framework_failure_
  for user in root nobody; do
    run=; test $user = nobody && run=$as_nobody
    rm -f work/gnu || framework_failure_
    $run "$gnu_dir_/cp" work/src work/gnu || framework_failure_
    want=$(stat -c '%a %U %G' work/gnu) || framework_failure_
    for method in $rel_methods_; do
      opts=$(cp_xfer_opts_ $method none)
      ours_accepts_ work cp $opts || continue
      rm -f work/ours || framework_failure_
      $run "$ours_dir_/cp" $opts work/src work/ours \
        || { echo "cp $opts as $user of mode $mode failed"; fail=1; }
      got=$(stat -c '%a %U %G' work/ours) || { fail=1; continue; }
      test "$got" = "$want" \
        || { echo "cp $opts as $user of mode $mode: $got, GNU: $want"; fail=1; }
    done
  done
done

Exit $fail
