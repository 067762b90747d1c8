## tests/cp/local.mk -- tests of cp, one behaviour per file.

TESTS += \
  tests/cp/basic-diff.sh \
  tests/cp/errors-diff.sh \
  tests/cp/big-file.sh \
  tests/cp/buffer-size.sh \
  tests/cp/recursive-diff.sh \
  tests/cp/archive-diff.sh \
  tests/cp/dereference-diff.sh \
  tests/cp/preserve-diff.sh \
  tests/cp/xattr-diff.sh \
  tests/cp/attributes-only-diff.sh \
  tests/cp/interactive-diff.sh \
  tests/cp/update-diff.sh \
  tests/cp/backup-diff.sh \
  tests/cp/remove-destination-diff.sh \
  tests/cp/same-file-diff.sh \
  tests/cp/same-file-matrix-diff.sh \
  tests/cp/link-diff.sh \
  tests/cp/symlink-diff.sh \
  tests/cp/parents-diff.sh \
  tests/cp/trailing-slash-diff.sh \
  tests/cp/sparse-reflink-diff.sh \
  tests/cp/context-diff.sh \
  tests/cp/option-errors-diff.sh \
  tests/cp/special-files-diff.sh \
  tests/cp/permissions-diff.sh \
  tests/cp/missing-diff.sh \
  tests/cp/help-options.sh \
  tests/cp/tree-overwrite-diff.sh \
  tests/cp/link-dest-diff.sh \
  tests/cp/preserve-links-diff.sh \
  tests/cp/one-file-system-diff.sh \
  tests/cp/verbose-diff.sh \
  tests/cp/long-option-abbrev-diff.sh \
  tests/cp/parents-attrs-diff.sh \
  tests/cp/duplicate-operands-diff.sh \
  tests/cp/backup-duplicate-diff.sh \
  tests/cp/link-update-diff.sh \
  tests/cp/link-deref-operands-diff.sh \
  tests/cp/link-interactive-diff.sh \
  tests/cp/link-heap.sh \
  tests/cp/attributes-only-links-diff.sh \
  tests/cp/link-loop-dest-diff.sh \
  tests/cp/just-created-link-diff.sh \
  tests/cp/overwrite-order-diff.sh \
  tests/cp/dest-dir-link-diff.sh \
  tests/cp/interactive-link-diff.sh \
  tests/cp/sparse-tail-diff.sh \
  tests/cp/capability-diff.sh \
  tests/cp/xattr-errors-diff.sh \
  tests/cp/xattr-none-diff.sh \
  tests/cp/xattr-readonly-diff.sh \
  tests/cp/symlink-attrs-diff.sh \
  tests/cp/no-preserve-mode-diff.sh \
  tests/cp/setid-existing-diff.sh \
  tests/cp/posix-own-link.sh \
  tests/cp/random-diff.pl \
  tests/cp/race-swap.sh \
  tests/cp/race-stress.sh \
  tests/cp/deep-tree.sh \
  tests/cp/owner-match-diff.sh \
  tests/cp/new-dir-diff.sh

EXTRA_DIST += $(filter tests/cp/%, $(TESTS))
