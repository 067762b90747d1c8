/* dd-impl.h -- the state of a run of dd, shared by dd's parts.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_DD_IMPL_H
#define CPDD_DD_IMPL_H

#include "system.h"
#include "dd.h"
#include "dd-conv.h"
#include "xfer.h"

/* One end's page cache dropping (iflag=nocache, oflag=nocache).  */
struct dd_nocache
{
  bool on;			/* the flag was given */
  bool to_eof;			/* also drop what lies beyond the data */
  off_t pending;		/* bytes moved but not yet dropped */
  off_t offset;			/* output: where drops are counted from:
                                   -2 before it is first asked */
};

/* The state of one run of dd.  */
struct dd
{
  struct dd_settings s;
  char const *in_name, *out_name;

  char *ibuf, *obuf;		/* the same buffer when not reblocking */
  idx_t oc;			/* bytes waiting in obuf */
  idx_t page_size;

  struct dd_translation tr;
  struct dd_record_state rec;	/* block and unblock */
  char swab_carry;
  bool swab_has_carry;

  /* Input position, for skipping and for noerror.  */
  bool input_seekable;
  int input_seek_errno;
  off_t input_offset;		/* -1: overflowed */
  ssize_t prev_nread;		/* the previous read's result */
  struct xfer_window *in_window; /* iflag=mmap's reader, or NULL */
  bool read_error_told;		/* the reader printed its own diagnostic */
  idx_t partread;		/* bytes of the last short block */

  bool final_op_was_seek;	/* the last output block was a hole */
  struct dd_nocache in_cache, out_cache;

  /* Figures for the report.  */
  intmax_t r_full, r_partial, w_full, w_partial, w_bytes;
  intmax_t reported_w_bytes;	/* -1: no progress line yet */
  int progress_len;		/* width of the progress line on screen */
  xtime_t start_time, next_time;
};

/* Signals and the end of a run (dd-signal.c).  */

/* Catch SIGINT, and SIGUSR1 unless POSIXLY_CORRECT is set; leave
   alone a signal that is ignored.  */
void dd_install_signal_handlers (void);

/* Act on the signals that arrived: report for each SIGUSR1; for
   SIGINT, report and die by it.  */
void dd_process_signals (struct dd *d);

/* conv=fdatasync and conv=fsync, done once: at the end of the copy, or
   when dd quits early, since what was written is worth keeping.
   Return the exit status that the syncing calls for.  */
int dd_sync_output (struct dd *d);

/* End the run: act on pending signals, sync, close both ends and
   print the statistics.  dd_quit then exits with STATUS.  */
void dd_finish_up (struct dd *d);
_Noreturn void dd_quit (struct dd *d, int status);

/* Reporting (dd-report.c).  */

/* Print the statistics that status= asks for.  */
void dd_print_stats (struct dd *d);

/* Print the transfer line; for the periodic progress report (PROGRESS
   nonzero, the time it is for) redraw it in place.  */
void dd_print_transfer (struct dd *d, xtime_t progress);

/* With status=progress, redraw the progress line if a second passed.  */
void dd_maybe_print_progress (struct dd *d);

#endif /* CPDD_DD_IMPL_H */
