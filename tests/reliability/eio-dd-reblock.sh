#!/bin/sh
# An I/O error when dd reblocks (ibs differs from obs) is handled as GNU
# dd handles it: the output records already read are written out first.

# With an EIO reading at byte 303000 of a 1000000-byte file,
# "dd if=src of=dst ibs=4096 obs=64k" writes the 73 full input blocks
# it has ("4+1 records out", 299008 bytes in dst), not only the full
# output blocks; and a write error reads "dd: writing to 'dst': ...".

dd_block_sizes='ibs=4096,obs=64k ibs=7000,obs=3000'
. "${srcdir=.}/tests/reliability/eio-dd.sh"
