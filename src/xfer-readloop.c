/* xfer-readloop.c -- the read/write loop method.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* A method, of the engine (see doc/HACKING): it reads the
   source through its I/O end and writes through the output stage
   (xfer-output.c).  It calls no other method and not the chooser.  */

#include <config.h>

#include "system.h"
#include "xfer-method.h"
#include "xfer-output.h"
#include "xfer-io.h"

/* Any copy: whatever the source is, it can be read.  */
static bool
suits (struct xfer_ctx const *c _GL_UNUSED, off_t len _GL_UNUSED)
{
  return true;
}

/* Read into C's buffer, write from it, until *LEN_PTR bytes or the
   end of the source.  */
static enum xfer_step
run (struct xfer_ctx *c, off_t *len_ptr)
{
  off_t len = *len_ptr;
  if (!c->buf)
    c->buf = xfer_new_buffer (c);
  c->method = XFER_METHOD_READ;
  c->report->method = XFER_METHOD_READ;
  c->report->buffer_size = c->bufsize;

  while (len != 0)
    {
      idx_t want = 0 <= len && len < c->bufsize ? len : c->bufsize;
      ssize_t n = xfer_end_read (&c->in, c->buf, want);
      if (n < 0)
        {
          error (0, errno, _("error reading %s"), quoteaf (c->in.name));
          return XFER_STEP_FAILED;
        }
      /* Before LEN bytes only if the file shrank; stop as read says.  */
      if (n == 0)
        break;
      if (!xfer_output (c, c->buf, n, NULL))
        return XFER_STEP_FAILED;
      xfer_end_drop (&c->out, false);
      xfer_end_drop (&c->in, false);
      if (0 <= len)
        len -= n;
    }
  return XFER_STEP_DONE;
}

struct xfer_method_ops const xfer_readloop_method =
  { "read", suits, run };
