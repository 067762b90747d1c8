## tests/local.mk -- the test suite, run by automake's parallel harness.
## Each directory lists its own tests in its own fragment.

TEST_SUITE_LOG = tests/test-suite.log
TEST_EXTENSIONS = .sh .pl
SH_LOG_COMPILER = $(SHELL)
PL_LOG_COMPILER = $(PERL) -I$(srcdir)/tests

## What every test sees: our programs first on PATH (init.sh's
## path_prepend_), the C locale so messages are comparable with GNU's,
## and the build's Perl helper.
AM_TESTS_ENVIRONMENT = \
  . $(srcdir)/tests/lang-default; \
  abs_top_builddir='$(abs_top_builddir)'; \
  abs_top_srcdir='$(abs_top_srcdir)'; \
  abs_srcdir='$(abs_srcdir)'; \
  built_programs='cp dd'; \
  srcdir='$(srcdir)'; \
  PATH='$(abs_top_builddir)/src$(PATH_SEPARATOR)'"$$PATH"; \
  export abs_top_builddir abs_top_srcdir abs_srcdir built_programs \
    srcdir PATH;

EXTRA_DIST += tests/lang-default tests/init.sh tests/CpddTest.pm \
  tests/CpddRandom.pm tests/diff-helpers.sh

include tests/cp/local.mk
include tests/dd/local.mk
include tests/xfer/local.mk
include tests/reliability/local.mk
include tests/dist/local.mk
