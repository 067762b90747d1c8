/* xfer-progress.c -- whole-command totals: progress line, statistics.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Above the engine's chooser (see doc/HACKING), with
   the option parsing of xfer-cli.c: a session is the sink
   (struct xfer_sink) the caller hands xfer_copy in struct xfer_opts,
   and the copy reaches it only through the sink's function pointers.
   It calls the utility layer (xfer-stats.c) and nothing else of the
   engine's, and the count of what is to be copied (xfer-count.c).
   The progress line is redrawn on standard error at most once a
   second, from the copy loops (no timer signal: a signal would
   interrupt the I/O it reports on).  */

#include <config.h>

#include <signal.h>
#include <sys/ioctl.h>

#include "system.h"
#include "human.h"
#include "localcharset.h"
#include "xfer-progress.h"
#include "xfer-stats.h"
#include "xfer-types.h"

struct xfer_session
{
  struct xfer_sink sink;	/* first, so a sink is its session */
  bool show;			/* draw a progress line */
  enum xfer_stats_format stats;
  xtime_t start;		/* when the first file started; 0: not yet */
  xtime_t next_draw;		/* when the line may be redrawn */
  struct xfer_counts own;	/* what this process copied */
  struct xfer_counts others;	/* and the others sharing the work */
  struct xfer_counts const *ranks; /* each other's, in the end */
  int n_others;			/* how many; -1 if the work is not shared */
  int workers;			/* threads copying at once; 0 if not told */
  int width;			/* columns of the line on screen, 0 if none */
  bool stdout_tty;		/* stdout may write over the line */
  /* What xfer_session_plan said, for a count started later.  */
  char *const *files;
  int n_files;
  struct xfer_plan plan;
  bool planned;
  struct xfer_count count;
  intmax_t counted;		/* what the count has found so far */
  bool total_known;		/* COUNTED is the total: the count is over */
  int percent;			/* the highest shown, or -1 */
  int direct_asked;		/* XFER_DIRECT_* bits asked for */
};

/* A command has one session at a time, as it has one standard error
   and one SIGUSR1, whose handler and the error hook below reach it
   only from here.  It is not allocated, so that a command that ends
   through error () with a session started leaves nothing to free; its
   main may then run again in the same process, as under a fuzzer.  */
static struct
{
  struct xfer_session session;
  struct xfer_session *shown;	/* the one whose line is on screen */
  void (*saved_print_progname) (void); /* the hook the line replaced */
  volatile sig_atomic_t info_requested; /* SIGUSR1 arrived and its
                                           line is not printed yet */
} command;

/* Wipe the progress line so the next output starts on a clean line.  */
static void
session_clear (struct xfer_session *s)
{
  if (!s || !s->width)
    return;
  fprintf (stderr, "\r%*s\r", s->width, "");
  s->width = 0;
  command.shown = NULL;
  error_print_progname = command.saved_print_progname;
}

/* error() calls this in place of printing "cp: ": a diagnostic must not
   be glued to the end of the progress line.  */
static void
clear_then_progname (void)
{
  session_clear (command.shown);
  print_error_progname ();
}

static void session_begin (struct xfer_sink *sink);
static void session_bytes (struct xfer_sink *sink, off_t n);
static void session_skipped (struct xfer_sink *sink, off_t n);
static void session_add (struct xfer_sink *sink,
                         struct xfer_report const *r, bool ok);
static void session_left (struct xfer_sink *sink, off_t n);
static void session_read_back (struct xfer_sink *sink, off_t n);

/* The session whose sink is in OPTS, or NULL.  */
static struct xfer_session *
session_of (struct xfer_opts const *opts)
{
  return (struct xfer_session *) opts->sink;
}

