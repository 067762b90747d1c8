#!/bin/sh
# -u: a name of a hard-link group skipped as up to date still counts as
# the group's copy, so that the group's later names are linked to it.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/s fix/t/s fix/u || framework_failure_
printf 'f\n' > fix/s/f || framework_failure_
for n in linkm linke fileo fileu; do
  ln fix/s/f fix/s/$n || framework_failure_
done
: > fix/t/s/f || framework_failure_
ln fix/t/s/f fix/t/s/linke || framework_failure_
touch -d '2000-01-01' fix/t/s/fileo || framework_failure_
touch -d '2030-01-01' fix/t/s/fileu || framework_failure_
printf 'a\n' > fix/a || framework_failure_
ln fix/a fix/ha || framework_failure_
ln fix/a fix/ha2 || framework_failure_
for n in a ha ha2; do
  printf 'old %s\n' $n > fix/u/$n || framework_failure_
done
touch -d '2030-01-01' fix/u/a fix/u/ha fix/u/ha2 || framework_failure_

diff_run_ tree cp -au s t
diff_run_ tree-verbose cp -auv s t
diff_run_ operands cp -u a ha ha2 u
diff_run_ operands-verbose cp -uv a ha ha2 u
diff_run_ operands-a cp -au a ha u
diff_run_ first-copied sh -c 'rm u/a && cp -auv a ha ha2 u'
diff_run_ middle-older sh -c 'touch -d 2000-01-01 u/ha && cp -auv a ha ha2 u'
# --debug says a name is skipped after it is linked to the group's
# copy; --update=none and -n keep every name as it is.
diff_run_ operands-debug cp -a --debug -u a ha ha2 u
diff_run_ operands-none cp -a --update=none a ha ha2 u
diff_run_ operands-no-clobber cp -a -n a ha ha2 u

Exit $fail
