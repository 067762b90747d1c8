/* xfer-stats.h -- what the transfer engine reports, as text.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The utility layer (see doc/HACKING): dd's transfer line, the line
   --debug prints and the names of the methods.  It calls nothing of
   the engine's.  */

#ifndef CPDD_XFER_STATS_H
#define CPDD_XFER_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gethrxtime.h"
#include "xfer-types.h"

/* Print dd's transfer line ("N bytes (X MB, Y MiB) copied, T s, R MB/s")
   for BYTES moved between START and NOW to STREAM, without a newline.
   PROGRESS rounds the seconds as dd's periodic progress line does.
   Return the number of bytes printed.  */
int xfer_print_transfer (FILE *stream, intmax_t bytes,
                         xtime_t start, xtime_t now, bool progress);

/* BYTES as dd writes a size ("38.2 MB"), in BUF, which has room for
   LONGEST_HUMAN_READABLE + 1 bytes.  */
char const *xfer_human_size (intmax_t bytes, char *buf);

/* The name of METHOD, as --io-method spells it.  */
char const *xfer_method_name (enum xfer_method method);

/* Print REPORT to STREAM as the line --debug shows after "'a' -> 'b'":
   "copy offload: yes, reflink: unsupported, sparse detection: no, ..."
   followed by cpdd's own fields and a newline.  */
void xfer_print_debug (FILE *stream, struct xfer_report const *report);

#endif /* CPDD_XFER_STATS_H */
