#!/bin/sh
# SIGUSR1 makes dd print its statistics and carry on, as GNU dd does.

# Expected to fail until src/dd.c handles SIGUSR1: GNU dd prints
# "5+0 records in", "5+0 records out" and the byte count when signalled
# during its fifth 64 KiB write, then finishes; ours is killed by the
# signal (exit 138) and leaves 262144 bytes.

dd_signals=USR1
. "${srcdir=.}/tests/reliability/signal-dd.sh"
