/* copy-report.h -- the record of each file a copy handled.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_COPY_REPORT_H
#define CPDD_COPY_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "system.h"
#include "xfer-types.h"

/* Where the records of a copy go: cp's --report and --failed files,
   and the counts the line "N of M files were not copied" is made of
   (copy-report.c).  Any thread may record; each record is written
   whole, under the report's lock.  */
struct copy_report;

/* How a file's copy ended.  */
enum copy_outcome
{
  COPY_COPIED,
  COPY_SKIPPED,			/* its destination was kept (-n, -u) */
  COPY_FAILED
};

/* The record of one file while it is copied: made by
   copy_record_begin, ended by copy_record_end, which writes it, or by
   copy_record_drop, where another part of the copy makes the file's
   record instead (a worker, given the file).  */
struct copy_record
{
  struct copy_report *report;	/* NULL: nothing is recorded */
  char const *src;
  char const *dst;
  mode_t type;			/* the source's S_IFMT bits, 0 if unknown */
  struct timespec start;
  intmax_t bytes;		/* output produced, holes included */
  char const *method;		/* how the data moved, NULL if none did */
  int hash_algo;		/* what HASH is a digest with */
  char *hash;			/* the source's digest, or NULL; kept off
                                   the stack, as the walk's recursion
                                   has a record at every level */
  struct error_note note;	/* the first diagnostic about the file */
  struct error_note_scope scope;
};

/* A report writing one JSON object a line to the file REPORT_FILE
   and the name of each source that failed, followed by a NUL, to
   FAILED_FILE; either may be "-", standard output, or NULL, and if
   both are the report only counts.  Each other file is created or
   emptied, once checked against the N_BOUNDS sources and destinations
   of BOUNDS (side-file.h): exit after a diagnostic, before anything is
   copied, if it can't be opened or is one of them or in their
   trees.  */
struct side_bound;
struct copy_report *copy_report_open (char const *report_file,
                                      char const *failed_file,
                                      struct side_bound const *bounds,
                                      idx_t n_bounds);

/* On a rank of mpicp but the first: a report that holds the records
   made here, as JSON lines if LINES, with the sources' names if NAMES,
   until copy_report_take empties them into *TEXT (*LEN bytes, to be
   freed) for the answer that goes back to the rank that gave the work,
   or to nothing for a report that is not held.
   There copy_report_put takes the LEN bytes at TEXT of such an answer
   into REPORT: holds them again, or on the first rank counts and
   writes them.  It returns false if they are malformed.  REPORT may be
   NULL, where nothing is recorded.  */
struct copy_report *copy_report_hold (bool lines, bool names);
void copy_report_take (struct copy_report *report, char **text,
                       size_t *len);
bool copy_report_put (struct copy_report *report, char const *text,
                      size_t len);

/* Begin in *R the record of the copy of SRC to DST, of type TYPE (0
   if not known yet), for REPORT, which may be NULL.  Until it ends,
   R keeps the first diagnostic this thread makes.  */
void copy_record_begin (struct copy_record *r, struct copy_report *report,
                        char const *src, char const *dst, mode_t type);

/* The data of R's file moved as XR says; HEX is the source's digest
   with ALGO, or "" if it was not computed.  */
void copy_record_data (struct copy_record *r, struct xfer_report const *xr,
                       int algo, char const *hex);

/* End R, whose copy ended as OUTCOME, and write it.  */
void copy_record_end (struct copy_record *r, enum copy_outcome outcome);

/* End R without a record: its file's is made elsewhere.  Ending R
   again then does nothing.  */
void copy_record_drop (struct copy_record *r);

/* Move the record R, begun on this thread, to *TO, which names its
   file SRC and DST (strings that must last as long as *TO), to be
   ended there, maybe on another thread, once the rest of the file's
   copy is done: its directory's attributes, set after the walk has
   left it.  R is left with nothing to record.  Copy_record_resume must
   come first on the thread that ends *TO.  */
void copy_record_pass (struct copy_record *r, struct copy_record *to,
                       char const *src, char const *dst);

/* Go on with R, passed by copy_record_pass, on this thread: it keeps
   the first diagnostic this thread makes, if it has none yet.  */
void copy_record_resume (struct copy_record *r);

/* Whether R's file was copied, as OK says: a directory fails only
   where something was said of itself, not of a file in it.  */
enum copy_outcome copy_record_outcome (struct copy_record const *r,
                                       bool ok);

/* How many files REPORT recorded, and how many of them failed.  */
intmax_t copy_report_files (struct copy_report const *report);
intmax_t copy_report_failures (struct copy_report const *report);

/* Write REPORT's summary, close its files and free it; one that holds
   records just frees them.  Return false after a diagnostic if writing
   any of it failed.  */
bool copy_report_close (struct copy_report *report);

#endif /* CPDD_COPY_REPORT_H */
