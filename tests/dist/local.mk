## tests/dist/local.mk -- installing: names, the installed programs,
## uninstalling.  (The Debian package is tested by "make deb-check".)

TESTS += \
  tests/dist/install-drop-in.sh \
  tests/dist/install-transform.sh \
  tests/dist/uninstall.sh

EXTRA_DIST += $(filter tests/dist/%, $(TESTS)) tests/dist/install-helpers.sh
