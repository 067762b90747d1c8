#!/bin/sh
# SIGINT makes dd finish the write it is in, print its statistics and
# die by the signal, as GNU dd does.

# GNU dd, interrupted during its fifth 64 KiB write, completes it,
# prints "5+0 records in", "5+0 records out", "327680 bytes ... copied"
# and exits 130, rather than die at once leaving 262144 bytes.

dd_signals=INT
. "${srcdir=.}/tests/reliability/signal-dd.sh"
