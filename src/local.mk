## src/local.mk -- programs and the transfer engine.

bin_PROGRAMS = src/cp src/dd

## Code shared by cp and dd: common helpers and the transfer engine.
noinst_LIBRARIES += src/libcpdd.a
src_libcpdd_a_SOURCES = \
  src/cpus.c \
  src/side-file.c \
  src/system.c \
  src/workers.c \
  src/xfer.c \
  src/xfer-cli.c \
  src/xfer-count.c \
  src/xfer-hash.c \
  src/xfer-io.c \
  src/xfer-mmap.c \
  src/xfer-offload.c \
  src/xfer-output.c \
  src/xfer-overlap.c \
  src/xfer-progress.c \
  src/xfer-range.c \
  src/xfer-readback.c \
  src/xfer-readloop.c \
  src/xfer-size.c \
  src/xfer-stats.c \
  src/xfer-window.c

noinst_HEADERS += \
  src/cpus.h \
  src/side-file.h \
  src/system.h \
  src/workers.h \
  src/xfer.h \
  src/xfer-hash.h \
  src/xfer-method.h \
  src/xfer-output.h \
  src/xfer-progress.h \
  src/xfer-range.h \
  src/xfer-readback.h \
  src/xfer-size.h \
  src/xfer-stats.h \
  src/xfer-types.h \
  src/xfer-window.h \
  src/xfer-io.h \
  src/xfer-cli.h \
  src/xfer-count.h \
  src/copy.h \
  src/copy-attr.h \
  src/copy-file.h \
  src/copy-atomic.h \
  src/copy-hash.h \
  src/copy-impl.h \
  src/copy-jobs.h \
  src/copy-links.h \
  src/copy-resume.h \
  src/copy-scout.h \
  src/copy-remote.h \
  src/copy-report.h \
  src/copy-sync.h \
  src/copy-walk.h \
  src/remote.h \
  src/walk.h

## Libraries gnulib may need, plus the engine's own.
cpdd_ldadd = src/libcpdd.a lib/libgnu.a \
  $(LIB_ACL) $(LIB_HAS_ACL) $(LIB_GETHRXTIME) $(LIB_NANOSLEEP) \
  $(LIB_CLOCK_GETTIME) $(LIB_FDATASYNC) $(LIB_MBRTOWC) $(LIB_URING) \
  $(LIB_CRYPTO) $(LIB_XXHASH) $(LIB_PTHREAD) $(LIB_ATOMIC)

cp_sources = src/cp.c src/copy.c src/copy-atomic.c src/copy-attr.c \
  src/copy-dir.c src/copy-file.c src/copy-hash.c src/copy-jobs.c \
  src/copy-links.c src/copy-report.c src/copy-resume.c src/copy-scout.c \
  src/copy-send.c src/copy-serve.c \
  src/copy-session.c src/copy-sync.c src/walk.c
src_cp_SOURCES = $(cp_sources) src/remote-none.c
src_cp_LDADD = $(cpdd_ldadd) $(LIB_XATTR)

## mpicp: cp's sources, with MPI's flags (so its objects are its own:
## cp never links MPI) and mpi-cp.c, which hands files to other ranks.
## cp.c takes the name that --version and --help give the program.
mpicp_sources = src/mpi-cp.c src/mpicp.h src/mpicp-comm.c \
  src/mpicp-comm.h src/mpicp-links.h src/mpicp-work.h \
  src/mpicp-links.c src/mpicp-work.c src/mpicp-proto.c src/mpicp-proto.h
EXTRA_DIST += $(mpicp_sources)
if BUILD_MPI
bin_PROGRAMS += src/mpicp
src_mpicp_SOURCES = $(cp_sources) $(mpicp_sources)
src_mpicp_CPPFLAGS = $(AM_CPPFLAGS) -DPROGRAM_NAME='"mpicp"'
src_mpicp_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
src_mpicp_LDADD = $(cpdd_ldadd) $(LIB_XATTR) $(MPI_LIBS)
endif

src_dd_SOURCES = src/dd.c src/dd-args.c src/dd-conv.c src/dd-report.c \
  src/dd-signal.c \
  src/dd-io.c \
  src/dd-open.c \
  src/dd-copy.c \
  src/dd.h src/dd-conv.h src/dd-impl.h
src_dd_LDADD = $(cpdd_ldadd)
