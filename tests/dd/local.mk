## tests/dd/local.mk -- tests of dd, one behaviour per file.

TESTS += \
  tests/dd/basic-diff.sh \
  tests/dd/hash.sh \
  tests/dd/hashlog-true.sh \
  tests/dd/operand-errors.pl \
  tests/dd/big-file.sh \
  tests/dd/iflag-mmap.sh \
  tests/dd/conv-charset.sh \
  tests/dd/conv-block.sh \
  tests/dd/conv-swab.sh \
  tests/dd/conv-sync.sh \
  tests/dd/conv-output.sh \
  tests/dd/read-errors.sh \
  tests/dd/write-errors.sh \
  tests/dd/open-flags.sh \
  tests/dd/byte-counts.sh \
  tests/dd/positions.sh \
  tests/dd/short-reads.sh \
  tests/dd/direct.sh \
  tests/dd/nocache.sh \
  tests/dd/status.sh \
  tests/dd/json.sh \
  tests/dd/signals.sh \
  tests/dd/conv-charset-records.sh \
  tests/dd/skip-past-end-status.sh \
  tests/dd/operand-repeat.sh \
  tests/dd/sync-fail.sh \
  tests/dd/nocache-ranges.sh \
  tests/dd/nocache-fail.sh \
  tests/dd/truncate-fail.sh \
  tests/dd/help.sh \
  tests/dd/option-position.sh \
  tests/dd/size-suffixes.sh \
  tests/dd/bs-conv-buffers.sh \
  tests/dd/random-diff.pl

EXTRA_DIST += $(filter tests/dd/%, $(TESTS))

## Unit tests of the conversions, independent of how input is split.
check_PROGRAMS += tests/unit/test-dd-conv
tests_unit_test_dd_conv_SOURCES = tests/unit/test-dd-conv.c src/dd-conv.c
tests_unit_test_dd_conv_LDADD = $(cpdd_ldadd)
TESTS += tests/unit/test-dd-conv
