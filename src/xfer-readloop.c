/* xfer-readloop.c -- the read/write loop method.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "xfer.h"
#include "xfer-impl.h"

ssize_t
xfer_read (int fd, void *buf, idx_t size)
{
  for (;;)
    {
      ssize_t n = read (fd, buf, size);
      if (! (n < 0 && errno == EINTR))
        return n;
    }
}

idx_t
xfer_write (int fd, void const *buf, idx_t size)
{
  char const *p = buf;
  idx_t done = 0;
  while (done < size)
    {
      ssize_t n = write (fd, p + done, size - done);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          break;
        }
      if (n == 0)
        {
          /* A regular file or device that accepts nothing is full.  */
          errno = ENOSPC;
          break;
        }
      done += n;
    }
  return done;
}

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
      ssize_t n = xfer_read_in (c, want);
      if (n < 0)
        {
          error (0, errno, _("error reading %s"), quoteaf (c->src->name));
          return false;
        }
      /* Before LEN bytes only if the file shrank; stop as read says.  */
      if (n == 0)
        break;
      if (!xfer_output (c, c->buf, n, NULL))
        return false;
      if (c->uncached)
        xfer_uncached_drop (c, false);
      if (0 <= len)
        len -= n;
    }
  return true;
}
