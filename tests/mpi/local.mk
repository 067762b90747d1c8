## tests/mpi/local.mk -- tests of mpicp, which skip where configure
## built none or mpirun is missing.

TESTS += \
  tests/mpi/mpi-diff.sh \
  tests/mpi/mpi-chunk.sh \
  tests/mpi/mpi-full.sh \
  tests/mpi/mpi-names.sh \
  tests/mpi/mpi-eio.sh \
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

EXTRA_DIST += $(filter tests/mpi/%, $(TESTS))