static struct xfer_session *
session (struct xfer_opts *opts)
{
  if (!opts->sink)
    {
      command.session = (struct xfer_session) {
        .sink = { .begin = session_begin, .bytes = session_bytes,
                  .skipped = session_skipped, .end = session_add,
                  .left = session_left, .read_back = session_read_back },
        .n_others = -1,
        .percent = -1,
        .stdout_tty = isatty (STDOUT_FILENO)
      };
      opts->sink = &command.session.sink;
    }
  return session_of (opts);
}

static void
info_handler (int sig _GL_UNUSED)
{
  command.info_requested = 1;
}

/* The handler only sets a flag; the line is printed from the copy
   loop, where printing is safe.  SA_RESTART keeps the signal from
   failing the system call it interrupts (an open of a FIFO, say), so
   the line waits at most for the transfer under way.  */
void
xfer_session_info_signal (struct xfer_opts *opts)
{
  struct sigaction act;
  if (sigaction (SIGUSR1, NULL, &act) != 0 || act.sa_handler == SIG_IGN)
    return;
  session (opts);
  act.sa_handler = info_handler;
  sigemptyset (&act.sa_mask);
  act.sa_flags = SA_RESTART;
  sigaction (SIGUSR1, &act, NULL);
}

void
xfer_session_progress (struct xfer_opts *opts, enum xfer_progress_when when)
{
  session (opts)->show = (when == XFER_PROGRESS_ALWAYS
                          || (when == XFER_PROGRESS_AUTO
                              && isatty (STDERR_FILENO)));
}

void
xfer_session_stats (struct xfer_opts *opts, enum xfer_stats_format format)
{
  session (opts)->stats = format;
}

void
xfer_session_workers (struct xfer_opts const *opts, int n)
{
  struct xfer_session *s = session_of (opts);
  if (s)
    s->workers = n;
}

/* How long a copy with a progress line runs before its total is
   counted.  The line is first drawn a second after the copy starts, so
   a shorter copy never needs the total, and the count's look at every
   file would only compete with the copy for the processors; a longer
   one has its total well before the second line.  */
enum { COUNT_DELAY = XTIME_PRECISION / 2 };

/* Start counting what S's plan is to copy, unless it copies no data.  */
static void
start_count (struct xfer_session *s)
{
  if (s->planned && !s->count.started && !s->plan.no_data)
    xfer_count_start (&s->count, s->files, s->n_files, &s->plan);
}

/* The plan of a copy of each operand as one file, following links.  */
static struct xfer_plan const one_file_each =
  {
    .follow_operands = true, .special_contents = true, .stdout_lines = true
  };

void
xfer_session_plan (struct xfer_opts const *opts, char *const *files, int n,
                   struct xfer_plan const *plan)
{
  struct xfer_session *s = session_of (opts);
  if (!s)
    return;
  s->files = files;
  s->n_files = n;
  s->plan = plan ? *plan : one_file_each;
  s->planned = true;
  s->direct_asked = opts->direct;
  s->stdout_tty &= s->plan.stdout_lines;
}

/* The sink's begin: a file's transfer starts (the first one starts
   the clock).  */
/* cp's workers report to one session.  Standard error's own lock
   guards it: the session draws there, and error () holds that lock
   while it calls back to clear the line, so no other lock can be
   taken in an order opposite to it.  */
static void
session_lock (void)
{
  flockfile (stderr);
}

static void
session_unlock (void)
{
  funlockfile (stderr);
}

static void
session_begin (struct xfer_sink *sink)
{
  struct xfer_session *s = (struct xfer_session *) sink;
  session_lock ();
  if (!s->start)
    {
      s->start = gethrxtime ();
      s->next_draw = s->start + XTIME_PRECISION;
    }
  session_unlock ();
}

/* The bytes S counts: its own and the other processes'.  */
static intmax_t
session_total_bytes (struct xfer_session const *s)
{
  return s->own.bytes + s->others.bytes;
}

/* The work S has done: bytes copied, and those read back to check.  */
static intmax_t
session_done (struct xfer_session const *s)
{
  return session_total_bytes (s) + s->own.read_back + s->others.read_back;
}

