/* xfer-impl.h -- interfaces between the transfer engine's parts.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Not for callers of the engine: each method is reached through
   xfer_copy, which chooses among them.  */

#ifndef CPDD_XFER_IMPL_H
#define CPDD_XFER_IMPL_H

#include "xfer.h"

/* The state of one xfer_copy call, shared by the methods.  */
struct xfer_ctx
{
  struct xfer_file const *src;
  struct xfer_file const *dst;
  struct xfer_opts const *opts;
  struct xfer_report *report;

  enum xfer_method method;	/* the method moving data now */
  bool moved;			/* some data was moved already */
  idx_t bufsize;		/* read buffer or mmap window */
  char *buf;			/* the read buffer, allocated on first use */

  /* Direct I/O: the bits in effect now, the alignment it needs, and
     the ends whose first direct transfer has not happened yet (a file
     system may accept O_DIRECT and then refuse the I/O).  */
  int direct;
  idx_t align;
  int direct_unproven;

  /* --uncached: the ends it applies to, those of them using
     RWF_DONTCACHE, and those whose first such transfer has not
     happened yet.  The others drop the data from the cache behind
     the copy: from where the copy started (*_base), what is dropped
     already (*_dropped) and, for the destination, what it has started
     to write back (out_flushed).  */
  int uncached;
  int dontcache;
  int dontcache_unproven;
  off_t in_base, in_dropped;
  off_t out_base, out_dropped, out_flushed;

  off_t in_pos;			/* the source's file offset */
  off_t out_pos;		/* the destination's file offset */
  off_t out_end;		/* end of the data written, holes excluded */
  bool make_holes;		/* turn runs of zeros into holes */
  idx_t hole_unit;		/* the granularity of such holes */
};

/* Move data from the source's offset to its end (LEN < 0) or for LEN
   bytes, into the destination at its offset.  Return true, or false
   after a diagnostic.  */

/* A new buffer of C->bufsize bytes, fit for C's direct I/O; exit if
   memory is exhausted (xfer.c).  */
char *xfer_new_buffer (struct xfer_ctx const *c);

/* The read/write loop (xfer-readloop.c).  */
bool xfer_readloop (struct xfer_ctx *c, off_t len);

/* The read/write loop for direct I/O with several transfers in flight
   (xfer-overlap.c), or the plain loop where that cannot work.  */
bool xfer_overlap_range (struct xfer_ctx *c, off_t len);

/* Windowed mmap (xfer-mmap.c); the read/write loop if the source
   cannot be mapped.  */
bool xfer_mmap_range (struct xfer_ctx *c, off_t len);

/* Write the N bytes at DATA in W's current window to FD.  Return the
   count written; less than N means failure, with errno set, EFAULT
   meaning the window could not be read (the input shrank).  */
idx_t xfer_window_put (struct xfer_window *w, int fd, char const *data,
                       idx_t n);

/* Print the "error reading" diagnostic for W's file.  */
void xfer_window_read_error (struct xfer_window const *w);

/* copy_file_range, else sendfile (xfer-offload.c).  Return 1 on
   success, 0 if the kernel cannot offload this pair of files and
   nothing was moved (the caller falls back), -1 after a diagnostic.  */
int xfer_offload_range (struct xfer_ctx *c, off_t len);

/* Make the destination share the source's extents (FICLONE).  Return
   true on success; otherwise false with errno set.  */
bool xfer_clone (struct xfer_ctx const *c);

/* Output with holes (xfer-sparse.c).  */

/* Write the N bytes at DATA to the destination, as holes where
   C->make_holes and all of DATA's bytes in a hole unit are zero.  W,
   if not NULL, is the window DATA lies in.  Return true, or false
   after a diagnostic.  */
bool xfer_output (struct xfer_ctx *c, char const *data, idx_t n,
                  struct xfer_window *w);

/* Whether the N bytes at P are all zero.  */
bool xfer_is_zero (char const *p, idx_t n);

/* Skip N bytes of the destination, leaving a hole.  */
bool xfer_output_hole (struct xfer_ctx *c, off_t n);

/* Give the destination its full length if it ends in a hole.  */
bool xfer_output_finish (struct xfer_ctx *c);

/* Account N more bytes of output: report, session, progress line.  */
void xfer_account (struct xfer_ctx *c, off_t n);

/* Direct I/O (xfer-direct.c).  */

/* Switch direct I/O on for the ends C->opts->direct asks for and
   whose file system supports it, warning about the others; set
   C->direct and C->align.  */
void xfer_direct_start (struct xfer_ctx *c);

/* Switch direct I/O off on the ends in WHICH that use it.  */
void xfer_direct_stop (struct xfer_ctx *c, int which);

/* The I/O on end WHICH failed with errno ERR.  If that is a file system
   refusing its first direct transfer, warn, switch direct I/O off
   there and return true: the caller retries.  */
bool xfer_direct_refused (struct xfer_ctx *c, int which, int err);

/* Read into C's buffer at most SIZE bytes, switching direct I/O off
   first where the offset or size is not aligned for it.  */
ssize_t xfer_read_in (struct xfer_ctx *c, idx_t size);

/* Write N bytes at DATA likewise; W as for xfer_output.  Return true,
   or false after a diagnostic.  */
bool xfer_write_out (struct xfer_ctx *c, char const *data, idx_t n,
                     struct xfer_window *w);

/* Uncached I/O (xfer-uncached.c).  */

/* Set C->uncached and C->dontcache for the ends --uncached applies to.  */
void xfer_uncached_start (struct xfer_ctx *c);

/* Read or write as xfer_read and xfer_write do, with RWF_DONTCACHE on
   ends that use it; an end whose first such transfer is refused falls
   back to plain I/O, after one warning.  */
ssize_t xfer_uncached_read (struct xfer_ctx *c, void *buf, idx_t size);
idx_t xfer_uncached_write (struct xfer_ctx *c, char const *buf, idx_t size);

/* Drop from the cache what the copy has left behind it, on the ends
   that cannot use RWF_DONTCACHE; at the end (FINISH), all of it.  */
void xfer_uncached_drop (struct xfer_ctx *c, bool finish);

/* The progress line (xfer-progress.c): redraw it if a second passed.  */
void xfer_session_tick (struct xfer_session *s);

/* A file's transfer starts (the first one starts the clock).  */
void xfer_session_begin (struct xfer_session *s);

/* Add a finished file's REPORT to session S; OK says whether the copy
   succeeded (only those count as files).  */
void xfer_session_add (struct xfer_session *s,
                       struct xfer_report const *report, bool ok);

/* Erase the progress line, if one is shown, before other output.  */
void xfer_session_clear (struct xfer_session *s);

/* Count N bytes into session S.  */
void xfer_session_bytes (struct xfer_session *s, off_t n);

#endif /* CPDD_XFER_IMPL_H */
