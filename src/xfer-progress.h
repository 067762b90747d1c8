/* xfer-progress.h -- whole-command progress and statistics.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The front end's layer (see doc/HACKING): a session is the sink
   (struct xfer_sink) a command hands the engine in struct xfer_opts,
   which draws the progress line, answers SIGUSR1 and prints the
   statistics.  */

#ifndef CPDD_XFER_PROGRESS_H
#define CPDD_XFER_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "idx.h"
#include "xfer-count.h"
#include "xfer-types.h"

enum xfer_progress_when
{
  XFER_PROGRESS_NEVER,
  XFER_PROGRESS_AUTO,		/* when standard error is a terminal */
  XFER_PROGRESS_ALWAYS
};

enum xfer_stats_format
{
  XFER_STATS_NONE,
  XFER_STATS_HUMAN,
  XFER_STATS_JSON
};

/* Start a session in OPTS (if it has none) and make SIGUSR1 print the
   transfer line for it, unless SIGUSR1 is ignored.  */
void xfer_session_info_signal (struct xfer_opts *opts);

/* Start a session in OPTS (if it has none) and have it draw a
   progress line WHEN says; xfer_copy then adds each file to it.  */
void xfer_session_progress (struct xfer_opts *opts,
                            enum xfer_progress_when when);

/* Start a session in OPTS (if it has none) and have it print its
   statistics at its end in FORMAT.  */
void xfer_session_stats (struct xfer_opts *opts,
                         enum xfer_stats_format format);

/* Tell the session in OPTS, if any, that N workers copy files at
   once, for --stats to say so.  */
void xfer_session_workers (struct xfer_opts const *opts, int n);

/* Tell the session in OPTS, if any, the N source operands in FILES
   and how PLAN copies them (NULL: each as one file), so that its
   progress line, and the line SIGUSR1 asks for, can show a percentage
   and the time left: the bytes to copy are counted beside the copy
   (xfer-count.h), from the start if a progress line is drawn, else
   from the first SIGUSR1.  FILES must stay until xfer_session_end.  */
void xfer_session_plan (struct xfer_opts const *opts,
                        char *const *files, int n,
                        struct xfer_plan const *plan);

/* What a session counts: what one process of a command copied.  */
struct xfer_counts
{
  intmax_t bytes;		/* output produced, holes included */
  intmax_t skipped;		/* output found already there (--resume) */
  intmax_t files;		/* files copied whole and ended well */
  int methods;			/* 1 << each xfer_method that moved data */
  idx_t buffer_size;		/* the largest buffer used */
  int direct;			/* XFER_DIRECT_* bits that took effect */
  /* For a process sharing the work with others (mpicp's ranks): the
     nanoseconds it spent waiting for work or for answers, and how
     often its asking for work was answered with some.  */
  intmax_t waited_ns;
  intmax_t steals;
  intmax_t left;		/* data of files left as found (-n, -u) */
  intmax_t read_back;		/* bytes read back to check (--verify) */
};

/* Count in C the file whose copy REPORT describes, which ended well.  */
void xfer_counts_file (struct xfer_counts *c,
                       struct xfer_report const *report);

/* Tell the session in OPTS, if any, what the other processes sharing
   the command's work (mpicp's ranks) have done so far in all, OTHERS:
   the progress line and the line SIGUSR1 asks for add their bytes
   copied, skipped, left and read back to the session's own.  Each
   call replaces the last.  */
void xfer_session_others (struct xfer_opts const *opts,
                          struct xfer_counts const *others);

/* Tell the session in OPTS, if any, what each of the N other
   processes that shared the command's work copied in the end, OTHERS
   [0] to [N - 1] (N may be 0): the statistics add them to what the
   session counted, and then show how the work was spread, the
   session's own as rank 0's and OTHERS[I] as rank I + 1's.  OTHERS
   must stay until xfer_session_end.  */
void xfer_session_ranks (struct xfer_opts const *opts,
                         struct xfer_counts const *others, int n);

/* Tell the session in OPTS, if any, how its own process shared the
   work: the WAITED_NS and STEALS of struct xfer_counts.  */
void xfer_session_share (struct xfer_opts const *opts, intmax_t waited_ns,
                         intmax_t steals);

/* End the session in OPTS, if any: clear the progress line and print
   the statistics to standard error.  */
void xfer_session_end (struct xfer_opts *opts);

#endif /* CPDD_XFER_PROGRESS_H */
