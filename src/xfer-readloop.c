/* xfer-readloop.c -- the read/write loop method.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* A method, in layer 2 of the engine (see "Engine layers" in the
   manual): it reads the source through its I/O end and writes through
   the output stage (xfer-output.c).  It calls no other method and not
   the chooser.  */

#include <config.h>

#include "system.h"
#include "xfer.h"
#include "xfer-impl.h"

bool
xfer_readloop (struct xfer_ctx *c, off_t len)
{
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
          return false;
        }
      /* Before LEN bytes only if the file shrank; stop as read says.  */
      if (n == 0)
        break;
      if (!xfer_output (c, c->buf, n, NULL))
        return false;
      xfer_end_drop (&c->out, false);
      xfer_end_drop (&c->in, false);
      if (0 <= len)
        len -= n;
    }
  return true;
}
