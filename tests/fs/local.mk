## tests/fs/local.mk -- copies on and between real file systems of
## several kinds, made on loop devices (as root) by tests/fs/fs-helpers.sh.

## The FUSE file system the tests mount: built only where libfuse3's
## development files are, like the fault-injection library; without
## it, the tests leave FUSE out.
check_SCRIPTS += tests/shim/plainfuse
tests/shim/plainfuse: tests/shim/plainfuse.c
	$(AM_V_CC)$(MKDIR_P) tests/shim && \
	{ fuse_flags=`pkg-config --cflags --libs fuse3 2>/dev/null` \
	  && $(CC) $(SHIM_CFLAGS) -o $@ $(srcdir)/tests/shim/plainfuse.c \
	       $$fuse_flags \
	  || { echo "$@ not built: the tests will leave FUSE out" >&2; \
	       rm -f $@; }; }
CLEANFILES += tests/shim/plainfuse

TESTS += \
  tests/fs/reflink.sh \
  tests/fs/resume-direct.sh \
  tests/fs/resume-fuse.sh \
  tests/fs/direct-4k.sh \
  tests/fs/fuse.sh \
  tests/fs/squashfs.sh \
  tests/fs/pairs.sh \
  tests/fs/latency.sh \
  tests/fs/crash-model.sh \
  tests/fs/crash-negative.sh \
  tests/fs/crash-fsync.sh \
  tests/fs/crash-atomic.sh \
  tests/fs/crash-resume.sh

EXTRA_DIST += $(filter tests/fs/%, $(TESTS)) \
  tests/fs/fs-helpers.sh tests/shim/plainfuse.c \
  tests/fs/crash-lib.sh tests/fs/crash-state.pl tests/fs/CRASH-MODEL
