/* xfer-types.h -- the types the transfer engine's callers fill in.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Types only, no functions: what a caller asks of the engine, the
   files it gives it, and what the engine says it did.  Every layer of
   the engine speaks them, the lowest too, so they sit in the lowest
   layer (see doc/HACKING).  */

#ifndef CPDD_XFER_TYPES_H
#define CPDD_XFER_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "idx.h"

/* How data is moved.  AUTO lets the engine pick, per file.  */
enum xfer_method
{
  XFER_METHOD_AUTO,
  XFER_METHOD_READ,		/* read/write loop through one buffer */
  XFER_METHOD_MMAP,		/* map the input in windows, write from them */
  XFER_METHOD_OFFLOAD		/* copy_file_range, else sendfile */
};

/* Direct I/O, as a bit mask of the ends that use it.  */
enum
{
  XFER_DIRECT_IN = 1,
  XFER_DIRECT_OUT = 2,
  XFER_DIRECT_BOTH = XFER_DIRECT_IN | XFER_DIRECT_OUT
};

enum xfer_sparse
{
  XFER_SPARSE_NEVER,		/* write every byte, holes too: no clone,
                                   and no offload by choice, as either
                                   may leave holes */
  XFER_SPARSE_AUTO,		/* keep holes the source has */
  XFER_SPARSE_ALWAYS		/* also make holes of zero runs */
};

enum xfer_reflink
{
  XFER_REFLINK_NEVER,
  XFER_REFLINK_AUTO,
  XFER_REFLINK_ALWAYS
};

struct xfer_sink;

/* What the caller asks for.  Zero-initialised means: automatic method
   (which then reads), automatic buffer size, no direct I/O, no sparse
   output, no reflink, no progress line and no statistics.  GNU cp's
   defaults are XFER_SPARSE_AUTO and XFER_REFLINK_AUTO.
   xfer_cli_option makes the session's sink for --progress and
   --stats; xfer_session_end ends it.  */
struct xfer_opts
{
  enum xfer_method method;
  idx_t buffer_size;		/* 0: choose from the files' block sizes */
  int direct;			/* XFER_DIRECT_* bits */
  bool uncached;		/* buffered, leaving the page cache as it was */
  enum xfer_sparse sparse;
  enum xfer_reflink reflink;
  struct xfer_sink *sink;	/* whole-command totals, or NULL */
};

/* One end of a transfer: an open descriptor, its name for diagnostics,
   its status as the caller last saw it, and whether the caller has
   just opened it, so that a regular file's offset is known to be 0
   without asking.  A source may be known to be a regular file whose
   data ends where that status says, on a file system whose sizes are
   true: its copy then stops there, and does not ask once more for
   data that is not there.  */
struct xfer_file
{
  int fd;
  char const *name;
  struct stat const *st;
  bool just_opened;
  bool size_true;
};

/* Whether a shortcut was taken, as --debug reports it.  */
enum xfer_attempt
{
  XFER_ATTEMPT_UNKNOWN,		/* never reached (e.g. an earlier failure) */
  XFER_ATTEMPT_YES,		/* it moved the data */
  XFER_ATTEMPT_UNSUPPORTED,	/* tried; the system refused */
  XFER_ATTEMPT_AVOIDED		/* not tried, by choice */
};

/* How holes were found.  */
enum
{
  XFER_DETECT_SEEK_HOLE = 1,	/* the source's extents (SEEK_DATA) */
  XFER_DETECT_ZEROS = 2,	/* runs of zero bytes */
  XFER_DETECT_UNKNOWN = 4	/* the data was never looked at: a clone
                                   shares it, or the clone --reflink=always
                                   asked for failed */
};

/* How reads and writes were kept in flight together (direct I/O).  */
enum xfer_queue
{
  XFER_QUEUE_NONE,		/* one transfer at a time */
  XFER_QUEUE_URING,		/* io_uring */
  XFER_QUEUE_THREAD		/* a reader thread and a ring of buffers */
};

/* How --uncached kept the data out of the page cache.  */
enum xfer_uncached
{
  XFER_UNCACHED_NO,
  XFER_UNCACHED_DONTCACHE,	/* the kernel dropped it (RWF_DONTCACHE) */
  XFER_UNCACHED_DROP		/* dropped behind the copy (posix_fadvise) */
};

/* Whether the data went past the hash xfer_copy_hashed was given.  */
enum xfer_hashed
{
  XFER_HASHED_NOT_ASKED,
  XFER_HASHED_PASSING,		/* every byte, as it was copied */
  XFER_HASHED_MISSED		/* the kernel moved some of it (a clone or
                                   an offload asked for): the caller
                                   reads the source to hash it */
};

/* How xfer_hash_back read a file.  */
enum xfer_readback
{
  XFER_READBACK_CACHE,		/* as the page cache has it */
  XFER_READBACK_DIRECT,		/* from storage, with direct I/O */
  XFER_READBACK_DROPPED,	/* from storage: synced, then dropped from
                                   the cache before reading */
  XFER_READBACK_LATER		/* left for later, with the other small
                                   files near it, after one sync of
                                   their file system (cp --verify) */
};

/* What a transfer actually did, for --debug, --stats and the tests.  */
struct xfer_report
{
  enum xfer_method method;	/* the method that moved the data */
  bool reflinked;		/* the destination shares the source's extents */
  bool holes;			/* holes were made in the destination */
  int direct;			/* XFER_DIRECT_* bits that took effect */
  idx_t buffer_size;		/* buffer or mmap window size, 0 if none */
  intmax_t bytes;		/* bytes of output produced, holes included */
  enum xfer_attempt offload;	/* copy_file_range (sendfile, where it
                                   is refused, shows in METHOD only) */
  enum xfer_attempt reflink;	/* FICLONE */
  int detection;		/* XFER_DETECT_* bits */
  enum xfer_queue queue;
  int inflight;			/* buffers in flight with a queue */
  enum xfer_uncached uncached;	/* the weakest way used on either end */
  intmax_t ranges;		/* ranges copied at once (cp --jobs), or 0 */
  enum xfer_hashed hashed;	/* whether xfer_copy_hashed saw the data */
  bool differs;			/* a range of it read back differently from
                                   what was copied (cp --verify, --jobs) */
  bool read_back;		/* the copy was read back (cp --verify)... */
  enum xfer_readback readback;	/* ...so */
};

/* Where xfer_copy reports as it goes, for whole-command progress and
   statistics (a session, xfer-progress.c, is one).  The engine calls
   these and knows nothing else of what is behind them.  */
struct xfer_sink
{
  /* A file's copy starts.  */
  void (*begin) (struct xfer_sink *sink);

  /* N more bytes of output were produced, holes included.  */
  void (*bytes) (struct xfer_sink *sink, off_t n);

  /* N bytes of output were found already there, left by an earlier
     run (cp --resume), and not produced again.  */
  void (*skipped) (struct xfer_sink *sink, off_t n);

  /* A file's copy ended as REPORT says; OK says whether it succeeded.  */
  void (*end) (struct xfer_sink *sink, struct xfer_report const *report,
               bool ok);

  /* A regular file of N bytes is left as it is found at its
     destination (cp -n, --update), its data neither copied nor read
     back: a total counted ahead of the copy no longer holds them.  */
  void (*left) (struct xfer_sink *sink, off_t n);

  /* N more bytes of a copy were read back to check it (cp --verify).  */
  void (*read_back) (struct xfer_sink *sink, off_t n);
};

#endif /* CPDD_XFER_TYPES_H */
