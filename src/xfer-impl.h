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

/* Copy SRC to DST through a buffer of BUFSIZE bytes.  */
bool xfer_readloop (struct xfer_file const *src, struct xfer_file const *dst,
                    idx_t bufsize, struct xfer_report *report);

#endif /* CPDD_XFER_IMPL_H */
