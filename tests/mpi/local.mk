## tests/mpi/local.mk -- tests of mpicp, which skip where configure
## built none or mpirun is missing.

## The library the tests preload into mpicp's ranks to log the
## messages they send, so as to wait for a state of the job (see
## tests/shim/mpishim.c).  Built as faultshim.so is, with MPI's header.
if BUILD_MPI
check_SCRIPTS += tests/shim/mpishim.so
tests/shim/mpishim.so: tests/shim/mpishim.c
	$(AM_V_CC)$(MKDIR_P) tests/shim && \
	{ $(CC) -shared -fPIC $(SHIM_CFLAGS) $(MPI_CFLAGS) -o $@ \
	    $(srcdir)/tests/shim/mpishim.c -ldl \
	  || { echo "$@ not built: tests that need it will skip" >&2; \
	       rm -f $@; }; }
endif
CLEANFILES += tests/shim/mpishim.so

## The messages' packing, which needs no MPI: each kind round-trips.
check_PROGRAMS += tests/mpi/proto-roundtrip
tests_mpi_proto_roundtrip_SOURCES = tests/mpi/proto-roundtrip.c \
  src/mpicp-proto.c
tests_mpi_proto_roundtrip_LDADD = $(cpdd_ldadd)

TESTS += \
  tests/mpi/proto-roundtrip.sh \
  tests/mpi/mpi-diff.sh \
  tests/mpi/mpi-chunk.sh \
  tests/mpi/mpi-resume.sh \
  tests/mpi/mpi-full.sh \
  tests/mpi/mpi-atomic.sh \
  tests/mpi/mpi-names.sh \
  tests/mpi/mpi-eio.sh \
  tests/mpi/mpi-hash.sh \
  tests/mpi/mpi-report.sh \
  tests/mpi/mpi-report-gift.sh \
  tests/mpi/mpi-walk.sh \
  tests/mpi/mpi-usr1.sh \
  tests/mpi/mpi-range-gift.sh \
  tests/mpi/mpi-yield.sh \
  tests/mpi/mpi-stats.sh \
  tests/mpi/mpi-progress.sh \
  tests/mpi/mpi-range-held.sh \
  tests/mpi/mpi-nodelay.sh \
  tests/mpi/mpi-nodelay-inherited.sh \
  tests/mpi/mpi-busy.sh \
  tests/mpi/mpi-flat-gift.sh \
  tests/mpi/mpi-keep-dir-link.sh

EXTRA_DIST += $(filter tests/mpi/%, $(TESTS)) tests/shim/mpishim.c
