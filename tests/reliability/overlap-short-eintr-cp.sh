#!/bin/sh
# Short reads and writes (calls moving fewer bytes than asked), and
# reads and writes interrupted by a signal (EINTR), still give cp
# --direct, with reads and writes in flight together (the reader
# thread's queue), a byte-exact copy.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
. "$srcdir/tests/reliability/rel-helpers.sh"
require_faultshim_
fail=0

# The reader thread calls pread and pwrite, which the shim sees.
CPDD_IO_URING=0 && export CPDD_IO_URING || framework_failure_
check_queue_ . 'reader thread'

# 45 whole 64 KiB blocks and a tail: the 16 buffers go round the ring.
head -c 3000000 /dev/urandom > src || framework_failure_
rel_methods_='read auto' rel_directs_=direct rel_cp_opts_=--buffer-size=64K
exact_under_fault_ cp short
exact_under_fault_ cp eintr

Exit $fail
