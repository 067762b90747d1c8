## tests/reliability/local.mk -- faults, bad input and security.
