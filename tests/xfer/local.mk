## tests/xfer/local.mk -- the transfer engine, through cp and dd.

## Drivers that call the engine directly: one file through xfer_copy
## with any options, the mmap window reader on a shrinking file, and
## the split of a file into ranges and the merge of their outcomes.
check_PROGRAMS += tests/xfer/xfer-copy tests/xfer/window-shrink \
  tests/xfer/range-split
tests_xfer_xfer_copy_LDADD = $(cpdd_ldadd)
tests_xfer_window_shrink_LDADD = $(cpdd_ldadd)
tests_xfer_range_split_LDADD = $(cpdd_ldadd)

TESTS += \
  tests/xfer/buffer-auto.sh \
  tests/xfer/debug-report.sh \
  tests/xfer/direct-every-size.sh \
  tests/xfer/direct-overlap.sh \
  tests/xfer/direct-huge-pages.sh \
  tests/xfer/direct-unsupported.sh \
  tests/xfer/invalid-args.sh \
  tests/xfer/offload-fallback.sh \
  tests/xfer/progress.sh \
  tests/xfer/range-split.sh \
  tests/xfer/reflink-always.sh \
  tests/xfer/round-trip.sh \
  tests/xfer/round-trip-tmpfs.sh \
  tests/xfer/runtime-fallbacks.sh \
  tests/xfer/sparse.sh \
  tests/xfer/sparse-tmpfs.sh \
  tests/xfer/sparse-seek.sh \
  tests/xfer/stats.sh \
  tests/xfer/uncached.sh \
  tests/xfer/window-shrink.sh \
  tests/xfer/write-error.sh \
  tests/xfer/layering.sh \
  tests/xfer/large-file.sh

EXTRA_DIST += $(filter tests/xfer/%, $(TESTS)) tests/xfer/matrix.sh \
  tests/xfer/sparse-checks.sh
