## doc/local.mk -- the texinfo manual and the man pages.

info_TEXINFOS += doc/cpdd.texi
doc_cpdd_TEXINFOS = doc/cp.texi doc/dd.texi doc/mpicp.texi doc/xfer.texi doc/cpdd-bench.texi \
  doc/install.texi doc/porting.texi

## Man pages are made from the built programs' --help and --version,
## so they cannot drift from them.
man_MANS += doc/cp.1 doc/dd.1 doc/cpdd-bench.1
CLEANFILES += doc/cp.1 doc/dd.1 doc/cpdd-bench.1
EXTRA_DIST += doc/cp.x doc/dd.x doc/cpdd-bench.x doc/mpicp.x doc/HACKING

cpdd_help2man = $(HELP2MAN) --no-info --output=$@-t

doc/cp.1: src/cp$(EXEEXT) doc/cp.x
	$(AM_V_GEN)$(MKDIR_P) doc \
	  && $(cpdd_help2man) --include=$(srcdir)/doc/cp.x src/cp$(EXEEXT) \
	  && mv $@-t $@

doc/dd.1: src/dd$(EXEEXT) doc/dd.x
	$(AM_V_GEN)$(MKDIR_P) doc \
	  && $(cpdd_help2man) --include=$(srcdir)/doc/dd.x src/dd$(EXEEXT) \
	  && mv $@-t $@

## cpdd-bench prints its --help and --version from bench/common.sh,
## not from the entry point.
doc/cpdd-bench.1: bench/cpdd-bench bench/common.sh doc/cpdd-bench.x
	$(AM_V_GEN)$(MKDIR_P) doc \
	  && $(cpdd_help2man) --include=$(srcdir)/doc/cpdd-bench.x \
	     bench/cpdd-bench \
	  && mv $@-t $@

if BUILD_MPI
man_MANS += doc/mpicp.1
endif
CLEANFILES += doc/mpicp.1

## Open MPI leaves memory allocated at exit, which the leak check of a
## build with AddressSanitizer (make check-sanitize) would report,
## failing the run.
doc/mpicp.1: src/mpicp$(EXEEXT) doc/mpicp.x
	$(AM_V_GEN)$(MKDIR_P) doc \
	  && ASAN_OPTIONS="$${ASAN_OPTIONS:+$$ASAN_OPTIONS:}detect_leaks=0" \
	  && export ASAN_OPTIONS \
	  && $(cpdd_help2man) --include=$(srcdir)/doc/mpicp.x \
	     src/mpicp$(EXEEXT) \
	  && mv $@-t $@
