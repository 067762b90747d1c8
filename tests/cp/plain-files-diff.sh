#!/bin/sh
# Where a directory the copy made is sure to give a new file this
# process's owner and group and no ACL, a file is made with its final
# permissions and neither looked at nor changed again; anywhere else
# they are set after.  Either way the copy ends as GNU's: with umasks
# that take some permissions away, in a directory whose default ACL
# adds entries, in one whose set-group-ID bit gives another group, and
# with --jobs; and a file whose copy fails is left with the owner's
# permissions alone, as GNU leaves it.  A directory is made with the
# permissions it keeps when neither they nor its owner are kept (-r),
# as GNU makes it: under a default ACL that takes some away, too.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/t/sub fix/e || framework_failure_
head -c 100000 /dev/urandom > fix/e/bad && chmod 644 fix/e/bad \
  && printf 'good\n' > fix/e/good || framework_failure_
faultshim=${abs_top_builddir-$PWD/..}/tests/shim/faultshim.so
for m in 644 664 600 755 750 444 4755 2750; do
  printf '%s\n' $m > fix/t/f$m && chmod $m fix/t/f$m \
    && printf '%s\n' $m > fix/t/sub/g$m && chmod $m fix/t/sub/g$m \
    || framework_failure_
done
mkdir fix/t/ro && printf 'r\n' > fix/t/ro/f && chmod 500 fix/t/ro \
  && : > fix/t/empty \
  && chmod 750 fix/t/sub && ln -s f644 fix/t/link \
  && ln -s ../f644 fix/t/sub/link || framework_failure_

# Our cp, also with --jobs=2, as "cp" in the directory $1.
jobs_bin=$PWD/jobs2-bin
mkdir "$jobs_bin" || framework_failure_
printf '#!/bin/sh\nexec "%s" --jobs=2 "$@"\n' "$ours_dir_/cp" \
  > "$jobs_bin/cp" && chmod +x "$jobs_bin/cp" || framework_failure_
serial_bin=$ours_dir_

run_cases ()
{
  diff_run_ "a$1" sh -c 'umask 022 && cp -a t copy'
  diff_run_ "a-umask-002$1" sh -c 'umask 002 && cp -a t copy'
  diff_run_ "a-umask-077$1" sh -c 'umask 077 && cp -a t copy'
  diff_run_ "r$1" sh -c 'umask 022 && cp -r t copy'
  diff_run_ "p$1" sh -c 'umask 022 && cp -rp t copy'
  if test -f "$faultshim"; then
    diff_run_ "a-failed$1" env LD_PRELOAD="$faultshim" \
      FAULT_FD_PATH='*/e/bad' FAULT_OP=read,pread,preadv2 FAULT_MODE=eio \
      FAULT_DISABLE=copy_file_range,sendfile \
      sh -c 'umask 022 && cp -a e copy'
  fi
  if test -n "$sgid_dir"; then
    diff_run_ "a-sgid$1" sh -c 'umask 022 && cp -a t sg/copy'
    diff_run_ "r-sgid$1" sh -c 'umask 022 && cp -r t sg/copy'
  fi
  if test -n "$acl_dir"; then
    DIFF_XATTRS=1 diff_run_ "a-default-acl$1" \
      sh -c 'umask 022 && cp -a t acl/copy'
    DIFF_XATTRS=1 diff_run_ "r-default-acl$1" \
      sh -c 'umask 022 && cp -r t acl/copy'
  fi
}

# A directory whose group is not ours and passes to what is made in it.
sgid_dir=
if test "$(id -u)" = 0 && mkdir fix/sg && chgrp 65534 fix/sg \
    && chmod 2775 fix/sg; then
  sgid_dir=fix/sg
fi
# A directory whose default ACL adds an entry to what is made in it, and
# takes the others' permissions away.
acl_dir=
if command -v setfacl > /dev/null && cpdd_has_ USE_ACL \
    && python3 -c 'import os' 2> /dev/null \
    && mkdir fix/acl \
    && setfacl -d -m u:65534:rwx,o::- fix/acl 2> /dev/null; then
  acl_dir=fix/acl
fi

run_cases ''
ours_dir_=$jobs_bin
run_cases -jobs
ours_dir_=$serial_bin

# On a file system known to give new files their maker's owner, a file
# whose mode the umask leaves whole gets no chmod and no fstat: only
# the directories, the file the umask would narrow (664) and the
# set-ID ones are changed.  Its data, known to end at its size, is
# copied without a last read that finds nothing: an empty file's is
# not read at all.  Nothing made with the
# owner and group it is to have, file, directory or link, gets a
# chown.
case $(stat -f -c %T . 2> /dev/null) in
  ext2/ext3|xfs|btrfs|tmpfs) plain_fs=yes ;;
  *) plain_fs=no ;;
esac
traced_calls=fchmod,fchmodat,fchown,fchownat,fstat,newfstatat,statx
traced_calls=$traced_calls,read,pread64,copy_file_range
# The copies, named from the top of traced/, that the call $1, or $1at,
# changed.
changed_copies ()
{
  in_copy='[0-9]*<[^>]*\/traced\(\/[^>]*\)\?>'
  sed -n 's/^[0-9]* *//p' trace.out \
    | sed -n "s/^$1($in_copy.*/\\1/p
              s/^${1}at($in_copy, \"\\([^\"]*\\)\".*/\\1\\/\\2/p" \
    | LC_ALL=C sort
}
if test $plain_fs = yes && command -v strace > /dev/null \
    && strace_ -o /dev/null true 2> /dev/null; then
  for jobs in '' --jobs=2; do
    rm -rf traced || framework_failure_
    ( umask 022 && strace_ -f -y -e trace=$traced_calls \
        -o trace.out cp -a $jobs fix/t traced ) || fail=1
    changed_copies fchmod > chmodded || framework_failure_
    printf '%s\n' '' /f2750 /f4755 /f664 /ro /sub /sub/g2750 /sub/g4755 \
      /sub/g664 | LC_ALL=C sort > chmodded.exp || framework_failure_
    compare chmodded.exp chmodded || fail=1
    made='[0-9]*<[^>]*/traced/(sub/)?[fg][0-9]+>'
    if grep -E "^[0-9]* *(fstat|newfstatat|statx)\\($made" trace.out; then
      echo "a new file's status was asked for ($jobs)" >&2
      fail=1
    fi
    changed_copies fchown > chowned || framework_failure_
    (cd fix/t && find . ! -user "$(id -u)" -o ! -group "$(id -g)") \
      | sed 's/^\.//' | LC_ALL=C sort > chowned.exp || framework_failure_
    compare chowned.exp chowned || fail=1
    source='[0-9]*<[^>]*/fix/t/'
    if grep -E "^[0-9]* *(read|pread64|copy_file_range)\\($source.*= 0\$" \
        trace.out; then
      echo "a file was read past its end ($jobs)" >&2
      fail=1
    fi
  done
fi

Exit $fail
