/* xfer.c -- the transfer engine's entry point: pick a method, run it.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "xfer.h"
#include "xfer-impl.h"

char const *
xfer_method_name (enum xfer_method method)
{
  switch (method)
    {
    case XFER_METHOD_AUTO: return "auto";
    case XFER_METHOD_READ: return "read";
    case XFER_METHOD_MMAP: return "mmap";
    case XFER_METHOD_OFFLOAD: return "offload";
    }
  abort ();
}

bool
xfer_copy (struct xfer_file const *src, struct xfer_file const *dst,
           struct xfer_opts const *opts, struct xfer_report *report)
{
  *report = (struct xfer_report) { .method = XFER_METHOD_READ };

  idx_t bufsize = (opts->buffer_size
                   ? opts->buffer_size
                   : xfer_auto_buffer_size (src->st, dst->st));
  return xfer_readloop (src, dst, bufsize, report);
}
