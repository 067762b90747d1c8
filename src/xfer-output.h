/* xfer-output.h -- the methods' output stage.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The output layer (see doc/HACKING), below the methods and above
   the I/O ends: the state of one copy, which the methods share, and
   the writing every method does through it: holes, the hash of what
   is written, and the accounting of bytes.  Not for callers of the
   engine.  */

#ifndef CPDD_XFER_OUTPUT_H
#define CPDD_XFER_OUTPUT_H

#include <stdbool.h>
#include <sys/types.h>

#include "idx.h"
#include "xfer-hash.h"
#include "xfer-io.h"
#include "xfer-types.h"
#include "xfer-window.h"

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

/* A new buffer of C->bufsize bytes, fit for C's direct I/O; exit if
   memory is exhausted.  */
char *xfer_new_buffer (struct xfer_ctx const *c);

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

#endif /* CPDD_XFER_OUTPUT_H */
