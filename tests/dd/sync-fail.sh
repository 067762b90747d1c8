#!/bin/sh
# conv=fsync and conv=fdatasync where the output cannot be synced (a
# pipe, a device): GNU's message and status, with the statistics after
# a sync at the end of the copy, but none when dd quits early (a failed
# write) or when closing an end fails.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ dd

mkdir fix || framework_failure_
head -c 1000 /dev/urandom > fix/in || framework_failure_

for conv in fsync fdatasync fsync,fdatasync; do
  diff_run_ pipe-$conv sh -c "dd if=in conv=$conv | cat > out"
  diff_run_ pipe-bs-$conv sh -c "dd if=in bs=100 conv=$conv | cat > out"
  diff_run_ pipe-none-$conv sh -c "dd if=in conv=$conv status=none | cat"
  diff_run_ fifo-$conv sh -c "mkfifo f && { cat f > out & } \
    && dd if=in of=f conv=$conv; s=\$?; wait; exit \$s"
done
test -w /dev/full && {
  diff_run_ full-fsync dd if=in of=/dev/full conv=fsync
  diff_run_ full-bs-fsync dd if=in of=/dev/full bs=1k conv=fsync
}
diff_run_ closed-out-fsync sh -c 'dd if=in conv=fsync >&-'
diff_run_ closed-out-bs-fsync sh -c 'dd if=in bs=1 conv=fsync >&-'
diff_run_ closed-out sh -c 'dd if=in >&-'
diff_run_ closed-out-empty sh -c 'dd if=/dev/null >&-'
diff_run_ closed-in sh -c 'dd of=out <&-'
diff_run_ closed-in-count0 sh -c 'dd of=out count=0 <&-'

Exit $fail
