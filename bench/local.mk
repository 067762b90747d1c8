## bench/local.mk -- cpdd-bench, the installed benchmark program, its
## tests, and `make bench'.  Included from the top Makefile.am, so the
## paths are relative to the top directory.

## cpdd-bench is an entry point that reads the rest of the program, a
## file per subcommand and the parts they share, with ".".  The parts
## are not programs to run but text read by the shell, the same on
## every architecture: data for $(pkgdatadir), as the GNU Coding
## Standards have it, and not executables for $(pkglibexecdir).
benchpartsdir = $(pkgdatadir)/bench
dist_benchparts_DATA = \
  bench/common.sh \
  bench/machinery.sh \
  bench/compare.sh \
  bench/verify.sh \
  bench/sweep.sh \
  bench/trees.sh \
  bench/tree.sh \
  bench/mpi.sh \
  bench/resume.sh

## The entry point is made twice, each copy told where it runs from
## and where its parts are, so that neither reads another build's:
## bench/cpdd-bench, which the tests, `make bench' and help2man run,
## reads them in the source tree (VPATH builds too);
## bench/inst/cpdd-bench, installed as cpdd-bench, reads those
## installed in $(benchpartsdir).
noinst_SCRIPTS += bench/cpdd-bench
bin_SCRIPTS += bench/inst/cpdd-bench
CLEANFILES += bench/cpdd-bench bench/cpdd-bench-t \
  bench/inst/cpdd-bench bench/inst/cpdd-bench-t
EXTRA_DIST += bench/cpdd-bench.in bench/README.md

## bench_subst makes $@ with the shell variables script_dir and
## parts_dir that its rule sets.  The placeholders are spelled with [@]
## so that config.status leaves these rules alone when it makes the
## Makefile.
bench_subst = $(MKDIR_P) `dirname $@` \
  && rm -f $@ $@-t \
  && $(SED) -e 's|@VERSION[@]|$(VERSION)|g' \
            -e 's|@PACKAGE_NAME[@]|$(PACKAGE_NAME)|g' \
            -e "s|@script_dir[@]|$$script_dir|g" \
            -e "s|@parts_dir[@]|$$parts_dir|g" \
            $(srcdir)/bench/cpdd-bench.in > $@-t \
  && chmod a+x,a-w $@-t \
  && mv $@-t $@

bench/cpdd-bench: bench/cpdd-bench.in Makefile
	$(AM_V_GEN)script_dir='$(abs_top_builddir)/bench'; \
	  parts_dir='$(abs_top_srcdir)/bench'; \
	  $(bench_subst)

bench/inst/cpdd-bench: bench/cpdd-bench.in Makefile
	$(AM_V_GEN)script_dir='$(bindir)'; parts_dir='$(benchpartsdir)'; \
	  $(bench_subst)

## "make installcheck" (run by distcheck on its installed copy): the
## installed cpdd-bench finds the parts of every subcommand.
installcheck-local: installcheck-bench
.PHONY: installcheck-bench
installcheck-bench:
	@b='$(DESTDIR)$(bindir)/'`echo cpdd-bench | sed '$(transform)'`; \
	for c in compare verify sweep tree mpi; do \
	  echo "$$b $$c --help"; \
	  "$$b" $$c --help > /dev/null || exit 1; \
	done

## uring-tree: whether io_uring batches beat plain system calls on a
## directory of small files (issue 18); see bench/README.md.
noinst_PROGRAMS += bench/uring-tree
bench_uring_tree_SOURCES = bench/uring-tree.c bench/bench-util.c bench/bench-util.h
bench_uring_tree_LDADD = lib/libgnu.a $(LIB_URING) $(LIB_PTHREAD)

## file-floor: what a small file's copy costs at least, with and without
## the calls cp -a needs (issue 46); see bench/README.md.
noinst_PROGRAMS += bench/file-floor
bench_file_floor_SOURCES = bench/file-floor.c bench/bench-util.c bench/bench-util.h
bench_file_floor_LDADD = lib/libgnu.a $(LIB_PTHREAD)

bench_tests = \
  tests/bench/usage.sh \
  tests/bench/compare.sh \
  tests/bench/verify.sh \
  tests/bench/compare-variants.sh \
  tests/bench/compare-fs.sh \
  tests/bench/missing-tool.sh \
  tests/bench/cold.sh \
  tests/bench/cached.sh \
  tests/bench/page-reporting.sh \
  tests/bench/sweep.sh \
  tests/bench/portable-sh.sh \
  tests/bench/tree.sh \
  tests/bench/tree-peers.sh \
  tests/bench/mpi.sh \
  tests/bench/resume.sh \
  tests/bench/uring-tree.sh \
  tests/bench/file-floor.sh
TESTS += $(bench_tests)
EXTRA_DIST += $(bench_tests) tests/bench/tools-dir.sh

## `make bench': a quick compare and a read-only sweep with the cp and
## dd just built, into $(BENCH_DIR).  Override the variables for more,
## e.g. make bench BENCH_SIZE=1G BENCH_COMPARE_FLAGS=--cold
BENCH_DIR = bench/results
BENCH_SIZE = 256M
BENCH_RUNS = 3
BENCH_COMPARE_FLAGS =
BENCH_SWEEP_FLAGS =

.PHONY: bench bench-clean
bench: bench/cpdd-bench src/cp$(EXEEXT) src/dd$(EXEEXT)
	@$(MKDIR_P) $(BENCH_DIR)
	@status=0; \
	$(SHELL) bench/cpdd-bench compare --size $(BENCH_SIZE) \
	  --runs $(BENCH_RUNS) \
	  --cp '$(abs_top_builddir)/src/cp$(EXEEXT)' \
	  --dd '$(abs_top_builddir)/src/dd$(EXEEXT)' \
	  --csv $(BENCH_DIR)/compare.csv --raw $(BENCH_DIR)/compare-runs.csv \
	  $(BENCH_COMPARE_FLAGS) $(BENCH_DIR) > $(BENCH_DIR)/compare.txt \
	  || status=1; \
	cat $(BENCH_DIR)/compare.txt; echo; \
	$(SHELL) bench/cpdd-bench sweep --read-only --size $(BENCH_SIZE) \
	  --runs $(BENCH_RUNS) \
	  --dd '$(abs_top_builddir)/src/dd$(EXEEXT)' --dir $(BENCH_DIR) \
	  --csv $(BENCH_DIR)/sweep.csv --plot $(BENCH_DIR)/sweep.svg \
	  $(BENCH_SWEEP_FLAGS) > $(BENCH_DIR)/sweep.txt \
	  || status=1; \
	cat $(BENCH_DIR)/sweep.txt; \
	echo "results in $(BENCH_DIR)/"; \
	exit $$status

bench-clean:
	rm -rf $(BENCH_DIR)
