#!/bin/sh
# -u copies only onto a missing or older destination; --update=WHICH
# says which destinations are replaced, and how it combines with -i
# and -n; --debug says which files were skipped.

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
mkdir fix/g fix/g/new || framework_failure_
printf 'y\n' > yes.in || framework_failure_
printf 'n\n' > no.in || framework_failure_

diff_run_ newer-source cp -u new old
diff_run_ older-source cp -u old new
diff_run_ same-time cp -u same same2
diff_run_ missing cp -u old missing
diff_run_ verbose cp -uv new old
diff_run_ long cp --update old new
diff_run_ tree cp -ru d/. e

# Each value of --update, and its abbreviations.
for which in all none none-fail older a no none- o; do
  diff_run_ update-$which cp --update=$which new old
  diff_run_ update-$which-older cp --update=$which old new
  diff_run_ update-$which-missing cp --update=$which new missing
done
diff_run_ update-none-fail-tree cp -r --update=none-fail d/. e
diff_run_ update-none-tree cp -rv --update=none d/. e
diff_run_ update-none-fail-verbose cp -v --update=none-fail new old same
diff_run_ update-none-fail-parents cp --parents --update=none-fail d/f e

# The last --update or -u counts; -n keeps every destination whatever
# --update says.
diff_run_ none-then-all cp --update=none --update=all new old
diff_run_ all-then-none cp --update=all --update=none new old
diff_run_ none-then-u cp --update=none -u new old
diff_run_ none-fail-then-none cp --update=none-fail --update=none new old
diff_run_ none-then-none-fail cp --update=none --update=none-fail new old
diff_run_ n-then-all cp -n --update=all new old
diff_run_ all-then-n cp --update=all -n new old
diff_run_ n-then-none-fail cp -n --update=none-fail new old
diff_run_ none-fail-then-n cp --update=none-fail -n new old
diff_run_ none-fail-force cp -f --update=none-fail new old

# --update does not cancel -i, nor -i --update=none: -i asks only
# about the files --update would replace.
for opts in '-i -u' '-u -i' '-i --update=all' '-i --update=older' \
            '--update=none -i' '-i --update=none' '-i --update=none-fail' \
            '--update=none-fail -i' '-n --update=none -i'; do
  tag=$(printf '%s' "$opts" | tr -d ' =')
  for answer in yes no; do
    cp $answer.in i$tag-$answer.in || framework_failure_
    diff_run_ i$tag-$answer cp -v $opts new old
    cp $answer.in i$tag-$answer-older.in || framework_failure_
    diff_run_ i$tag-$answer-older cp -v $opts old new
  done
done

# A file given as its own destination, or a destination that is a
# directory, is skipped as any other by -n and --update=none, and
# refused by --update=none-fail, with no complaint about either.
for opts in -n --update=none --update=none-fail -u; do
  diff_run_ same$opts cp $opts same same
  diff_run_ dir$opts cp $opts new g
  diff_run_ dir-T$opts cp -T $opts new g/new
done
diff_run_ dir-none-fail-link cp -l --update=none-fail new old
diff_run_ dir-none-fail-symlink cp -sf --update=none-fail new old
diff_run_ dir-none-fail-remove cp --remove-destination --update=none-fail \
  new old

# Without -v, --debug names the files skipped, and only them here (the
# report of a copy's method is this build's own).
diff_run_ debug-n cp --debug -n new old
diff_run_ debug-none cp --debug --update=none new old
diff_run_ debug-none-fail cp --debug --update=none-fail new old
diff_run_ debug-u cp --debug -u old new
diff_run_ debug-tree cp -r --debug --update=none d/. e
cp no.in debug-i.in || framework_failure_
diff_run_ debug-i cp --debug -i new old

Exit $fail
