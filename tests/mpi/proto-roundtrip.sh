#!/bin/sh
# Every kind of mpicp's messages comes back from packing and unpacking
# as it went, and a message cut short or too long is refused.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/mpi

proto-roundtrip || fail=1

Exit $fail
