#!/bin/sh
# -u copies only onto a missing or older destination.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix || framework_failure_
printf 'new\n' > fix/new || framework_failure_
printf 'old\n' > fix/old || framework_failure_
printf 'same\n' > fix/same || framework_failure_
printf 'same2\n' > fix/same2 || framework_failure_
touch -d '2000-01-01' fix/old || framework_failure_
touch -d '2010-01-01' fix/new || framework_failure_
touch -d '2005-01-01 00:00:00.5' fix/same fix/same2 || framework_failure_
mkdir fix/d fix/e || framework_failure_
printf 'd\n' > fix/d/f || framework_failure_
printf 'e\n' > fix/e/f || framework_failure_
touch -d '2020-01-01' fix/e/f || framework_failure_

diff_run_ newer-source cp -u new old
diff_run_ older-source cp -u old new
diff_run_ same-time cp -u same same2
diff_run_ missing cp -u old missing
diff_run_ verbose cp -uv new old
diff_run_ long cp --update old new
diff_run_ tree cp -ru d/. e

Exit $fail
