/* xfer.h -- the transfer engine's chooser: a file's copy.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The engine decides how bytes move from one open file to another:
   which method (read/write loop, mmap windows, in-kernel offload), how
   big the buffer is, and whether direct I/O is used.  Callers (cp's
   per-file policy, dd's block loop) open, position and close the
   files; the engine moves the data and says what it did.  This is the
   header of its chooser, xfer.c, which sets up a copy's two ends and
   sequences the methods (xfer-method.h); the layers below and above
   it have headers of their own (see doc/HACKING).  */

#ifndef CPDD_XFER_H
#define CPDD_XFER_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "xfer-hash.h"
#include "xfer-io.h"
#include "xfer-method.h"
#include "xfer-types.h"

/* Copy SRC from its current offset to end of file into DST at its
   current offset.  On success return true; otherwise print a diagnostic
   naming the file at fault and return false.  Fill *REPORT either way.
   Holes (OPTS->sparse) are made by seeking, so the destination must
   read as zeros from its offset on, as a newly truncated file does.
   Direct I/O is switched on and off with fcntl on the descriptors
   themselves; they are left as they were given.  */
bool xfer_copy (struct xfer_file const *src, struct xfer_file const *dst,
                struct xfer_opts const *opts, struct xfer_report *report);

/* Like xfer_copy, and also add to HASH the data the destination gets,
   in order, holes as the zeros they read as.  The methods that pass
   the data through memory are preferred: an offload only where
   OPTS->method asks for it, and the direct I/O queue not at all, as
   it writes in no set order.  REPORT->hashed says whether HASH saw
   every byte.  */
bool xfer_copy_hashed (struct xfer_file const *src,
                       struct xfer_file const *dst,
                       struct xfer_opts const *opts,
                       struct xfer_report *report, struct xfer_hash *hash);

/* The chooser's parts, for the copies in ranges above it
   (xfer-range.c).  */

/* Whether ST is a regular file with fewer blocks than its size needs,
   i.e. probably with holes.  */
bool xfer_looks_sparse (struct stat const *st);

/* Set E up as the end WHICH (XFER_DIRECT_IN or XFER_DIRECT_OUT) of a
   copy of F, at offset POS.  */
void xfer_start_end (struct xfer_end *e, struct xfer_file const *f,
                     int which, off_t pos);

/* Clone SRC to DST, both at their start, if OPTS ask for it, saying so
   in REPORT: XFER_STEP_DONE if DST shares SRC's extents now,
   XFER_STEP_UNSUITED if the data is to be copied,
   XFER_STEP_FAILED after a diagnostic.  */
enum xfer_step xfer_clone_file (struct xfer_file const *src,
                                struct xfer_file const *dst,
                                struct xfer_opts const *opts,
                                struct xfer_report *report);

/* A part of a file copied on its own, as a range of it is: where it
   starts (in both files), how long it is (up to the source's end if
   negative), whether the destination ends where it does, and the hash
   its data goes to, or NULL.  */
struct xfer_part
{
  off_t start;
  off_t len;
  bool finish;
  struct xfer_hash *hash;
};

/* Copy PART of SRC into DST with OPTS, as xfer_copy_hashed copies a
   whole file, adding to REPORT.  */
bool xfer_copy_part (struct xfer_file const *src,
                     struct xfer_file const *dst,
                     struct xfer_opts const *opts,
                     struct xfer_part const *part,
                     struct xfer_report *report);

#endif /* CPDD_XFER_H */
