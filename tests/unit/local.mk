## tests/unit/local.mk -- parts of cp tested alone: those --jobs is
## built from, and the walk.

check_PROGRAMS += tests/unit/test-workers tests/unit/test-cpus \
  tests/unit/test-walk
noinst_HEADERS += tests/unit/unit.h
tests_unit_test_workers_LDADD = $(cpdd_ldadd)
tests_unit_test_cpus_LDADD = $(cpdd_ldadd)
tests_unit_test_walk_SOURCES = tests/unit/test-walk.c src/walk.c
tests_unit_test_walk_LDADD = $(cpdd_ldadd)
TESTS += tests/unit/test-workers tests/unit/test-cpus tests/unit/test-walk

## mpicp's messages against the bytes x86-64 packed them into, so that
## a rank of the other byte order (make check-cross ARCH=s390x) is
## checked against the wire, not against itself.
check_PROGRAMS += tests/unit/test-proto-vectors
tests_unit_test_proto_vectors_SOURCES = tests/unit/test-proto-vectors.c \
  src/mpicp-proto.c
tests_unit_test_proto_vectors_LDADD = $(cpdd_ldadd)
TESTS += tests/unit/test-proto-vectors
EXTRA_DIST += tests/unit/proto-vectors.txt
