#!/bin/sh
# SIGUSR1 makes dd print its statistics and carry on, as GNU dd does.

# GNU dd prints "5+0 records in", "5+0 records out" and the byte count
# when signalled during its fifth 64 KiB write, then finishes.

dd_signals=USR1
. "${srcdir=.}/tests/reliability/signal-dd.sh"
