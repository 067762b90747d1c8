/* dd-impl.h -- the state of a run of dd, shared by dd's parts.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Below the operand parser, dd is one run on a struct dd, in parts:
   signals and the end of the run, reporting, I/O, opening and
   positioning, and the copy loop, which calls the others.  */

#ifndef CPDD_DD_IMPL_H
#define CPDD_DD_IMPL_H

#include <signal.h>

#include "gethrxtime.h"
#include "system.h"
#include "dd.h"
#include "dd-conv.h"
#include "side-file.h"
#include "xfer-io.h"
#include "xfer-size.h"
#include "xfer-stats.h"
#include "xfer-window.h"

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
  /* Where the output held data when it was opened, up to KEPT_END:
     a block conv=sparse seeks over there keeps its old bytes, which
     the hashes must see; KEPT_FD reads them, if KEPT_FD_OPEN.  */
  off_t kept_end;
  int kept_fd;
  bool kept_fd_open;
  struct dd_nocache in_cache, out_cache;

  /* hash=: a running hash per algorithm of the settings, their
     digests once finished, and where their lines go.  */
  struct xfer_hash hash[XFER_HASH_ALGOS];
  char hash_hex[XFER_HASH_ALGOS][XFER_HASH_HEX_MAX];
  bool hashes_finished;
  struct side_file hashlog_file;	/* hashlog=, checked */
  FILE *hashlog;			/* hashlog= once the copy starts */

  /* Figures for the report.  */
  intmax_t r_full, r_partial, w_full, w_partial, w_bytes;
  intmax_t reported_w_bytes;	/* -1: no progress line yet */
  int progress_len;		/* width of the progress line on screen */
  xtime_t start_time, next_time;

  sigset_t caught_signals;	/* those whose handlers dd installed */
};

/* Signals and the end of a run (dd-signal.c).  */

/* Catch SIGINT, and SIGUSR1 unless POSIXLY_CORRECT is set; leave
   alone a signal that is ignored.  Note in D which were caught.  */
void dd_install_signal_handlers (struct dd *d);

/* Act on the signals that arrived: report for each SIGUSR1; for
   SIGINT, report and die by it.  */
void dd_process_signals (struct dd *d);

/* conv=fdatasync and conv=fsync, done once: at the end of the copy, or
   when dd quits early, since what was written is worth keeping.
   Return the exit status that the syncing calls for.  */
int dd_sync_output (struct dd *d);

/* End the run: act on pending signals, sync, close both ends and
   print the statistics and hashes.  Return STATUS, or a failure if the
   hashes could not be logged.  */
int dd_finish_up (struct dd *d, int status);

/* End the run as dd_finish_up does, and exit with what it returns.  */
_Noreturn void dd_quit (struct dd *d, int status);

/* Reading, writing, cache dropping and buffers (dd-io.c).  */

/* Count N more bytes of input passed, in D->input_offset; -1 there
   means it overflowed.  */
void dd_advance_input_offset (struct dd *d, intmax_t n);

/* Tell the kernel it may drop the cached pages of the LEN bytes just
   moved through FD.  The bytes are gathered and dropped in whole
   pieces of 256 KiB; LEN 0 drops what is left: the bytes moved, or
   everything from them to the end of the file if that was asked for.
   Return false, with errno set, if the offset to drop at is unknown
   or the kernel refused.  */
bool dd_drop_cache (struct dd *d, int fd, off_t len);

/* Drop the cache of what was copied, or with count=0 of whole files;
   only the latter is worth a diagnostic if it fails.  Return the exit
   status.  */
int dd_drop_caches_at_end (struct dd *d);

/* Read SIZE bytes from FD into BUF, or fewer only at end of file
   (iflag=fullblock), or one read's worth otherwise, acting on signals
   meanwhile.  Return the count, 0 at end of file, -1 with errno set.  */
ssize_t dd_read_block (struct dd *d, int fd, char *buf, idx_t size);

/* Write SIZE bytes of BUF to the output, or seek over them if they are
   all zero and conv=sparse was given.  Return the count written; less
   than SIZE means failure, with errno set.  */
idx_t dd_write (struct dd *d, char const *buf, idx_t size);

/* Allocate the input buffer if not done yet; exit if memory is
   exhausted.  Waiting until a buffer is needed makes a huge block size
   with count=0 cost nothing, as with GNU dd.  */
void dd_alloc_ibuf (struct dd *d);

/* The same for the output buffer, which is the input buffer itself
   when not reblocking.  */
void dd_alloc_obuf (struct dd *d);

/* Free D's buffers, at the end of the run.  */
void dd_free_buffers (struct dd *d);

/* Opening and positioning (dd-open.c).  */

/* Open the input as standard input, or add the iflag= flags to
   standard input, and note whether it can seek; exit on failure.  */
void dd_open_input (struct dd *d);

/* Open the output as standard output, or add the oflag= flags to
   standard output; with seek= and without conv=notrunc, cut the file
   to the point where the copy starts.  Exit on failure.  */
void dd_open_output (struct dd *d);

/* Skip the input over skip=, and warn if it ends first.  */
void dd_skip_input (struct dd *d);

/* Position the output at seek=; where it cannot seek and reading
   found its end, write zeros for the rest.  */
void dd_seek_output (struct dd *d);

/* Read errors with conv=noerror: move the input past the bad block of
   NBYTES bytes.  Return false if that is impossible.  */
bool dd_skip_bad_block (struct dd *d, idx_t nbytes);

/* The copy loop (dd-copy.c).  */

/* Skip the input and seek the output as asked, then copy, converting
   and reblocking, until count= or the end of the input.  Return the
   exit status.  */
int dd_copy (struct dd *d);

/* Reporting (dd-report.c).  */

/* Print the statistics that status= asks for.  */
void dd_print_stats (struct dd *d);

/* Open hashlog=, if given, without emptying it yet, and check that it
   is neither the input nor the output (side-file.h); exit if it is,
   or if it cannot be made.  */
void dd_check_hashlog (struct dd *d);

/* Start the hashes hash= asks for, and empty hashlog= to take their
   lines; exit if that fails.  */
void dd_start_hashes (struct dd *d);

/* Add the N bytes at BUF, just written, to the hashes.  */
void dd_hash_written (struct dd *d, char const *buf, idx_t n);

/* Finish the hashes, if not done yet, so that the final statistics
   can show them.  */
void dd_finish_hashes (struct dd *d);

/* Print a line per hash, in the tagged form "sha256sum -c" reads, on
   standard error or into hashlog=; in a JSON report they were shown
   already, unless hashlog= takes them.  Return false if writing the
   log failed.  */
bool dd_print_hashes (struct dd *d);

/* Print the transfer line; for the periodic progress report (PROGRESS
   nonzero, the time it is for) redraw it in place.  */
void dd_print_transfer (struct dd *d, xtime_t progress);

/* With status=progress, redraw the progress line if a second passed.  */
void dd_maybe_print_progress (struct dd *d);

#endif /* CPDD_DD_IMPL_H */
