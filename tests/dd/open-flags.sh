#!/bin/sh
# iflag= and oflag= open flags: append, dsync, sync, nonblock, noatime,
# noctty, nofollow and directory, on named files and on standard
# input and output.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix fix/dir || framework_failure_
head -c 5000 /dev/urandom > fix/in || framework_failure_
head -c 3000 /dev/urandom > fix/old || framework_failure_
ln -s in fix/link || framework_failure_

diff_run_ append dd if=in of=old oflag=append conv=notrunc
diff_run_ append-warning dd if=in of=old oflag=append
diff_run_ append-stdout sh -c 'dd if=in oflag=append conv=notrunc >> old'
diff_run_ dsync dd if=in of=out oflag=dsync bs=1000
diff_run_ sync dd if=in of=out oflag=sync bs=1000
diff_run_ iflags dd if=in of=out iflag=dsync,sync,noatime,nonblock,noctty
diff_run_ nofollow-in dd if=link of=out iflag=nofollow
diff_run_ nofollow-out dd if=in of=link oflag=nofollow
diff_run_ directory-file dd if=in of=out iflag=directory
diff_run_ directory-dir dd if=dir of=out iflag=directory count=1
diff_run_ directory-stdin sh -c 'dd iflag=directory < in'
diff_run_ directory-stdout sh -c 'dd if=in oflag=directory > out'
diff_run_ append-stdin-flags sh -c 'dd iflag=append,nonblock < in > out'

Exit $fail
