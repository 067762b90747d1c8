## tests/local.mk -- the test suite, run by automake's parallel harness.
## Each directory lists its own tests in its own fragment.

TEST_SUITE_LOG = tests/test-suite.log
TEST_EXTENSIONS = .sh .pl
SH_LOG_COMPILER = $(SHELL)
PL_LOG_COMPILER = $(PERL) -I$(srcdir)/tests

## What every test sees: our programs first on PATH (init.sh's
## path_prepend_), the C locale so messages are comparable with GNU's,
## and the build's Perl helper.  The benchmark's tests leave the
## machine's reporting of free memory to its host alone.
AM_TESTS_ENVIRONMENT = \
  . $(srcdir)/tests/lang-default; \
  abs_top_builddir='$(abs_top_builddir)'; \
  abs_top_srcdir='$(abs_top_srcdir)'; \
  abs_srcdir='$(abs_srcdir)'; \
  built_programs='cp dd'; \
  srcdir='$(srcdir)'; \
  PATH='$(abs_top_builddir)/src$(PATH_SEPARATOR)'"$$PATH"; \
  gnu_oracle=$$(cat '$(abs_top_builddir)/$(GNU_ORACLE)' 2>/dev/null); \
  cp_objects='$(src_cp_OBJECTS)'; \
  CPDD_BENCH_PAGE_REPORTING=/nonexistent/min_free_ms; \
  export abs_top_builddir abs_top_srcdir abs_srcdir built_programs \
    srcdir PATH gnu_oracle cp_objects CPDD_BENCH_PAGE_REPORTING;

## What the differential tests compare with: the GNU release that
## configure.ac pins (GNU_REFERENCE), built once into a cache by
## tests/gnu-oracle, never the machine's own cp and dd.  The file holds
## the directory of GNU's cp and dd, or the line that says why there is
## none, in which case those tests skip with it.  Remade by every "make
## check": once the cache has the build, that costs a look at a file.
GNU_ORACLE = tests/gnu-oracle.dir
check_DATA = $(GNU_ORACLE)
.PHONY: $(GNU_ORACLE)
$(GNU_ORACLE):
	@$(MKDIR_P) tests
	@if dir=$$($(SHELL) $(srcdir)/tests/gnu-oracle '$(GNU_REFERENCE)' \
	      2> $@.err); then \
	  echo "$$dir"; \
	else \
	  sed -n '$$s/^gnu-oracle: //p' $@.err; \
	fi > $@.tmp; \
	cat $@.err >&2; \
	rm -f $@.err && mv $@.tmp $@
CLEANFILES += $(GNU_ORACLE)

## The C library's words for each error number, which the tests turn
## into glibc's before comparing with GNU's programs.
check_PROGRAMS += tests/strerror-words
tests_strerror_words_LDADD = $(cpdd_ldadd)

## The CPU the tests' programs run on, as they see it (emulated_ in
## tests/diff-helpers.sh).
check_PROGRAMS += tests/cross/probe

EXTRA_DIST += tests/lang-default tests/init.sh tests/CpddTest.pm \
  tests/gnu-oracle \
  tests/CpddRandom.pm tests/diff-helpers.sh

include tests/cp/local.mk
include tests/mpi/local.mk
include tests/dd/local.mk
include tests/xfer/local.mk
include tests/reliability/local.mk
include tests/dist/local.mk
include tests/unit/local.mk
include tests/fs/local.mk

## GNU coreutils' own tests of cp and dd, from the release the oracle
## is built from (see tests/upstream/check-upstream), run against GNU's
## binaries and ours, as root and unprivileged.  Not part of "make
## check": it takes minutes.  tests/upstream-suite.log gets the table.
## "make check-upstream CPDD_UPSTREAM_JOBS=4" also runs the scripts that
## use cp with our cp forced to --jobs=4 (CPDD_UPSTREAM_JOBS_MODES=root:
## only as root).
UPSTREAM_SUITE_LOG = tests/upstream-suite.log
EXTRA_DIST += tests/upstream/check-upstream
.PHONY: check-upstream
check-upstream: all
	CPDD_UPSTREAM_JOBS='$(CPDD_UPSTREAM_JOBS)' \
	$(SHELL) $(srcdir)/tests/upstream/check-upstream \
	  '$(abs_top_builddir)/src' '$(abs_top_builddir)/$(UPSTREAM_SUITE_LOG)' \
	  '$(GNU_REFERENCE)'
CLEANFILES += $(UPSTREAM_SUITE_LOG)
clean-local: clean-upstream-logs
.PHONY: clean-upstream-logs
clean-upstream-logs:
	rm -rf tests/upstream-suite-logs
