#!/bin/sh
# An I/O error or a full file system in one range of a file that
# cp --jobs copies in ranges: the message and exit status of a copy in
# one go, and a destination no longer, and no less right, than such a
# copy leaves it.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp
require_faultshim_

# Ranges of 1 MiB: CPDD_CHUNK_SIZE is a knob for the tests only.
CPDD_CHUNK_SIZE=1M
export CPDD_CHUNK_SIZE
MiB=1048576

head -c $((5 * MiB + 123)) /dev/urandom > src || framework_failure_

# Keep what the last run left: its status, messages and copy, as KIND.
keep_ ()
{
  for f in rc err; do
    mv ours.$f $1.$f || framework_failure_
  done
  if test -f d/src; then
    mv d/src $1.copy || framework_failure_
  else
    : > $1.copy || framework_failure_
  fi
}

# An EIO in the third range, reading or writing.
for method in $rel_methods_; do
  for direct in $rel_directs_; do
    opts=$(cp_xfer_opts_ $method $direct)
    ours_accepts_ . cp $opts || continue
    for end in read write; do
      what="cp --jobs=3 $opts with EIO on ${end}s"
      for jobs in 1 3; do
        rm -rf d && mkdir d || framework_failure_
        fault_run_ ours $end '*/d/src' FAULT_MODE=eio \
          FAULT_AT=$((2 * MiB + 12288)) -- timeout 60 cp --jobs=$jobs $opts src d
        check_no_crash_ "$what" $(cat ours.rc)
        test -s fault.log && met=yes || met=no
        keep_ jobs$jobs
      done
      if test $met = no; then
        fault_not_met_ $method "$what"
        cmp src jobs3.copy || { echo "$what: the copy differs"; fail=1; }
        continue
      fi
      test "$(cat jobs3.rc)" = 1 \
        || { echo "$what: exit $(cat jobs3.rc)"; fail=1; }
      compare jobs1.rc jobs3.rc || { echo "$what: status differs"; fail=1; }
      compare jobs1.err jobs3.err || { echo "$what: messages differ"; fail=1; }
      is_prefix_ jobs3.copy src || { echo "$what: wrong bytes left"; fail=1; }
      # A copy in one go stops at the error (or before it: a single
      # copy_file_range of the whole file fails as a whole); the ranges
      # after the failed one must not make the copy any longer.
      test $(stat -c %s jobs3.copy) -le $((2 * MiB + 12288)) \
        || { echo "$what: bytes left past the error"; fail=1; }
    done
  done
done

# A full file system: GNU cp's message, once, and status 1.
mount_tiny_fs_ 3m mnt
for opts in '' --direct --io-method=read --io-method=mmap --uncached; do
  what="cp --jobs=3 $opts onto a full file system"
  rm -f mnt/* || framework_failure_
  run_as_ gnu cp src mnt/src
  rm -f mnt/* || framework_failure_
  run_as_ ours cp --jobs=3 $opts src mnt/src
  # tmpfs takes direct and uncached I/O or warns that it does not, as
  # a copy in one go would.
  grep -v -e '^cp: warning: direct I/O not supported' \
    -e '^cp: warning: uncached I/O not supported' ours.err > ours.err2 \
    && mv ours.err2 ours.err || framework_failure_
  compare_sides_ "$what"
  if test -f mnt/src; then
    is_prefix_ mnt/src src || { echo "$what: wrong bytes left"; fail=1; }
  fi
done

Exit $fail
