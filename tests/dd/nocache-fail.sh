#!/bin/sh
# When the kernel refuses to drop the cache, iflag=nocache and
# oflag=nocache with count=0, which ask for nothing but the drop, fail
# with GNU dd's diagnostic; a copy that drops as it goes still
# succeeds.  posix_fadvise reports its failure by returning an error
# number, not -1: a library built here and preloaded into both dd's
# makes it return ENOTSUP.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

build_shim_ dd <<'EOT'
#include <errno.h>
#include <fcntl.h>

int
posix_fadvise (int fd, off_t offset, off_t len, int advice)
{
  return ENOTSUP;
}
EOT

mkdir fix || framework_failure_
head -c 300000 /dev/zero > fix/in || framework_failure_
: > fix/empty || framework_failure_

diff_run_shimmed_ 'dd' \
    'if=empty iflag=nocache count=0' \
    'if=in iflag=nocache count=0' \
    'if=in of=out oflag=nocache conv=notrunc count=0' \
    'if=in of=out iflag=nocache oflag=nocache count=0' \
    'if=in of=out iflag=nocache oflag=nocache' \
    'if=in of=out iflag=nocache oflag=nocache bs=1M count=1'

Exit $fail