/* The bytes S has found copied already (--resume).  */
static intmax_t
session_skipped_bytes (struct xfer_session const *s)
{
  return s->own.skipped + s->others.skipped;
}

/* The work a count of COUNTED bytes of data means for S: each byte is
   written, and read back with --verify; but not those of files left
   as they were, nor the writes of bytes found copied already.  */
static intmax_t
session_work (struct xfer_session const *s, intmax_t counted)
{
  intmax_t times = s->plan.read_back ? 2 : 1;
  intmax_t left = s->own.left + s->others.left;
  return times * (counted - left) - session_skipped_bytes (s);
}

/* What S knows of its total work: set *WORK to it and return true if
   the count is over, else set *WORK to what is counted so far (which
   may be 0) and return false.  */
static bool
session_known_work (struct xfer_session *s, intmax_t *work)
{
  if (!s->total_known && s->count.started)
    s->total_known = xfer_count_read (&s->count, &s->counted);
  *work = session_work (s, s->counted);
  return s->total_known;
}

/* The percentage of WORK that S has done: never less than S showed
   before, as a file that grows while it is copied makes more work
   than was counted, and 100 only once all of it is done.  */
static int
session_percent (struct xfer_session *s, intmax_t work)
{
  intmax_t done = session_done (s);
  int p = done < work ? MIN (99, (int) (100.0 * done / work)) : 100;
  return MAX (p, s->percent);
}

/* The word for what has happened to the bytes S counted: on storage
   when the data is synced or written with direct I/O, else only
   handed to the system's cache.  */
static char const *
session_verb (struct xfer_session const *s)
{
  bool stored = (s->plan.synced
                 || ((s->direct_asked & XFER_DIRECT_OUT)
                     && (!s->own.files || (s->own.direct & XFER_DIRECT_OUT))));
  if (s->plan.read_back)
    return (stored ? _("copied and read back")
            : _("written to cache and read back"));
  return stored ? _("copied") : _("written to cache");
}

/* The sign put before a total that is only the least it can be.  */
static char const *
at_least (void)
{
  return STREQ (locale_charset (), "UTF-8") ? "\u2265 " : ">= ";
}

/* SECS as "1:02:05".  BUF has room for INT_BUFSIZE_BOUND (intmax_t) + 6
   bytes.  */
static char const *
clock_time (intmax_t secs, char *buf)
{
  sprintf (buf, "%jd:%02d:%02d", secs / 3600, (int) (secs / 60 % 60),
           (int) (secs % 60));
  return buf;
}

enum { CLOCK_BUFSIZE = INT_BUFSIZE_BOUND (intmax_t) + 6 };

/* The line being put together, and the columns it may take.  */
struct line
{
  char text[512];
  int len;
  int max;			/* INT_MAX where nothing limits it */
};

/* Add ", PART" to L (or PART where L is empty), if it fits.  */
static void
line_add (struct line *l, char const *part)
{
  int sep = l->len ? 2 : 0;
  int n = strlen (part);
  if (l->max - l->len < sep + n || sizeof l->text - l->len <= sep + n)
    return;
  sprintf (l->text + l->len, "%s%s", sep ? ", " : "", part);
  l->len += sep + n;
}

/* The seconds from S's start to NOW.  */
static double
session_seconds (struct xfer_session const *s, xtime_t now)
{
  return s->start < now ? (now - s->start) / (double) XTIME_PRECISION : 0;
}

/* Add to L, for S at NOW, the time left to do WORK in all.  */
static void
add_eta (struct line *l, struct xfer_session const *s, xtime_t now,
         intmax_t work)
{
  intmax_t done = session_done (s);
  if (done <= 0 || work <= done)
    return;
  double left = session_seconds (s, now) * (work - done) / done;
  char eta[CLOCK_BUFSIZE], part[CLOCK_BUFSIZE + 8];
  sprintf (part, _("ETA %s"), clock_time (left + 0.5, eta));
  line_add (l, part);
}

