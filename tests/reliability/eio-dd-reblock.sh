#!/bin/sh
# An I/O error when dd reblocks (ibs differs from obs) is handled as GNU
# dd handles it: the output records already read are written out first.

# Expected to fail until src/dd.c is fixed.  With an EIO reading at byte
# 303000 of a 1000000-byte file, "dd if=src of=dst ibs=4096 obs=64k":
#   GNU: writes the 73 full input blocks it has, "4+1 records out",
#        299008 bytes in dst;
#   ours: drops the partly filled output buffer, "4+0 records out",
#        262144 bytes in dst (36864 bytes read but never written).
# And on a write error GNU says "dd: writing to 'dst': ...", ours
# "dd: error writing 'dst': ...".

dd_block_sizes='ibs=4096,obs=64k ibs=7000,obs=3000'
. "${srcdir=.}/tests/reliability/eio-dd.sh"
