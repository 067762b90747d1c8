/* dd-report.c -- dd's statistics, progress line and JSON report.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "dd-impl.h"

/* The final figures as one JSON object, for status=json, with the
   hashes once they are finished.  */
static void
print_json (struct dd *d, xtime_t now)
{
  double seconds = (now - d->start_time) / (double) XTIME_PRECISION;
  fprintf (stderr,
           "{\"records_in\": {\"full\": %jd, \"partial\": %jd}, "
           "\"records_out\": {\"full\": %jd, \"partial\": %jd}, "
           "\"truncated_records\": %jd, \"bytes\": %jd, "
           "\"seconds\": %.9f, \"bytes_per_second\": %.0f",
           d->r_full, d->r_partial, d->w_full, d->w_partial,
           d->rec.truncated, d->w_bytes, seconds,
           0 < seconds ? d->w_bytes / seconds : 0.0);
  if (d->hashes_finished && d->s.nhashes)
    {
      fputs (", \"hashes\": {", stderr);
      for (int i = 0; i < d->s.nhashes; i++)
        fprintf (stderr, "%s\"%s\": \"%s\"", i ? ", " : "",
                 xfer_hash_name (d->s.hashes[i]), d->hash_hex[i]);
      fputc ('}', stderr);
    }
  fputs ("}\n", stderr);
}

void
dd_check_hashlog (struct dd *d)
{
  if (!d->s.hashlog)
    return;
  /* The input is open, and is what it was opened as; the output is
     not, unless it is standard output.  */
  struct side_bound bounds[] =
    {
      { d->s.input_file, STDIN_FILENO, SIDE_INPUT, true, false },
      { d->s.output_file, d->s.output_file ? -1 : STDOUT_FILENO,
        SIDE_OUTPUT, true, false },
    };
  side_file_check (&d->hashlog_file, d->s.hashlog, "hashlog", bounds,
                   sizeof bounds / sizeof *bounds);
}

void
dd_start_hashes (struct dd *d)
{
  if (d->s.hashlog)
    d->hashlog = side_file_stream (&d->hashlog_file);
  for (int i = 0; i < d->s.nhashes; i++)
    xfer_hash_init (&d->hash[i], d->s.hashes[i]);
}

void
dd_hash_written (struct dd *d, char const *buf, idx_t n)
{
  for (int i = 0; i < d->s.nhashes; i++)
    xfer_hash_add (&d->hash[i], buf, n);
}

void
dd_finish_hashes (struct dd *d)
{
  if (d->hashes_finished)
    return;
  for (int i = 0; i < d->s.nhashes; i++)
    xfer_hash_finish (&d->hash[i], d->hash_hex[i]);
  d->hashes_finished = true;
}

bool
dd_print_hashes (struct dd *d)
{
  if (!d->s.nhashes
      || (!d->hashlog && d->s.status == DD_STATUS_JSON))
    return true;
  dd_finish_hashes (d);
  FILE *out = d->hashlog ? d->hashlog : stderr;
  char const *name = d->s.output_file ? d->s.output_file : "-";
  for (int i = 0; i < d->s.nhashes; i++)
    xfer_hash_print (out, d->s.hashes[i], d->hash_hex[i], name, true);
  if (!d->hashlog)
    return true;
  FILE *log = d->hashlog;
  d->hashlog = NULL;
  bool failed = ferror (log);
  int err = 0;
  if (fclose (log) != 0)
    {
      err = errno;
      failed = true;
    }
  if (failed)
    error (0, err, _("error writing %s"), quoteaf (d->s.hashlog));
  return !failed;
}

void
dd_print_transfer (struct dd *d, xtime_t progress)
{
  xtime_t now = progress ? progress : gethrxtime ();
  if (progress)
    fputc ('\r', stderr);
  int len = xfer_print_transfer (stderr, d->w_bytes, d->start_time, now,
                                 progress != 0);
  if (progress)
    {
      /* Blank out the rest of a longer previous line.  */
      if (0 <= len && len < d->progress_len)
        fprintf (stderr, "%*s", d->progress_len - len, "");
      d->progress_len = len;
    }
  else
    fputc ('\n', stderr);
  d->reported_w_bytes = d->w_bytes;
}

void
dd_print_stats (struct dd *d)
{
  if (d->s.status == DD_STATUS_NONE)
    return;
  if (d->s.status == DD_STATUS_JSON)
    {
      print_json (d, gethrxtime ());
      return;
    }
  if (0 < d->progress_len)
    {
      fputc ('\n', stderr);
      d->progress_len = 0;
    }
  fprintf (stderr, _("%jd+%jd records in\n%jd+%jd records out\n"),
           d->r_full, d->r_partial, d->w_full, d->w_partial);
  if (d->rec.truncated)
    fprintf (stderr, (d->rec.truncated == 1
                      ? _("%jd truncated record\n")
                      : _("%jd truncated records\n")),
             d->rec.truncated);
  if (d->s.status != DD_STATUS_NOXFER)
    dd_print_transfer (d, 0);
}

void
dd_maybe_print_progress (struct dd *d)
{
  if (d->s.status != DD_STATUS_PROGRESS)
    return;
  xtime_t now = gethrxtime ();
  if (d->next_time <= now)
    {
      dd_print_transfer (d, now);
      d->next_time += XTIME_PRECISION;
    }
}
