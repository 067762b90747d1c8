#!/bin/sh
# cp --failed=FILE lists the sources that failed, each followed by a
# NUL, so that a later run fed the list by xargs -0 copies them once
# the cause is gone.  The line "N of M files were not copied" ends a
# run that failed when a reporting option was given or standard error
# is a terminal, and never else: then standard error is GNU's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_

mkdir -p s/x/y || framework_failure_
for f in a b c fail1; do echo $f > s/$f || framework_failure_; done
for f in d fail2; do echo $f > s/x/$f || framework_failure_; done
for f in e fail3 g; do echo $f > s/x/y/$f || framework_failure_; done
nl='
'
echo n > "s/x/fail${nl}4" || framework_failure_

# Read errors on four files; the rest of the tree is copied.  With
# workers too.
for jobs in 1 2; do
  rm -rf dst && mkdir dst || framework_failure_
  with_faults_ FAULT_OP=$rel_read_ops_ FAULT_FD_PATH='*/fail*' \
    FAULT_MODE=eio FAULT_DISABLE=copy_file_range -- \
    cp -r --jobs=$jobs --failed=failed s dst > out 2> err
  test $? = 1 || { echo "jobs=$jobs: not exit 1"; fail=1; }
  # Each name followed by a NUL, the last one too.
  test "$(tail -c 1 failed | od -An -c | tr -d ' ')" = '\0' \
    || { echo "jobs=$jobs: the list does not end with a NUL"; fail=1; }
  tr '\0\n' '\n|' < failed | sort > got
  printf '%s\n' s/fail1 s/x/fail2 's/x/fail|4' s/x/y/fail3 > exp
  compare exp got || fail=1
  test "$(tail -n 1 err)" = 'cp: 4 of 13 files were not copied' \
    || { echo "jobs=$jobs: no count"; cat err; fail=1; }

  # The cause gone, a run fed the list completes the tree.
  xargs -0 cp --parents -t dst < failed > out 2> err || fail=1
  compare /dev/null err || fail=1
  diff -r s dst/s || fail=1
done

# Nothing failed: an empty list, no count.
rm -rf dst && mkdir dst || framework_failure_
cp -r --failed=failed --report=rep s dst 2> err || fail=1
compare /dev/null failed || fail=1
compare /dev/null err || fail=1

# The count comes with each of the options that ask for it; M counts
# every file the run looked at, the one it could not find too.
for opt in --progress --stats --report=r --failed=f; do
  rm -rf dst && mkdir dst || framework_failure_
  cp $opt s/a nosuch s/b dst > out 2> err && fail=1
  grep -Fx 'cp: 1 of 3 files were not copied' err > /dev/null \
    || { echo "$opt: no count"; cat err; fail=1; }
done

# On a terminal, it comes without any.
if script -qec true /dev/null > /dev/null 2>&1; then
  rm -rf dst && mkdir dst || framework_failure_
  script -qec 'cp s/a nosuch dst' /dev/null > tty-out
  tr -d '\r' < tty-out | grep -Fx 'cp: 1 of 2 files were not copied' \
    > /dev/null || { echo "terminal: no count"; cat tty-out; fail=1; }
fi

# Without them, standard error not a terminal: no count, and what cp
# says and does is GNU's, byte for byte.
if test "${gnu_oracle-}" && test -x "$gnu_dir_/cp"; then
  mkdir -p fix/sub fix/d || framework_failure_
  echo a > fix/a && echo b > fix/sub/b || framework_failure_
  diff_run_ missing-source cp a nosuch d
  diff_run_ omitted-dir cp a sub d
  diff_run_ none-fail cp --update=none-fail a d/a2
  echo old > fix/d/a || framework_failure_
  diff_run_ none-fail-exists cp --update=none-fail a d
  diff_run_ tree-missing cp -r sub nosuch d
fi
for f in *.ours.err; do
  test -e "$f" || continue
  grep 'files were not copied' "$f" && { echo "$f: a count"; fail=1; }
done

Exit $fail
