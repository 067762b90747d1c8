/* xfer-method.h -- the interface of the engine's methods.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The methods' layer (see doc/HACKING): each method moves bytes
   between the two ends of a copy, through the output stage
   (xfer-output.h), and none calls another.  The chooser (xfer.c)
   reaches them only through the struct below, in the order it tries
   them.  Not for callers of the engine.  */

#ifndef CPDD_XFER_METHOD_H
#define CPDD_XFER_METHOD_H

#include <stdbool.h>
#include <sys/types.h>

#include "xfer-output.h"

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

/* A method, as the chooser sees it.  Each method's file
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

#endif /* CPDD_XFER_METHOD_H */
