#!/bin/sh
# The --debug report names the method, buffer size and direct mode a
# file actually got, in GNU's "copy offload: ..., reflink: ...,
# sparse detection: ..." format.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/xfer

head -c 300000 /dev/urandom > in || framework_failure_

# check_ EXPECTED-REPORT XFER-COPY-OPTION...
check_ ()
{
  exp_line=$1; shift
  rm -f out
  xfer-copy --debug --reflink=never "$@" in out > got || fail=1
  cmp in out || fail=1
  echo "copy offload: $exp_line" > exp
  compare exp got || fail=1
}

check_ 'avoided, reflink: no, sparse detection: no, io method: read, buffer size: 65536, direct I/O: no' \
  --io-method=read --buffer-size=64K
check_ 'avoided, reflink: no, sparse detection: no, io method: read, buffer size: 262144, direct I/O: no' \
  --io-method=auto
check_ 'avoided, reflink: no, sparse detection: no, io method: mmap, buffer size: 8388608, direct I/O: no' \
  --io-method=mmap
check_ 'avoided, reflink: no, sparse detection: no, io method: mmap, buffer size: 1048576, direct I/O: no' \
  --io-method=mmap --buffer-size=1M
check_ 'avoided, reflink: no, sparse detection: zeros, io method: read, buffer size: 262144, direct I/O: no' \
  --sparse=always

# Uncached, as the fallback does it everywhere: the large buffer of
# direct I/O, cut down to what the file needs.
CPDD_DONTCACHE=0; export CPDD_DONTCACHE
check_ 'avoided, reflink: no, sparse detection: no, io method: read, buffer size: 524288, direct I/O: no, uncached: dropped behind' \
  --uncached
unset CPDD_DONTCACHE

# Direct I/O needs a file system that does it.  Buffers go through a
# queue (here the reader thread, io_uring where allowed) when there is
# more than one to move.
if xfer-copy --direct in probe 2> err && test ! -s err; then
  inflight=', in flight: 16 buffers (reader thread)'
  CPDD_IO_URING=0; export CPDD_IO_URING
  check_ "avoided, reflink: no, sparse detection: no, io method: read, buffer size: 65536, direct I/O: both$inflight" \
    --io-method=read --direct --buffer-size=64K
  check_ "avoided, reflink: no, sparse detection: no, io method: read, buffer size: 65536, direct I/O: in$inflight" \
    --direct=in --buffer-size=64K
  check_ 'avoided, reflink: no, sparse detection: no, io method: read, buffer size: 524288, direct I/O: both' \
    --direct=both --buffer-size=512K
  check_ "avoided, reflink: no, sparse detection: no, io method: read, buffer size: 65536, direct I/O: both$inflight" \
    --io-method=offload --direct --buffer-size=64K
  unset CPDD_IO_URING
  rm -f out
  xfer-copy --debug --direct --buffer-size=64K in out > got || fail=1
  cmp in out || fail=1
  grep -E 'direct I/O: both, in flight: 16 buffers \((io_uring|reader thread)\)$' \
    got > /dev/null || { cat got; fail=1; }
  # A mapping is never direct: only the output end can be.
  check_ 'avoided, reflink: no, sparse detection: no, io method: mmap, buffer size: 65536, direct I/O: out' \
    --io-method=mmap --direct --buffer-size=64K
fi

# Offload: copy_file_range or sendfile, else read without a word.
# With --reflink=never or --sparse=never, sendfile alone, as
# copy_file_range may share extents: GNU's field says it was avoided.
rm -f out
xfer-copy --debug --sparse=auto --io-method=offload in out > got || fail=1
cmp in out || fail=1
grep -E '^copy offload: (yes|unknown), reflink: (unsupported|yes), sparse detection: no, io method: offload, buffer size: 0, direct I/O: no$|^copy offload: unsupported, .* io method: (offload|read), ' got \
  || { cat got; fail=1; }
for never in --reflink=never --sparse=never; do
  rm -f out
  xfer-copy --debug $never --io-method=offload in out > got || fail=1
  cmp in out || fail=1
  grep -E '^copy offload: avoided, reflink: no, sparse detection: no, io method: (offload|read), buffer size: [0-9]+, direct I/O: no$' got \
    || { cat got; fail=1; }
done

Exit $fail
