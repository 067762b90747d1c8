## tests/xfer/local.mk -- the transfer engine, through cp and dd.

## Drivers that call the engine directly: one file through xfer_copy
## with any options, and the mmap window reader on a shrinking file.
check_PROGRAMS += tests/xfer/xfer-copy tests/xfer/window-shrink
tests_xfer_xfer_copy_LDADD = $(cpdd_ldadd)
tests_xfer_window_shrink_LDADD = $(cpdd_ldadd)

TESTS += \
  tests/xfer/window-shrink.sh

EXTRA_DIST += $(filter tests/xfer/%, $(TESTS))
