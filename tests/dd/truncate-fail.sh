#!/bin/sh
# seek= without conv=notrunc cuts the output file where writing starts;
# where that fails on a file that has a size, dd stops before writing,
# leaving the file as it was, and prints no statistics.  On a device
# the failure is expected and dd goes on.  ftruncate is made to fail
# by a library built here and preloaded into both dd's.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

build_shim_ dd <<'EOT'
#include <errno.h>
#include <sys/types.h>

int
ftruncate (int fd, off_t length)
{
  errno = EPERM;
  return -1;
}
EOT

mkdir fix || framework_failure_
head -c 5000 /dev/urandom > fix/in || framework_failure_
head -c 3000 /dev/urandom > fix/old || framework_failure_

diff_run_shimmed_ 'dd if=in' \
    'of=old seek=1' \
    'of=old seek=1 status=none' \
    'of=old seek=1 conv=fsync' \
    'of=old seek=3 bs=1k count=1' \
    'of=new seek=1' \
    'of=old seek=1 conv=notrunc' \
    'of=/dev/null seek=1'

Exit $fail
