/* xfer-impl.h -- interfaces between the transfer engine's layers.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Not for callers of the engine: each method is reached through
   xfer_copy, the chooser (xfer.c), which sets up the copy's two ends,
   picks the methods and sequences them.  The methods (layer 2) move
   bytes between the ends through the I/O layer (xfer-io.h) and write
   through the shared output stage below; none calls another.  */

#ifndef CPDD_XFER_IMPL_H
#define CPDD_XFER_IMPL_H

#include "xfer.h"
#include "xfer-io.h"

/* The state of one xfer_copy call, shared by the methods.  */
struct xfer_ctx
{
  struct xfer_end in, out;
  struct xfer_opts const *opts;
  struct xfer_sink *sink;	/* where bytes are counted, or NULL */
  struct xfer_report *report;

  enum xfer_method method;	/* the method moving data now */
  bool moved;			/* some data was moved already */
  idx_t bufsize;		/* read buffer or mmap window */
  char *buf;			/* the read buffer, allocated on first use */
  idx_t align;			/* what the direct ends' transfers keep */

  bool sending;			/* copy_file_range refused: sendfile */
  off_t out_end;		/* end of the data written, holes excluded */
  bool make_holes;		/* turn runs of zeros into holes */
  idx_t hole_unit;		/* the granularity of such holes */
  bool keep_holes;		/* skip the source's holes, not write zeros */
  bool offload_avoided;		/* the options want another method */

  /* xfer_copy_hashed's hash of the data written, or NULL, and whether
     some data went past it.  */
  struct xfer_hash *hash;
  bool hash_missed;
};

/* The XFER_DIRECT_* bits of C's ends using direct I/O now.  */
static inline int
xfer_direct_ends (struct xfer_ctx const *c)
{
  return ((c->in.direct ? XFER_DIRECT_IN : 0)
          | (c->out.direct ? XFER_DIRECT_OUT : 0));
}

/* What a method did, for the chooser to sequence the next.  */
enum xfer_step
{
  XFER_STEP_FAILED,		/* a diagnostic was printed */
  XFER_STEP_UNSUITED,		/* nothing was moved: use another method */
  XFER_STEP_DONE,		/* the range was copied */
  XFER_STEP_PART,		/* some was copied: the next method that
                                   suits copies what is left */
  XFER_STEP_AGAIN		/* nothing was written, and the ends changed
                                   (direct I/O refused): try again */
};

/* A method (layer 2), as the chooser sees it.  Each method's file
   defines one, and the chooser keeps them in the order it tries them
   (xfer.c).  */
struct xfer_method_ops
{
  char const *name;

  /* Whether the method can move the next LEN bytes of C's source (up
     to its end if LEN < 0), given the method C's copy started with
     and the ends' state now.  */
  bool (*suits) (struct xfer_ctx const *c, off_t len);

  /* Move *LEN bytes (up to the end if negative) from the source's
     offset into the destination at its offset.  After XFER_STEP_PART,
     *LEN is what is left: a count, or -1 for up to the end.  */
  enum xfer_step (*run) (struct xfer_ctx *c, off_t *len);
};

/* A new buffer of C->bufsize bytes, fit for C's direct I/O; exit if
   memory is exhausted (xfer-output.c).  */
char *xfer_new_buffer (struct xfer_ctx const *c);

/* The methods: a clone of the whole file (FICLONE), and
   copy_file_range or else sendfile (xfer-offload.c); windowed mmap
   (xfer-mmap.c); direct I/O with several transfers in flight
   (xfer-overlap.c); the read/write loop (xfer-readloop.c), which
   suits any copy and is the last resort.  */
extern struct xfer_method_ops const xfer_clone_method;
extern struct xfer_method_ops const xfer_offload_method;
extern struct xfer_method_ops const xfer_mmap_method;
extern struct xfer_method_ops const xfer_overlap_method;
extern struct xfer_method_ops const xfer_readloop_method;

/* The output stage every method writes through (xfer-output.c), below
   the methods and above the I/O ends.  */

/* Write the N bytes at DATA to the destination, as holes where
   C->make_holes and all of DATA's bytes in a hole unit are zero.  W,
   if not NULL, is the window DATA lies in.  Return true, or false
   after a diagnostic.  */
bool xfer_output (struct xfer_ctx *c, char const *data, idx_t n,
                  struct xfer_window *w);

/* Skip N bytes of the destination, leaving a hole, where
   C->keep_holes; else write N zeros.  */
bool xfer_output_hole (struct xfer_ctx *c, off_t n);

/* The same for a hole that the copy ends with: its zeros, if any, only
   extend the destination to its length.  */
bool xfer_output_tail (struct xfer_ctx *c, off_t n);

/* Give the destination its full length if it ends in a hole.  */
bool xfer_output_finish (struct xfer_ctx *c);

/* Account N more bytes of output: the report, and C's sink.  */
void xfer_account (struct xfer_ctx *c, off_t n);

/* The same for bytes the kernel moved without showing them to C's
   hash (a clone, an offload).  */
void xfer_account_unseen (struct xfer_ctx *c, off_t n);

/* The chooser (xfer.c), for the copies in ranges above it
   (xfer-range.c).  */

/* Whether ST is a regular file with fewer blocks than its size needs,
   i.e. probably with holes.  */
bool xfer_looks_sparse (struct stat const *st);

/* Set E up as the end WHICH (XFER_DIRECT_IN or XFER_DIRECT_OUT) of a
   copy of F, at offset POS.  */
void xfer_start_end (struct xfer_end *e, struct xfer_file const *f,
                     int which, off_t pos);

/* Clone SRC to DST, both at their start, if OPTS ask for it, saying so
   in REPORT: XFER_STEP_DONE if DST shares SRC's extents now,
   XFER_STEP_UNSUITED if the data is to be copied,
   XFER_STEP_FAILED after a diagnostic.  */
enum xfer_step xfer_clone_file (struct xfer_file const *src,
                                struct xfer_file const *dst,
                                struct xfer_opts const *opts,
                                struct xfer_report *report);

/* Copy LEN bytes (up to the end if LEN < 0) of SRC at START into DST
   at START, as xfer_copy_hashed does (HASH may be NULL), adding to
   REPORT.  FINISH says that DST ends where this copy does.  */
bool xfer_copy_part (struct xfer_file const *src,
                     struct xfer_file const *dst,
                     struct xfer_opts const *opts,
                     struct xfer_report *report,
                     off_t start, off_t len, bool finish,
                     struct xfer_hash *hash);

#endif /* CPDD_XFER_IMPL_H */
