/* xfer-range.h -- one file's copy split into ranges.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The ranges layer (see doc/HACKING), above the chooser: a large
   file split into ranges for cp --jobs and mpicp, each range copied
   by the chooser through descriptors of its own, in whatever thread
   or process takes it, and the outcomes merged into the one a copy in
   one go would have had.  */

#ifndef CPDD_XFER_RANGE_H
#define CPDD_XFER_RANGE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "system.h"
#include "xfer-types.h"

/* A regular file's copy split into ranges that several threads copy
   at once (cp --jobs).  Each range is copied through descriptors of
   its own, opened anew on the file: direct I/O is a flag of an open
   file description, and so is the offset every method uses, so each
   range keeps its own and needs nothing from the others.  What the
   ranges share while they are copied (the next range to take, and
   their outcomes so far, under a lock) is xfer-range.c's alone.  */
struct xfer_split
{
  struct xfer_file src, dst;	/* the file's own ends */
  struct xfer_opts opts;	/* the caller's, less the direct I/O an end
                                   cannot do (it warned once) */
  off_t chunk;			/* the length of every range but the last */
  int verify_algo;		/* hash each range as it is copied, read it
                                   back and compare (cp --verify), with
                                   this algorithm; -1: not */
  intmax_t ranges;		/* how many to copy; 0 if none is needed */
  struct xfer_report report;	/* the ranges' reports together, whole
                                   once xfer_split_end has returned */
  struct xfer_split_shared *shared; /* between xfer_split_start or
                                   xfer_split_join and the end */
};

/* How many ranges of CHUNK bytes a file of SIZE bytes is split into,
   the last one holding what is left.  */
intmax_t xfer_range_count (off_t size, off_t chunk);

/* The size of the ranges a file is split into: 64 MiB (see "cp jobs"
   in the manual), or CPDD_CHUNK_SIZE bytes from the environment, a
   knob for the tests only, so that they can split small files.  */
off_t xfer_chunk_size (void);

/* Whether CPDD_CHUNK_SIZE sets the size of the ranges: then every file
   that large is split, whatever the cache holds of it.  */
bool xfer_chunk_size_set (void);

/* Decide whether to split the copy of SRC to DST, both regular files
   just opened, into ranges of CHUNK bytes.  If not, return false
   having done nothing: the caller copies with xfer_copy.  Otherwise
   start S's transfer and return true; S->ranges says how many ranges
   are left to copy with xfer_copy_ranges (none after a clone, or after
   a diagnostic), and xfer_split_end ends it in any case.  */
bool xfer_split_start (struct xfer_split *s, struct xfer_file const *src,
                       struct xfer_file const *dst,
                       struct xfer_opts const *opts, off_t chunk);

/* Copy ranges of S one after another until none is left, in any
   thread; several threads may do so at once, and each range is copied
   once.  A range after one that failed is left out: a copy in one go
   would have stopped there.  Diagnostics are held for
   xfer_split_end.  */
void xfer_copy_ranges (struct xfer_split *s);

/* Copy range I of S in this thread, unless a range before it failed,
   where the caller gives out the ranges itself, one at a time, to
   this thread or to other processes.  */
void xfer_copy_one_range (struct xfer_split *s, intmax_t i);

/* On another process (mpicp's ranks) than the one whose
   xfer_split_start split the file: make S the split of SRC to DST,
   both just opened there too, into RANGES ranges of CHUNK bytes, with
   OPTS (the direct I/O that process kept), whose sink counts the
   bytes of the range copied here but not the file.  */
void xfer_split_join (struct xfer_split *s, struct xfer_file const *src,
                      struct xfer_file const *dst,
                      struct xfer_opts const *opts, off_t chunk,
                      intmax_t ranges);

/* Copy range I of S, joined with xfer_split_join, and no other, and
   end S.  Return whether it was copied; set *SAID to what was said,
   and *REPORT to what was done, for the other process's
   xfer_split_merge.  */
bool xfer_copy_range (struct xfer_split *s, intmax_t i,
                      struct held_errors *said, struct xfer_report *report);

/* Add to S the outcome of its range at START, copied (if OK) by
   another process as REPORT says, and SAID, what it held, which is
   emptied.  That process counted the range's bytes in its own sink.  */
void xfer_split_merge (struct xfer_split *s, off_t start, bool ok,
                       struct held_errors *said,
                       struct xfer_report const *report);

/* End S's transfer once all its ranges are copied.  If one failed,
   cut the destination back to where the first failed range starts,
   so that it is no longer than a copy in one go would have left it.
   Print the diagnostics of that range, and those of the others once
   each, as a copy in one go would have said them.  Return whether the
   whole file was copied; S->report says how.  */
bool xfer_split_end (struct xfer_split *s);

/* Whether the ranges of S copied so far, and its clone, went well:
   what xfer_split_end will go by.  */
bool xfer_split_ok (struct xfer_split const *s);

/* The start of the first range of S that failed so far, or -1: where
   xfer_split_end will cut the destination.  */
off_t xfer_split_failed_at (struct xfer_split const *s);

#endif /* CPDD_XFER_RANGE_H */
