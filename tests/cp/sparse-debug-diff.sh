#!/bin/sh
# cp --debug says what GNU's says in its three fields (copy offload,
# reflink, sparse detection) for every --sparse and --reflink, on files
# with and without holes, empty, all hole, from a FIFO, to devices and
# FIFOs, across file systems and from one whose SEEK_HOLE knows no
# holes; and the copies have as many blocks as GNU's.  Our own fields
# after GNU's are left out of the comparison, and so is the line
# "'a' -> 'b'" that GNU's --debug also prints, being cp's, not the
# engine's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_gnu_ cp
# GNU's fields name the system calls it used; a build without them
# cannot give the same answers.
cpdd_has_ HAVE_SEEK_HOLE && cpdd_has_ HAVE_COPY_FILE_RANGE \
  || skip_ "built without SEEK_HOLE or copy_file_range"

mkdir fix || framework_failure_
cd fix || framework_failure_
# put_ FILE OFFSET TEXT: write TEXT into FILE at OFFSET.
put_ ()
{
  printf %s "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# A hole at the end, or not; zeros with no holes; nothing; only a hole;
# a hole first; several extents with holes between.
printf x > tail-hole && truncate -s 128K tail-hole \
  && cp tail-hole no-tail-hole && printf y >> no-tail-hole \
  && head -c 300000 /dev/urandom > dense \
  && { printf x && head -c 262143 /dev/zero; } > zeros \
  && : > empty \
  && truncate -s 1M all-hole \
  && truncate -s 1M head-hole && printf y >> head-hole \
  && truncate -s 700000 extents && put_ extents 100000 abc \
  && put_ extents 300000 def && put_ extents 600000 ghi \
  && mkfifo fifo \
  || framework_failure_
cd .. || framework_failure_
test $(stat -c %b fix/all-hole) = 0 \
  || skip_ "this file system does not keep holes"

# What GNU's cp --debug prints of the copy, and no more.
gnu_fields="/' -> '/d; s/, io method: .*//"

# run_ TAG CP-ARGUMENT...: cp --debug with the arguments, in fix's
# copy, and the same number of blocks in the copy "out" if any.
run_ ()
{
  run_tag_=$1; shift
  diff_run_ $run_tag_ sh -c \
    'cp --debug "$@" | sed "$0"; stat -c %b out 2>/dev/null' \
    "$gnu_fields" "$@"
}

for f in tail-hole no-tail-hole dense zeros empty all-hole head-hole \
         extents; do
  for sparse in auto always never; do
    for reflink in auto never; do
      run_ $f-$sparse-$reflink --sparse=$sparse --reflink=$reflink $f out
    done
  done
  # No clone here: nothing is copied, and nothing is known.  What is
  # left of the destination is not the engine's business.
  diff_run_ $f-reflink-always sh -c \
    'cp --debug --reflink=always $1 out | sed "$0"; rm -f out' \
    "$gnu_fields" $f
done

# A FIFO's contents, written to it as cp reads.
for opts in '' --sparse=always --sparse=never --reflink=never; do
  diff_run_ fifo$opts sh -c \
    'printf data > fifo & cp --debug --copy-contents $0 fifo out | sed "$1"
     wait' "$opts" "$gnu_fields"
done

# Devices and FIFOs have no holes: zeros are written, and a failure to
# write them says so.
for f in tail-hole head-hole dense all-hole; do
  for sparse in auto always never; do
    diff_run_ full-$f-$sparse sh -c \
      'cp --debug --sparse=$0 $1 /dev/full | sed "$2"' \
      $sparse $f "$gnu_fields"
    diff_run_ to-fifo-$f-$sparse sh -c \
      'cat fifo > /dev/null & cp --debug --sparse=$0 $1 fifo | sed "$2"
       wait' $sparse $f "$gnu_fields"
  done
done

# Across file systems, copy_file_range is refused.
if test "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs \
   && test "$(stat -f -c %T .)" != tmpfs; then
  shm=$(mktemp -d /dev/shm/cpdd-sparse.XXXXXX) || framework_failure_
  cleanup_ () { rm -rf "$shm"; }
  cp -a fix/tail-hole fix/dense fix/empty fix/all-hole fix/extents "$shm" \
    || framework_failure_
  for f in tail-hole dense empty all-hole extents; do
    for sparse in auto always; do
      run_ shm-$f-$sparse --sparse=$sparse "$shm/$f" out
    done
  done
fi

# A file system whose SEEK_HOLE finds no holes (squashfs): by default
# the data is copied as it is, and zeros make holes only when asked.
# One that knows neither SEEK_DATA nor SEEK_HOLE (none): zeros make
# holes unless --sparse=never.
if test -f "${abs_top_builddir-$PWD/..}/tests/shim/faultshim.so"; then
  require_faultshim_
  for seek in trivial none; do
    for sparse in auto always never; do
      for reflink in auto never; do
        diff_run_ $seek-$sparse-$reflink env LD_PRELOAD="$faultshim_" \
          FAULT_SEEK=$seek FAULT_FD_PATH='*/extents' sh -c \
          'cp --debug "$@" | sed "$0"; stat -c %b out' "$gnu_fields" \
          --sparse=$sparse --reflink=$reflink extents out
      done
    done
  done
fi

Exit $fail
