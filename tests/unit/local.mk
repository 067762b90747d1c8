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