/* The progress line of S at NOW, in L: the work done, of the total if
   the count is over, of at least what it has counted if not (where
   that is more), the time, the time left and the rate.  */
static void
make_line (struct line *l, struct xfer_session *s, xtime_t now)
{
  char done_buf[LONGEST_HUMAN_READABLE + 1];
  char total[LONGEST_HUMAN_READABLE + 1];
  char elapsed[CLOCK_BUFSIZE];
  char part[2 * LONGEST_HUMAN_READABLE + CLOCK_BUFSIZE + 128];
  intmax_t work;
  bool known = session_known_work (s, &work);
  intmax_t d = session_done (s);
  char const *done = xfer_human_size (d, done_buf);
  clock_time (session_seconds (s, now), elapsed);
  char const *verb = session_verb (s);
  if (known && 0 < work)
    {
      s->percent = session_percent (s, work);
      snprintf (part, sizeof part, _("%s of %s (%d%%) %s in %s"), done,
                xfer_human_size (MAX (work, d), total), s->percent, verb,
                elapsed);
    }
  else if (d < work)
    snprintf (part, sizeof part, _("%s of %s%s %s in %s"), done,
              at_least (), xfer_human_size (work, total), verb, elapsed);
  else
    snprintf (part, sizeof part, _("%s %s in %s"), done, verb, elapsed);
  line_add (l, part);
  if (known)
    add_eta (l, s, now, work);
  if (s->start < now)
    {
      char size[LONGEST_HUMAN_READABLE + 1];
      snprintf (part, sizeof part, "%s/s",
                xfer_human_size (d / session_seconds (s, now), size));
      line_add (l, part);
    }
  intmax_t skipped = session_skipped_bytes (s) + s->own.left + s->others.left;
  if (skipped)
    {
      char size[LONGEST_HUMAN_READABLE + 1];
      snprintf (part, sizeof part, _("%s skipped"),
                xfer_human_size (skipped, size));
      line_add (l, part);
    }
}

/* The columns of the terminal on standard error, less one so that the
   line never wraps; INT_MAX if it cannot be told.  */
