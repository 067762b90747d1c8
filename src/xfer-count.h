/* xfer-count.h -- the bytes a copy is to move, counted beside it.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The front end's layer (see doc/HACKING): a thread that walks the
   sources as the copy will, looking only at names and sizes, so that
   the progress line can show a percentage of a tree's copy long
   before the copy's own walk has seen the whole tree.  */

#ifndef CPDD_XFER_COUNT_H
#define CPDD_XFER_COUNT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* How a copy walks its operands, as far as the count must know it.  */
struct xfer_plan
{
  bool recursive;		/* directories' contents are copied */
  bool follow_operands;		/* links among the operands are followed */
  bool follow_all;		/* and those below them */
  bool one_file_system;		/* no descent into another file system */
  bool links_once;		/* a file of several names is copied once */
  bool special_contents;	/* special files are read as data, of a
                                   size no one can tell ahead */
  bool no_data;			/* no data is copied (links, attributes) */
  bool synced;			/* the data is on storage at the end */
  bool read_back;		/* every copy is read back (--verify) */
  bool stdout_lines;		/* lines go to standard output as the
                                   copy goes (-v, --debug) */
};

/* A count under way or over.  Zero-initialised: not started.  */
struct xfer_count
{
  char **files;			/* the operands' names, copied */
  int n_files;
  struct xfer_plan plan;
  bool started;			/* the thread runs, or ran */
  pthread_t thread;
  atomic_bool stop;		/* the copy is over: give up */
  pthread_mutex_t lock;		/* guards the three below */
  intmax_t bytes;		/* the sizes counted so far */
  bool over;			/* all is counted */
  bool lower_bound;		/* some data could not be sized: BYTES is
                                   at least the total, not the total */
};

/* Start counting in C, in a thread of its own, the bytes that copying
   the N_FILES operands FILES as PLAN says will move.  If no thread can
   be made, count nothing.  */
void xfer_count_start (struct xfer_count *c, char *const *files, int n_files,
                       struct xfer_plan const *plan);

/* Set *BYTES to what C has counted so far, and return whether that is
   the total: the count is over and sized everything.  */
bool xfer_count_read (struct xfer_count *c, intmax_t *bytes);

/* Stop C's thread, if started, and wait for it.  */
void xfer_count_stop (struct xfer_count *c);

#endif /* CPDD_XFER_COUNT_H */
