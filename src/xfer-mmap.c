/* xfer-mmap.c -- the mmap method: write the source from its mapping.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* A method, of the engine (see doc/HACKING): it maps the
   source in windows (xfer-window.c) and writes each through the output
   stage (xfer-output.c).  It calls no other method and not the chooser,
   which falls back to the read/write loop where the source cannot be
   mapped.  */

#include <config.h>

#include "system.h"
#include "xfer-method.h"
#include "xfer-output.h"
#include "xfer-window.h"

/* Only the copy that chose mmap: the chooser never falls back to it.  */
static bool
suits (struct xfer_ctx const *c, off_t len _GL_UNUSED)
{
  return c->method == XFER_METHOD_MMAP;
}

/* Write *LEN_PTR bytes of the source from its windows;
   XFER_STEP_UNSUITED if it cannot be mapped.  */
static enum xfer_step
run (struct xfer_ctx *c, off_t *len_ptr)
{
  struct xfer_window *w = xfer_window_open_range (c->in.fd, c->in.name,
                                                  c->bufsize, *len_ptr);
  if (!w)
    return XFER_STEP_UNSUITED;

  c->report->method = XFER_METHOD_MMAP;
  c->report->buffer_size = xfer_window_size (w);

  bool ok = true;
  for (;;)
    {
      char const *data;
      ssize_t n = xfer_window_next (w, &data);
      if (n <= 0)
        {
          ok = n == 0;
          break;
        }
      if (!xfer_output (c, data, n, w))
        {
          ok = false;
          break;
        }
      c->in.pos += n;
    }
  return xfer_window_close (w) && ok ? XFER_STEP_DONE : XFER_STEP_FAILED;
}

struct xfer_method_ops const xfer_mmap_method = { "mmap", suits, run };
