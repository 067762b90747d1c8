/* xfer-io.h -- the transfer engine's I/O ends.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The lowest layer of the engine: the code that touches descriptors.
   An end is one side of a transfer with all the state its I/O needs,
   so whoever owns an end (one copy, or one worker of a parallel copy)
   can read or write through it without any other part of the engine.
   Nothing here calls the output stage, the methods or the chooser
   above it.  */

#ifndef CPDD_XFER_IO_H
#define CPDD_XFER_IO_H

#include <stdbool.h>
#include <sys/types.h>

#include "idx.h"
#include "xfer-types.h"

/* Read up to SIZE bytes into BUF, retrying after EINTR.  Return the
   count, 0 at end of file, or -1 with errno set.  */
ssize_t xfer_read (int fd, void *buf, idx_t size);

/* Write all SIZE bytes of BUF, retrying after EINTR and short writes.
   Return the count written; less than SIZE means failure, with errno.  */
idx_t xfer_write (int fd, void const *buf, idx_t size);

/* Whether the N bytes at P are all zero.  */
bool xfer_is_zero (char const *p, idx_t n);

/* Tell the kernel it may drop the LEN bytes at OFF of FD from the page
   cache; LEN 0 means all from OFF to the end of the file.  Return 0,
   or -1 with errno set.  */
int xfer_drop_cache (int fd, off_t off, off_t len);

/* How many of XFER_CACHE_SAMPLES pages spread evenly over the first
   SIZE bytes of the regular file FD the page cache holds, or -1 if
   that cannot be told here.  */
enum { XFER_CACHE_SAMPLES = 16 };
int xfer_cached_samples (int fd, off_t size);

/* One end of a transfer.  WHICH says whether it is the input
   (XFER_DIRECT_IN) or the output (XFER_DIRECT_OUT).  */
struct xfer_end
{
  int fd;
  char const *name;		/* for diagnostics */
  struct stat const *st;	/* as the caller last saw it */
  int which;
  off_t pos;			/* the file offset; -1 if unseekable */

  /* Direct I/O: whether it is on, the alignment every transfer then
     keeps, whether no direct transfer has happened yet (a file system
     may accept O_DIRECT and then refuse the I/O), and whether one
     has.  */
  bool direct;
  idx_t align;
  bool direct_unproven;
  bool direct_used;
  bool direct_quiet;		/* no warning where it is refused: the
                                   owner has a way of its own then */

  /* --uncached: whether it applies, whether RWF_DONTCACHE is used and
     not yet proven by a first transfer.  Without the flag the end
     drops the data from the cache behind the copy: from where the
     copy started (BASE), what is dropped already (DROPPED) and, for
     an output, what it has started to write back (FLUSHED).  */
  bool uncached;
  bool dontcache;
  bool dontcache_unproven;
  off_t base, dropped, flushed;
};

/* Allocate SIZE bytes aligned to ALIGNMENT (a power of two), which
   direct I/O needs, and if DIRECT, on huge pages where the system has
   them and SIZE spans one.  Return NULL if memory is exhausted.  Free
   with xfer_buffer_free.  */
void *xfer_buffer_alloc (idx_t alignment, idx_t size, bool direct);

/* Free BUF, which xfer_buffer_alloc returned, or NULL.  */
void xfer_buffer_free (void *buf);

/* The error with which the system refused to clone a file from the
   file system IN to the file system OUT as unsupported, or 0 if it
   has not, as far as this process knows.  */
int xfer_clone_refusal (dev_t in, dev_t out);

/* Remember that a clone from IN to OUT failed with ERR, an error
   that says the file systems cannot clone.  */
void xfer_note_clone_refusal (dev_t in, dev_t out, int err);

/* Set up E for FILE at offset POS as end WHICH, with no direct or
   uncached I/O.  */
void xfer_end_init (struct xfer_end *e, struct xfer_file const *file,
                    int which, off_t pos);

/* Switch direct I/O on for E if its file system supports it, and set
   E->align to the alignment it needs; otherwise warn and return
   false.  */
bool xfer_end_direct_on (struct xfer_end *e);

/* Switch direct I/O off on E, if it is on.  */
void xfer_end_direct_off (struct xfer_end *e);

/* The I/O on E failed with errno ERR.  If that is a file system
   refusing E's first direct transfer, warn, switch direct I/O off
   and return true: the caller retries.  */
bool xfer_end_refused (struct xfer_end *e, int err);

/* Note that E made a transfer, direct if direct I/O is on.  */
void xfer_end_proven (struct xfer_end *e);

/* Use --uncached on E where it applies (a regular file or block
   device not using direct I/O), with RWF_DONTCACHE if the system may
   have it; start dropping from E's offset.  */
void xfer_end_uncached_on (struct xfer_end *e);

/* Read at most SIZE bytes into BUF from E, switching direct I/O off
   first where the offset, size or buffer is not aligned for it.
   Return the count, 0 at end of file, -1 with errno set.  */
ssize_t xfer_end_read (struct xfer_end *e, void *buf, idx_t size);

/* Write the N bytes at DATA to E, the unaligned part of them with
   direct I/O off.  Return the count written; less than N means
   failure, with errno set.  */
idx_t xfer_end_write (struct xfer_end *e, char const *data, idx_t n);

/* Read at most SIZE bytes into BUF at offset OFF of E, as they are
   (aligned by the caller if E uses direct I/O), retrying after EINTR;
   E's offset does not change, so threads may share E.  Return the
   count (0 at end of file), or -1 with errno set.  */
ssize_t xfer_end_pread (struct xfer_end const *e, void *buf, idx_t size,
                        off_t off);

/* Write SIZE bytes of BUF at offset OFF of E, as xfer_end_pread
   reads.  */
ssize_t xfer_end_pwrite (struct xfer_end const *e, void const *buf,
                         idx_t size, off_t off);

/* Open the file FD is open on once more, with FLAGS: a new open file
   description, with an offset and a direct I/O flag of its own.
   Return the descriptor, or -1 with errno set (ENOTSUP where the
   system has no way to).  */
int xfer_reopen (int fd, int flags);

/* Drop from the cache what the copy left behind it on E, if E is
   uncached without RWF_DONTCACHE; at the end (FINISH), all of it.  */
void xfer_end_drop (struct xfer_end *e, bool finish);

#endif /* CPDD_XFER_IO_H */
