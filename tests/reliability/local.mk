## tests/reliability/local.mk -- faults, bad input and security.

## The fault-injection library the tests preload.  It is built only for
## the tests, with plain compiler flags (never the sanitizers a build
## may use, which would then have to come first in every program it is
## loaded into, GNU's included).  A compiler that cannot build it is not
## an error: the tests that need it skip.
SHIM_CFLAGS = -O2 -g -Wall
check_SCRIPTS += tests/shim/faultshim.so
tests/shim/faultshim.so: tests/shim/faultshim.c
	$(AM_V_CC)$(MKDIR_P) tests/shim && \
	{ $(CC) -shared -fPIC $(SHIM_CFLAGS) -o $@ \
	    $(srcdir)/tests/shim/faultshim.c -ldl \
	  || { echo "$@ not built: fault-injection tests will skip" >&2; \
	       rm -f $@; }; }
CLEANFILES += tests/shim/faultshim.so

## The library the race tests preload to swap a directory for a link.
check_SCRIPTS += tests/shim/swapshim.so
tests/shim/swapshim.so: tests/shim/swapshim.c
	$(AM_V_CC)$(MKDIR_P) tests/shim && \
	{ $(CC) -shared -fPIC $(SHIM_CFLAGS) -o $@ \
	    $(srcdir)/tests/shim/swapshim.c -ldl \
	  || { echo "$@ not built: race tests will skip" >&2; \
	       rm -f $@; }; }
CLEANFILES += tests/shim/swapshim.so

TESTS += \
  tests/reliability/enospc-cp.sh \
  tests/reliability/enospc-dd.sh \
  tests/reliability/enospc-dd-reblock.sh \
  tests/reliability/short-io-cp.sh \
  tests/reliability/short-io-dd.sh \
  tests/reliability/short-records-dd.sh \
  tests/reliability/eintr-io-cp.sh \
  tests/reliability/eintr-io-dd.sh \
  tests/reliability/eio-cp.sh \
  tests/reliability/eio-dd.sh \
  tests/reliability/eio-dd-reblock.sh \
  tests/reliability/overlap-error-cp.sh \
  tests/reliability/overlap-short-eintr-cp.sh \
  tests/reliability/overlap-enospc-cp.sh \
  tests/reliability/uncached-fallback-cp.sh \
  tests/reliability/close-error-cp.sh \
  tests/reliability/close-error-dd.sh \
  tests/reliability/close-open-dd.sh \
  tests/reliability/resize-src-cp.sh \
  tests/reliability/resize-src-dd.sh \
  tests/reliability/signal-cp.sh \
  tests/reliability/signal-dd.sh \
  tests/reliability/sigint-dd.sh \
  tests/reliability/sigusr1-dd.sh \
  tests/reliability/sigusr1-cp.sh \
  tests/reliability/symlink-dest-cp.sh \
  tests/reliability/dangling-dest-cp.sh \
  tests/reliability/mode-during-copy-cp.sh \
  tests/reliability/setuid-cp.sh

EXTRA_DIST += $(filter tests/reliability/%, $(TESTS)) \
  tests/reliability/rel-helpers.sh tests/shim/faultshim.c \
  tests/shim/swapshim.c

## Fuzz harnesses, run by hand with `make fuzz`.
include tests/fuzz/local.mk
