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
xfer_readloop (struct xfer_file const *src, struct xfer_file const *dst,
               idx_t bufsize, struct xfer_report *report)
{
  idx_t pagesize = getpagesize ();
  char *buf = xfer_buffer_alloc (pagesize, bufsize);
  bool ok = true;

  report->method = XFER_METHOD_READ;
  report->buffer_size = bufsize;

  for (;;)
    {
      ssize_t n = xfer_read (src->fd, buf, bufsize);
      if (n < 0)
        {
          error (0, errno, _("error reading %s"), quoteaf (src->name));
          ok = false;
          break;
        }
      if (n == 0)
        break;
      if (xfer_write (dst->fd, buf, n) != n)
        {
          error (0, errno, _("error writing %s"), quoteaf (dst->name));
          ok = false;
          break;
        }
      report->bytes += n;
    }

  xfer_buffer_free (buf);
  return ok;
}
