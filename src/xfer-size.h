/* xfer-size.h -- buffer sizes for the transfer engine.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The utility layer (see doc/HACKING): how big a buffer is, and how a
   size is written on a command line.  It calls nothing of the
   engine's.  */

#ifndef CPDD_XFER_SIZE_H
#define CPDD_XFER_SIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "idx.h"
#include "xstrtol.h"

/* The automatic buffer size, for files larger than it.  */
enum { XFER_MIN_AUTO_BUFFER = 256 * 1024 };

/* Parse STR as a size in dd's syntax: a decimal number with an
   optional unit (c w b K KB KiB k kB M MB MiB ... Y R Q, or a bare B
   for bytes), or several such numbers joined by 'x' to multiply them.
   Store the value in *SIZE.  Return LONGINT_OK, or the xstrtol error
   that says why STR was refused (LONGINT_OVERFLOW: more than
   INTMAX_MAX).  */
strtol_error xfer_parse_size (char const *str, uintmax_t *size);

/* The window the mmap method maps when no buffer size is given.  */
enum { XFER_MMAP_WINDOW = 8 * 1024 * 1024 };

/* The automatic buffer with direct I/O or --uncached (see xfer.c).  */
enum { XFER_LARGE_BUFFER = 8 * 1024 * 1024 };

/* The buffer size to use for copying SRC to DST when OPTS asks for an
   automatic choice: a multiple of both block sizes, at least
   XFER_MIN_AUTO_BUFFER, but no more than a regular SRC needs to be
   read in one go and its end seen (its size plus one, rounded up).  */
idx_t xfer_auto_buffer_size (struct stat const *src, struct stat const *dst);

#endif /* CPDD_XFER_SIZE_H */
