/* copy.h -- cp's per-file policy.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_COPY_H
#define CPDD_COPY_H

#include <stdbool.h>

#include "xfer.h"

/* Everything cp's command line decides about how each file is copied.  */
struct cp_options
{
  struct xfer_opts xfer;	/* how data moves */
  bool verbose;			/* -v: name each copy */
  bool debug;			/* --debug: say how each file was copied */
};

/* Copy the file SRC_NAME to DST_NAME according to X.  Return true on
   success; otherwise print a diagnostic and return false.  */
bool copy (char const *src_name, char const *dst_name,
           struct cp_options const *x);

#endif /* CPDD_COPY_H */
