#!/bin/sh
# dd opening its files onto descriptors 0 and 1 ignores a failure to
# close the descriptor it first got, as GNU dd does: the file is open.

# When open returns another descriptor, dd moves it with dup2 and
# closes the original; if that close fails (EIO, as NFS may report),
# GNU dd goes on rather than say "dd: failed to open 'dst': ...".

dd_std_fds=open
. "${srcdir=.}/tests/reliability/close-error-dd.sh"
