/* xfer-stats.c -- throughput figures in dd's format.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The utility layer of the engine, its lowest (see doc/HACKING):
   formatting only, for dd, cp --debug and the progress sink.  It calls
   nothing of the engine's.  */

#include <config.h>

#include "system.h"
#include "c-ctype.h"
#include "human.h"
#include "xfer-stats.h"
#include "xfer-types.h"

/* dd prints sizes rounded to the nearest unit, with a space before
   the unit and a "B" after it: "1.0 kB", "512 B".  */
enum
{
  human_dd_opts = (human_autoscale | human_round_to_nearest
                   | human_space_before_unit | human_SI | human_B)
};

/* True if the size HUMAN (as human_readable made it) has no unit
   prefix such as k or Ki, i.e. is a plain count of bytes.  */
static bool
lacks_prefix (char const *human)
{
  size_t len = strlen (human);
  return len < 2 || ! c_isalpha (human[len - 2]);
}

int
xfer_print_transfer (FILE *stream, intmax_t bytes,
                     xtime_t start, xtime_t now, bool progress)
{
  char sibuf[LONGEST_HUMAN_READABLE + 1];
  char iecbuf[LONGEST_HUMAN_READABLE + 1];
  char ratebuf[LONGEST_HUMAN_READABLE + sizeof "/s"];
  char secs[32];
  double seconds;
  char const *rate;

  char const *si = xfer_human_size (bytes, sibuf);
  char const *iec = human_readable (bytes, iecbuf,
                                    human_dd_opts | human_base_1024, 1, 1);

  if (start < now)
    {
      xtime_t elapsed = now - start;
      seconds = elapsed / (double) XTIME_PRECISION;
      /* human_readable writes at the end of its buffer, which leaves
         no room for the "/s"; so move the figure to the front.  */
      char const *r = human_readable (bytes, ratebuf, human_dd_opts,
                                      XTIME_PRECISION, elapsed);
      memmove (ratebuf, r, strlen (r) + 1);
      strcat (ratebuf, "/s");
      rate = ratebuf;
    }
  else
    {
      seconds = 0;
      rate = _("Infinity B/s");
    }

  /* A progress line is redrawn each second, so fractions of a second
     would only flicker.  */
  snprintf (secs, sizeof secs, progress ? "%.0f s" : "%g s", seconds);

  if (lacks_prefix (si))
    return fprintf (stream,
                    bytes == 1
                    ? _("%jd byte copied, %s, %s")
                    : _("%jd bytes copied, %s, %s"),
                    bytes, secs, rate);
  if (lacks_prefix (iec))
    return fprintf (stream, _("%jd bytes (%s) copied, %s, %s"),
                    bytes, si, secs, rate);
  return fprintf (stream, _("%jd bytes (%s, %s) copied, %s, %s"),
                  bytes, si, iec, secs, rate);
}

char const *
xfer_human_size (intmax_t bytes, char *buf)
{
  return human_readable (bytes, buf, human_dd_opts, 1, 1);
}

char const *
xfer_method_name (enum xfer_method method)
{
  switch (method)
    {
    case XFER_METHOD_AUTO: return "auto";
    case XFER_METHOD_READ: return "read";
    case XFER_METHOD_MMAP: return "mmap";
    case XFER_METHOD_OFFLOAD: return "offload";
    }
  abort ();
}

static char const *
attempt_name (enum xfer_attempt a)
{
  switch (a)
    {
    case XFER_ATTEMPT_UNKNOWN: return "unknown";
    case XFER_ATTEMPT_YES: return "yes";
    case XFER_ATTEMPT_UNSUPPORTED: return "unsupported";
    case XFER_ATTEMPT_AVOIDED: return "avoided";
    }
  abort ();
}

void
xfer_print_debug (FILE *stream, struct xfer_report const *r)
{
  static char const *const detection[] =
    { "no", "SEEK_HOLE", "zeros", "SEEK_HOLE + zeros" };
  static char const *const direct[] = { "no", "in", "out", "both" };
  /* GNU cp says "no" of a clone it did not try, whatever the reason.  */
  char const *reflink = (r->reflink == XFER_ATTEMPT_AVOIDED
                         ? "no" : attempt_name (r->reflink));
  fprintf (stream, "copy offload: %s, reflink: %s, sparse detection: %s,"
           " io method: %s, buffer size: %jd, direct I/O: %s",
           attempt_name (r->offload), reflink,
           (r->detection & XFER_DETECT_UNKNOWN
            ? "unknown" : detection[r->detection & 3]),
           xfer_method_name (r->method),
           (intmax_t) r->buffer_size, direct[r->direct & XFER_DIRECT_BOTH]);
  if (r->queue != XFER_QUEUE_NONE)
    fprintf (stream, ", in flight: %d buffers (%s)", r->inflight,
             r->queue == XFER_QUEUE_URING ? "io_uring" : "reader thread");
  if (r->uncached != XFER_UNCACHED_NO)
    fprintf (stream, ", uncached: %s",
             (r->uncached == XFER_UNCACHED_DONTCACHE
              ? "RWF_DONTCACHE" : "dropped behind"));
  if (r->ranges)
    fprintf (stream, ", ranges: %jd", r->ranges);
  if (r->hashed != XFER_HASHED_NOT_ASKED)
    fprintf (stream, ", hash: %s",
             (r->hashed == XFER_HASHED_PASSING
              ? "as copied" : "source read again"));
  if (r->read_back)
    {
      static char const *const readback[] =
        { "page cache", "direct I/O", "synced and dropped",
          "later, with the files near it, after one sync" };
      fprintf (stream, ", read back: %s", readback[r->readback]);
    }
  putc ('\n', stream);
}