static int
line_room (void)
{
  struct winsize ws;
  if (ioctl (STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && 1 < ws.ws_col)
    return ws.ws_col - 1;
  return INT_MAX;
}

static void
draw (struct xfer_session *s, xtime_t now)
{
  if (!command.shown)
    {
      command.saved_print_progname = error_print_progname;
      error_print_progname = clear_then_progname;
      command.shown = s;
    }
  struct line l = { .max = line_room () };
  make_line (&l, s, now);
  fprintf (stderr, "\r%s", l.text);
  /* Cover what is left of a longer previous line.  */
  int cover = MIN (s->width, l.max);
  if (l.len < cover)
    fprintf (stderr, "%*s", cover - l.len, "");
  s->width = MAX (l.len, cover);
  fflush (stderr);
}

/* Print what S knows of its total at NOW after the line SIGUSR1 asks
   for: the share done and the time left, or the least the total is.  */
static void
print_info_total (struct xfer_session *s, xtime_t now)
{
  intmax_t work;
  bool known = session_known_work (s, &work);
  char total[LONGEST_HUMAN_READABLE + 1];
  intmax_t d = session_done (s);
  if (known && 0 < work)
    {
      s->percent = session_percent (s, work);
      fprintf (stderr, _(", %d%% of %s"), s->percent,
               xfer_human_size (MAX (work, d), total));
      struct line l = { .max = INT_MAX };
      add_eta (&l, s, now, work);
      if (l.len)
        fprintf (stderr, ", %s", l.text);
    }
  else if (d < work)
    fprintf (stderr, _(", of %s%s"), at_least (),
             xfer_human_size (work, total));
}

/* Print the line SIGUSR1 asks for: the transfer so far, as dd's, then
   what is known of the total.  The first signal starts the count if
   no progress line did, and has only dd's line, whatever the count's
   thread may have found by then.  */
static void
print_info (struct xfer_session *s)
{
  command.info_requested = 0;
  session_clear (s);
  xtime_t now = gethrxtime ();
  xfer_print_transfer (stderr, session_total_bytes (s), s->start, now,
                       false);
  if (s->count.started)
    print_info_total (s, now);
  else
    start_count (s);
  fputc ('\n', stderr);
  fflush (stderr);
}

/* Whether S has just done all the work it counted, which the line
   shows at once, rather than up to a second later or never, as the
   copy may end before then.  */
static bool
just_complete (struct xfer_session *s, xtime_t now)
{
  if (!s->total_known || s->percent == 100
      || now < s->start + XTIME_PRECISION)
    return false;
  intmax_t work = session_work (s, s->counted);
  return 0 < work && work <= session_done (s);
}

/* Redraw the progress line if a second passed, and print the line
   SIGUSR1 asked for.  */
static void
tick (struct xfer_session *s)
{
  if (command.info_requested)
    print_info (s);
  /* Files left before any was copied start no clock.  */
  if (!s->show || !s->start)
    return;
  xtime_t now = gethrxtime ();
  if (s->start + COUNT_DELAY <= now)
    start_count (s);
  if (now < s->next_draw && !just_complete (s, now))
    return;
  draw (s, now);
  s->next_draw = now + XTIME_PRECISION;
}

/* The sink's bytes: count N bytes.  */
static void
session_bytes (struct xfer_sink *sink, off_t n)
{
  struct xfer_session *s = (struct xfer_session *) sink;
  session_lock ();
  s->own.bytes += n;
  tick (s);
  session_unlock ();
}

/* The sink's skipped: count N bytes found already copied.  They are
   no output of this run, but of the work it was given, so the
   progress line's share of the total counts them.  */
static void
session_skipped (struct xfer_sink *sink, off_t n)
{
  struct xfer_session *s = (struct xfer_session *) sink;
  session_lock ();
  s->own.skipped += n;
  tick (s);
  session_unlock ();
}

/* The sink's left: a file of N bytes is left as it was found.  */
static void
session_left (struct xfer_sink *sink, off_t n)
{
  struct xfer_session *s = (struct xfer_session *) sink;
  session_lock ();
  s->own.left += n;
  tick (s);
  session_unlock ();
}

/* The sink's read_back: N more bytes were read back (--verify).  */
static void
session_read_back (struct xfer_sink *sink, off_t n)
{
  struct xfer_session *s = (struct xfer_session *) sink;
  session_lock ();
  s->own.read_back += n;
  tick (s);
  session_unlock ();
}

/* The sink's end: add a finished file's report R; OK says whether the
   copy succeeded (only those count as files).  */
static void
session_add (struct xfer_sink *sink, struct xfer_report const *r, bool ok)
{
  struct xfer_session *s = (struct xfer_session *) sink;
  session_lock ();
  /* -v and --debug lines on the same terminal would overwrite it.  */
  if (s->stdout_tty)
    session_clear (s);
  if (ok)
    xfer_counts_file (&s->own, r);
  session_unlock ();
}

void
xfer_counts_file (struct xfer_counts *c, struct xfer_report const *report)
{
  c->files++;
  c->methods |= 1 << report->method;
  c->buffer_size = MAX (c->buffer_size, report->buffer_size);
  c->direct |= report->direct;
}

void
xfer_session_others (struct xfer_opts const *opts,
                     struct xfer_counts const *others)
{
  struct xfer_session *s = session_of (opts);
  if (!s)
    return;
  session_lock ();
  s->others.bytes = others->bytes;
  s->others.skipped = others->skipped;
  s->others.left = others->left;
  s->others.read_back = others->read_back;
  /* This process may be copying nothing itself, and only this call
     then draws the line and prints what SIGUSR1 asked for.  */
  tick (s);
  session_unlock ();
}

/* Add C to TO.  */
static void
counts_add (struct xfer_counts *to, struct xfer_counts const *c)
{
  to->bytes += c->bytes;
  to->skipped += c->skipped;
  to->files += c->files;
  to->methods |= c->methods;
  to->buffer_size = MAX (to->buffer_size, c->buffer_size);
  to->direct |= c->direct;
  to->left += c->left;
  to->read_back += c->read_back;
}

void
xfer_session_ranks (struct xfer_opts const *opts,
                    struct xfer_counts const *others, int n)
{
  struct xfer_session *s = session_of (opts);
  if (!s)
    return;
  s->others = (struct xfer_counts) { 0 };
  for (int i = 0; i < n; i++)
    counts_add (&s->others, &others[i]);
  s->ranks = others;
  s->n_others = n;
}

void
xfer_session_share (struct xfer_opts const *opts, intmax_t waited_ns,
                    intmax_t steals)
{
  struct xfer_session *s = session_of (opts);
  if (!s)
    return;
  session_lock ();
  s->own.waited_ns = waited_ns;
  s->own.steals = steals;
  session_unlock ();
}

/* The METHODS used (1 << each xfer_method), as "read" or
   "offload+read"; "none" if no file was copied.  BUF must have room
   for all names.  */
static char const *
methods_used (int methods, char *buf)
{
  *buf = '\0';
  for (enum xfer_method m = XFER_METHOD_READ; m <= XFER_METHOD_OFFLOAD; m++)
    if (methods & (1 << m))
      {
        if (*buf)
          strcat (buf, "+");
        strcat (buf, xfer_method_name (m));
      }
  return *buf ? buf : "none";
}

static char const *
direct_name (int direct)
{
  static char const *const names[] = { "no", "in", "out", "both" };
  return names[direct & XFER_DIRECT_BOTH];
}

/* What the process that is rank I of S's shared work copied: the
   session's own for rank 0.  */
static struct xfer_counts const *
rank_counts (struct xfer_session const *s, int i)
{
  return i == 0 ? &s->own : &s->ranks[i - 1];
}

/* Rank I's bytes if BYTES, else its files.  */
static intmax_t
rank_figure (struct xfer_session const *s, int i, bool bytes)
{
  struct xfer_counts const *c = rank_counts (s, i);
  return bytes ? c->bytes : c->files;
}

/* Set *LO and *HI to the first ranks of S with the fewest and the
   most bytes (if BYTES) or files.  */
static void
rank_extremes (struct xfer_session const *s, bool bytes, int *lo, int *hi)
{
  *lo = *hi = 0;
  for (int i = 1; i <= s->n_others; i++)
    {
      intmax_t v = rank_figure (s, i, bytes);
      if (v < rank_figure (s, *lo, bytes))
        *lo = i;
      if (rank_figure (s, *hi, bytes) < v)
        *hi = i;
    }
}

/* The seconds rank I of S was busy in the ELAPSED seconds of the
   copy: all but those it waited.  */
static double
rank_busy (struct xfer_session const *s, int i, double elapsed)
{
  return MAX (0, elapsed - rank_counts (s, i)->waited_ns / 1e9);
}

/* The line that says how evenly S's ranks shared the work: the
   totals say how much there was, this where the extremes went; then
   each rank's busy seconds, and how often it was given work it asked
   for.  */
static void
print_balance (struct xfer_session const *s, double elapsed)
{
  char lo_size[LONGEST_HUMAN_READABLE + 1];
  char hi_size[LONGEST_HUMAN_READABLE + 1];
  int lo, hi;
  rank_extremes (s, true, &lo, &hi);
  fprintf (stderr, "ranks: %d, bytes per rank: min %s (rank %d),"
           " max %s (rank %d)", s->n_others + 1,
           xfer_human_size (rank_figure (s, lo, true), lo_size), lo,
           xfer_human_size (rank_figure (s, hi, true), hi_size), hi);
  rank_extremes (s, false, &lo, &hi);
  fprintf (stderr, "; files per rank: min %jd (rank %d),"
           " max %jd (rank %d)\n", rank_figure (s, lo, false), lo,
           rank_figure (s, hi, false), hi);
  fputs ("busy seconds, steals per rank:", stderr);
  for (int i = 0; i <= s->n_others; i++)
    fprintf (stderr, " %d: %.2f, %jd%s", i, rank_busy (s, i, elapsed),
             rank_counts (s, i)->steals, i < s->n_others ? ";" : "\n");
}

/* The "ranks" member of S's JSON statistics: each rank's figures,
   exact, so that a script can check them against the totals.  */
static void
print_balance_json (struct xfer_session const *s, double elapsed)
{
  fputs (", \"ranks\": [", stderr);
  for (int i = 0; i <= s->n_others; i++)
    fprintf (stderr, "%s{\"rank\": %d, \"bytes\": %jd, \"files\": %jd,"
             " \"busy_seconds\": %.6f, \"steals\": %jd}",
             i ? ", " : "", i, rank_figure (s, i, true),
             rank_figure (s, i, false), rank_busy (s, i, elapsed),
             rank_counts (s, i)->steals);
  putc (']', stderr);
}

static void
print_stats (struct xfer_session const *s, xtime_t now)
{
  struct xfer_counts all = s->own;
  counts_add (&all, &s->others);
  char method_buf[sizeof "read+mmap+offload"];
  char const *methods = methods_used (all.methods, method_buf);
  /* No buffer was used where the kernel moved all the data, or nothing
     was copied: say so, rather than show a buffer of no bytes.  */
  char buffer[INT_BUFSIZE_BOUND (intmax_t)];
  char const *human_buffer = "none", *json_buffer = "null";
  if (all.buffer_size)
    {
      sprintf (buffer, "%jd", (intmax_t) all.buffer_size);
      human_buffer = json_buffer = buffer;
    }
  double secs = (s->start < now
                 ? (now - s->start) / (double) XTIME_PRECISION : 0);
  if (s->stats == XFER_STATS_HUMAN)
    {
      xfer_print_transfer (stderr, all.bytes, s->start, now, false);
      fprintf (stderr, "\n%jd %s, io method: %s, buffer size: %s,"
               " direct I/O: %s",
               all.files, all.files == 1 ? "file" : "files", methods,
               human_buffer, direct_name (all.direct));
      if (s->workers)
        fprintf (stderr, ", workers: %d", s->workers);
      putc ('\n', stderr);
      if (all.skipped)
        {
          char size[LONGEST_HUMAN_READABLE + 1];
          fprintf (stderr, "%jd bytes (%s) skipped, already copied\n",
                   all.skipped, xfer_human_size (all.skipped, size));
        }
      if (0 <= s->n_others)
        print_balance (s, secs);
    }
  else
    {
      fprintf (stderr, "{\"bytes\": %jd, \"seconds\": %.6f,"
               " \"bytes_per_second\": %.0f, \"files\": %jd,"
               " \"io_method\": \"%s\", \"buffer_size\": %s,"
               " \"direct\": \"%s\"",
               all.bytes, secs, secs > 0 ? all.bytes / secs : 0.0,
               all.files, methods, json_buffer, direct_name (all.direct));
      if (s->workers)
        fprintf (stderr, ", \"workers\": %d", s->workers);
      if (all.skipped)
        fprintf (stderr, ", \"bytes_skipped\": %jd", all.skipped);
      if (0 <= s->n_others)
        print_balance_json (s, secs);
      fputs ("}\n", stderr);
    }
}

void
xfer_session_end (struct xfer_opts *opts)
{
  struct xfer_session *s = session_of (opts);
  if (!s)
    return;
  xfer_count_stop (&s->count);
  session_clear (s);
  if (s->stats != XFER_STATS_NONE)
    print_stats (s, s->start ? gethrxtime () : 0);
  opts->sink = NULL;
}
