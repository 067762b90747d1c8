#!/bin/sh
# dd reports a full output file system as GNU dd does when it reblocks
# (ibs differs from obs): "writing to", and a partial output record.

# GNU says "dd: writing to 'mnt/out'", not "error writing", and counts
# the short last write as a partial record: "349+1 records out"
# (ibs=7000 obs=3000 into a full 1 MiB tmpfs).

dd_block_sizes='ibs=7000,obs=3000 ibs=4096,obs=65536'
. "${srcdir=.}/tests/reliability/enospc-dd.sh"
