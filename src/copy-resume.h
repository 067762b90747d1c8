/* copy-resume.h -- finishing a regular file's copy an earlier run began.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* cp --resume (copy-resume.c): where a regular file's copy exists
   already, tell whether an earlier run completed it, cut it short, or
   left something else there, and copy only what it lacks.  It looks
   at two open files only, not at how they were reached, so that it
   serves any file a copy continues into.  In the file layer, beside
   copy-file.c, which calls it; it calls the tables and the engine.  */

#ifndef CPDD_COPY_RESUME_H
#define CPDD_COPY_RESUME_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "idx.h"
#include "copy.h"
#include "xfer-types.h"

/* What the existing copy of a regular file holds.  */
enum resume_verdict
{
  RESUME_WHOLE,			/* nothing known to be good: copy it all */
  RESUME_PARTIAL,		/* good parts: copy the rest */
  RESUME_COMPLETE		/* all of it: copy nothing */
};

/* A span of bytes of a file, START up to END.  */
struct resume_span
{
  off_t start;
  off_t end;
};

/* How a copy is finished: what to copy, in order, and how many bytes
   of the source the copy holds already.  */
struct resume_plan
{
  enum resume_verdict verdict;
  struct resume_span *todo;
  idx_t n_todo;
  idx_t alloc;
  intmax_t kept;
};

/* Decide into *P how to finish the copy of SRC into DST, a regular
   file that exists already and is open to read and write, as X says.
   Both ends' status is as they were opened.  Only data is looked at:
   the attributes are set afterwards anyway.  */
void resume_decide (struct xfer_file const *src, struct xfer_file const *dst,
                    struct cp_options const *x, struct resume_plan *p);

/* Whether DST, as long as SRC (SIZE bytes), holds nothing but SRC's
   data: where it has data, SRC's bytes, but for zeros up to the end of
   a stretch, where a write was cut short.  So is a copy an earlier run
   left unfinished, with holes where ranges were yet to be copied, or
   all its data but not yet its times.  False too if either can't be
   read.  */
bool resume_holds_only_source (int src, int dst, off_t size);

/* Copy what P says SRC's copy DST lacks, and make DST as long as SRC;
   then read it back and print its hash, as X asks.  Report
   to X's sink as a copy does, the bytes kept as skipped, and fill
   *REPORT.  Return true, or false after a diagnostic.  */
bool resume_fill (struct xfer_file const *src, struct xfer_file const *dst,
                  struct resume_plan const *p, struct cp_options const *x,
                  struct xfer_report *report);

/* Empty DST, SRC's copy, and set both ends at their start, for the
   copy to be made whole after resume_decide looked at it.  Return
   false after a diagnostic if that can't be done.  */
bool resume_start_over (struct xfer_file const *src,
                        struct xfer_file const *dst);

/* Free what P holds.  */
void resume_plan_free (struct resume_plan *p);

#endif /* CPDD_COPY_RESUME_H */
