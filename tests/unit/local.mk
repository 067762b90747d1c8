## tests/unit/local.mk -- the parts --jobs is built from, tested alone.

check_PROGRAMS += tests/unit/test-workers tests/unit/test-cpus
tests_unit_test_workers_LDADD = $(cpdd_ldadd)
tests_unit_test_cpus_LDADD = $(cpdd_ldadd)
TESTS += tests/unit/test-workers tests/unit/test-cpus
