#!/bin/sh
# --preserve=xattr succeeds quietly on files without extended attributes:
# empty and sparse files, directories, FIFOs, devices and sockets.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/dir || framework_failure_
: > fix/empty || framework_failure_
truncate -s 1M fix/sparse || framework_failure_
mkfifo fix/fifo || framework_failure_
special='empty sparse dir fifo'
if mknod fix/null c 1 3 2>/dev/null; then
  special="$special null"
fi
if python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("fix/sock")' \
     2>/dev/null; then
  special="$special sock"
fi

for f in $special; do
  diff_run_ "$f" cp -R --preserve=xattr "$f" copy
  diff_run_ "$f-all" cp -R --preserve=all "$f" copy
  diff_run_ "$f-archive" cp -a "$f" copy
done
diff_run_ sparse-always cp --sparse=always --preserve=xattr sparse copy

Exit $fail
