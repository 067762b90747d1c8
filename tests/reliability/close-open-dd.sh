#!/bin/sh
# dd opening its files onto descriptors 0 and 1 ignores a failure to
# close the descriptor it first got, as GNU dd does: the file is open.

# Expected to fail until src/dd.c is fixed.  When open returns another
# descriptor, dd moves it with dup2 and closes the original; if that
# close fails (EIO, as NFS may report), GNU dd goes on, ours says
# "dd: failed to open 'dst': Input/output error" and exits 1.

dd_std_fds=open
. "${srcdir=.}/tests/reliability/close-error-dd.sh"
