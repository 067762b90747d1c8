## tests/dd/local.mk -- tests of dd, one behaviour per file.

TESTS += \
  tests/dd/basic-diff.sh \
  tests/dd/operand-errors.pl \
  tests/dd/big-file.sh

EXTRA_DIST += $(filter tests/dd/%, $(TESTS))
