## tests/fuzz/local.mk -- libFuzzer harnesses; `make fuzz` builds and
## runs each for FUZZ_SECONDS (CI: make fuzz FUZZ_SECONDS=60).  Not part
## of `make check`.

## The harnesses are compiled with clang, with the sources they test
## (the engine's, and dd's) rebuilt with the fuzzer's coverage and the
## sanitizers, rather than linked from the gcc-built src/libcpdd.a,
## whose code the fuzzer could not see into.  Only gnulib's code comes
## from the build.
FUZZ_CC = clang
FUZZ_SECONDS = 600
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CPPFLAGS = -I$(top_builddir) $(AM_CPPFLAGS)
FUZZ_LIBS = lib/libgnu.a $(LIB_ACL) $(LIB_HAS_ACL) $(LIB_GETHRXTIME) \
  $(LIB_NANOSLEEP) $(LIB_CLOCK_GETTIME) $(LIB_FDATASYNC) $(LIB_MBRTOWC) \
  $(LIB_URING) $(LIB_CRYPTO) $(LIB_XXHASH) $(LIB_PTHREAD) \
  $(LIB_ATOMIC)
## Huge buffers (obs=20G) must reach dd's own "memory exhausted" path,
## not the fuzzer's memory limit: AddressSanitizer writes the shadow of
## every allocation, so a buffer dd never touches would still cost an
## eighth of its size.  Allocations over 64 MiB fail instead.  Leaks are
## findings too: a run that ends with memory lost stops the fuzzer.
FUZZ_RUN_ENV = ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1:max_allocation_size_mb=64
FUZZ_RUN_FLAGS = -rss_limit_mb=1024 -malloc_limit_mb=1000000 \
  -max_len=256 -timeout=10 -close_fd_mask=3
fuzz_engine_sources = $(addprefix $(srcdir)/,$(src_libcpdd_a_SOURCES))
fuzz_programs = tests/fuzz/fuzz-parse-size tests/fuzz/fuzz-dd-args \
  tests/fuzz/fuzz-cp-args

tests/fuzz/fuzz-parse-size: $(srcdir)/tests/fuzz/fuzz-parse-size.c \
    $(fuzz_engine_sources) lib/libgnu.a
	$(AM_V_CCLD)$(MKDIR_P) tests/fuzz && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ \
	  $(srcdir)/tests/fuzz/fuzz-parse-size.c $(fuzz_engine_sources) \
	  $(FUZZ_LIBS)

## A harness that runs a program's main in-process links in-process.c,
## with the calls by which the program ends wrapped.
fuzz_in_process = $(srcdir)/tests/fuzz/in-process.c
fuzz_in_process_wraps = -Wl,--wrap=exit -Wl,--wrap=atexit \
  -Wl,--wrap=error -Wl,--wrap=error_at_line
tests/fuzz/fuzz-dd-args: $(srcdir)/tests/fuzz/fuzz-dd-args.c \
    $(fuzz_in_process) $(srcdir)/tests/fuzz/in-process.h \
    $(addprefix $(srcdir)/,$(src_dd_SOURCES)) $(fuzz_engine_sources) \
    lib/libgnu.a
	$(AM_V_CCLD)$(MKDIR_P) tests/fuzz && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -Dmain=dd_main \
	  $(fuzz_in_process_wraps) -o $@ \
	  $(srcdir)/tests/fuzz/fuzz-dd-args.c $(fuzz_in_process) \
	  $(filter %.c,$(addprefix $(srcdir)/,$(src_dd_SOURCES))) \
	  $(fuzz_engine_sources) $(FUZZ_LIBS)

## cp.c's main with its copying left out: the harness supplies copy ().
tests/fuzz/fuzz-cp-args: $(srcdir)/tests/fuzz/fuzz-cp-args.c \
    $(fuzz_in_process) $(srcdir)/tests/fuzz/in-process.h \
    $(srcdir)/src/cp.c $(srcdir)/src/remote-none.c \
    $(srcdir)/src/copy-attr.c $(fuzz_engine_sources) \
    lib/libgnu.a
	$(AM_V_CCLD)$(MKDIR_P) tests/fuzz && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -Dmain=cp_main \
	  $(fuzz_in_process_wraps) -o $@ \
	  $(srcdir)/tests/fuzz/fuzz-cp-args.c $(fuzz_in_process) \
	  $(srcdir)/src/cp.c $(srcdir)/src/remote-none.c \
	  $(srcdir)/src/copy-attr.c $(fuzz_engine_sources) $(FUZZ_LIBS) \
	  $(LIB_XATTR)

## Before building the harnesses: clang, and its libFuzzer and sanitizer
## runtimes, which Debian packages apart from clang, named after its
## major version.  Order-only, so that it does not relink them.
.PHONY: fuzz-tools
fuzz-tools:
	@$(call need_prog,$(FUZZ_CC),clang)
	@$(MKDIR_P) tests/fuzz && \
	printf 'int LLVMFuzzerTestOneInput (void const *p, unsigned long n)%s\n' \
	  ' { return 0; }' > tests/fuzz/conftest.c && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o tests/fuzz/conftest tests/fuzz/conftest.c \
	  2> /dev/null; \
	status=$$?; rm -f tests/fuzz/conftest tests/fuzz/conftest.c; \
	major=`$(FUZZ_CC) -dumpversion | sed 's/\..*//'`; \
	test $$status = 0 \
	  || { echo "$@: $(FUZZ_CC) cannot link libFuzzer with the sanitizers;" \
	            "install the Debian package libclang-rt-$$major-dev" \
	            "(./bootstrap --install-deps does)" >&2; exit 1; }
$(fuzz_programs): | fuzz-tools

## Each harness runs from its seed corpus (tests/fuzz/*.seeds, one input
## a line) into a working corpus in the build tree; crashes land in
## tests/fuzz/crashes/ and should become regression tests.
fuzz: $(fuzz_programs)
	@$(MKDIR_P) tests/fuzz/crashes
	@for f in $(fuzz_programs); do \
	  name=`basename $$f`; corpus=tests/fuzz/corpus-$$name; \
	  $(MKDIR_P) $$corpus || exit 1; \
	  seeds=$(srcdir)/tests/fuzz/$$name.seeds; i=0; \
	  if test -f $$seeds; then \
	    while IFS= read -r line; do \
	      i=`expr $$i + 1`; \
	      printf '%s' "$$line" | tr '|' '\n' > $$corpus/seed-$$i; \
	    done < $$seeds; \
	  fi; \
	  echo "fuzzing $$name for $(FUZZ_SECONDS) s"; \
	  $(FUZZ_RUN_ENV) ./$$f $(FUZZ_RUN_FLAGS) \
	    -max_total_time=$(FUZZ_SECONDS) \
	    -artifact_prefix=tests/fuzz/crashes/$$name- $$corpus \
	    > tests/fuzz/$$name.log 2>&1 \
	    || { tail -n 40 tests/fuzz/$$name.log; exit 1; }; \
	  tail -n 3 tests/fuzz/$$name.log; \
	done

.PHONY: fuzz
MOSTLYCLEANFILES += $(fuzz_programs)
EXTRA_DIST += tests/fuzz/fuzz-parse-size.c tests/fuzz/fuzz-dd-args.c \
  tests/fuzz/fuzz-cp-args.c tests/fuzz/fuzz-parse-size.seeds \
  tests/fuzz/fuzz-dd-args.seeds tests/fuzz/fuzz-cp-args.seeds
