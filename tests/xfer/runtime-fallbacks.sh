#!/bin/sh
# Where the system lacks at run time what cp was built for (an older
# kernel, or qemu-user in front of the host's, which is how make
# check-cross runs this): copy_file_range, io_uring, RWF_DONTCACHE,
# statx's direct I/O alignment, cp falls back as the manual says and
# --debug names what it used.  What the system can do is asked by
# tests/cross/probe, built and run as cp is, so that under the emulator
# it meets the emulator's system calls.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
probe=${abs_top_builddir-$PWD/..}/tests/cross/probe
emulated_ && echo "our programs run under the emulator: $emulated_machine_"

head -c 3000001 /dev/urandom > in || framework_failure_

# debug_has_ TEXT: cp's --debug line (in file debug) holds TEXT.
debug_has_ ()
{
  grep -F -- "$1" debug > /dev/null \
    || { echo "--debug does not say '$1':"; cat debug; fail=1; }
}

# copy_file_range, else sendfile or read, where the file system does
# not share the extents instead.
offload=$("$probe" copy_file_range in probe-out) || framework_failure_
echo "copy_file_range: $offload"
cp --debug in out > debug 2> err || fail=1
cmp in out || fail=1
compare /dev/null err || fail=1
if grep -F 'reflink: yes' debug > /dev/null; then
  echo "the copy is a clone here: the offload is not tried"
else
  case $offload in
    yes) debug_has_ 'copy offload: yes,'; debug_has_ 'io method: offload,' ;;
    *) debug_has_ 'copy offload: unsupported,' ;;
  esac
fi
rm -f out

# Direct I/O: the file system's alignment from statx, or the default.
# Where direct I/O is refused (or statx says so), cp warns and copies
# through the page cache.  With it, buffers are kept in flight, with
# io_uring where it makes a ring, else with a reader thread.
cp --debug --direct --buffer-size=64K in out > debug 2> err || fail=1
cmp in out || fail=1
if grep -F 'direct I/O: both' debug > /dev/null; then
  compare /dev/null err || fail=1
  uring=no
  cpdd_has_ HAVE_LIBURING && uring=$("$probe" io_uring)
  echo "io_uring: $uring"
  case $uring in
    yes) debug_has_ 'buffers (io_uring)' ;;
    *) debug_has_ 'buffers (reader thread)' ;;
  esac
  CPDD_IO_URING=0 cp --debug --direct --buffer-size=64K in out2 > debug \
    2> err || fail=1
  cmp in out2 || fail=1
  compare /dev/null err || fail=1
  debug_has_ 'buffers (reader thread)'
else
  echo "direct I/O refused here: the queue is not tried"
  debug_has_ 'direct I/O: no'
  printf '%s\n' \
    "cp: warning: direct I/O not supported for 'in'; using the page cache" \
    "cp: warning: direct I/O not supported for 'out'; using the page cache" \
    > exp-err || framework_failure_
  compare exp-err err || fail=1
fi
rm -f out out2

# RWF_DONTCACHE, else dropping behind the copy, said once.
dontcache=no
if cpdd_has_ HAVE_PREADV2 && cpdd_has_ HAVE_PWRITEV2; then
  dontcache=$("$probe" dontcache probe-out) || framework_failure_
fi
echo "RWF_DONTCACHE: $dontcache"
cp --debug --uncached in out > debug 2> err || fail=1
cmp in out || fail=1
case $dontcache in
  yes)
    debug_has_ 'uncached: RWF_DONTCACHE'
    compare /dev/null err || fail=1 ;;
  no)
    debug_has_ 'uncached: dropped behind'
    compare /dev/null err || fail=1 ;;
  *)
    debug_has_ 'uncached: dropped behind'
    echo "cp: warning: uncached I/O not supported for 'in';" \
         "dropping copied data from the cache instead" > exp-err \
      || framework_failure_
    compare exp-err err || fail=1 ;;
esac

# The same refusals forced, where the system would have allowed the
# calls: the fault shim fails copy_file_range and sendfile with ENOSYS,
# and preadv2 and pwritev2 given a flag with EOPNOTSUPP, as an older
# kernel does.  It is preloaded into cp alone, which works under the
# emulator too.
shim=${abs_top_builddir-$PWD/..}/tests/shim/faultshim.so
if test -f "$shim"; then
  rm -f out || framework_failure_
  LD_PRELOAD=$shim FAULT_DISABLE=copy_file_range,sendfile \
    cp --debug in out > debug 2> err || fail=1
  cmp in out || fail=1
  compare /dev/null err || fail=1
  if grep -F 'reflink: yes' debug > /dev/null; then
    echo "the copy is a clone here: the refused offload is not tried"
  else
    debug_has_ 'copy offload: unsupported,'
    debug_has_ 'io method: read,'
  fi
  if cpdd_has_ HAVE_PREADV2 && cpdd_has_ HAVE_PWRITEV2; then
    rm -f out || framework_failure_
    LD_PRELOAD=$shim FAULT_DISABLE=preadv2,pwritev2 \
      cp --debug --uncached in out > debug 2> err || fail=1
    cmp in out || fail=1
    debug_has_ 'uncached: dropped behind'
    echo "cp: warning: uncached I/O not supported for 'in';" \
         "dropping copied data from the cache instead" > exp-err \
      || framework_failure_
    compare exp-err err || fail=1
  fi
else
  echo "tests/shim/faultshim.so was not built: no refusal is forced"
fi

Exit $fail
