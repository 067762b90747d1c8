/* xfer-range.c -- one file's copy split into ranges, and merged back.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Above the chooser (see doc/HACKING): each range is
   copied by the chooser (xfer.c) through descriptors of its own, in
   whatever thread or process takes it, and the outcomes are merged
   into one, as a copy in one go would have ended.  */

#include <config.h>

#include <pthread.h>
#include <stdatomic.h>

#include "system.h"
#include "xfer-range.h"
#include "xfer.h"
#include "xfer-hash.h"
#include "xfer-io.h"
#include "xfer-readback.h"
#include "xfer-size.h"

/* What the ranges of a split share while they are copied, in
   whichever threads copy them: the next range to take, and their
   outcomes so far, under LOCK.  Allocated, so that the lock and the
   atomic stay out of the callers' sight and reach.  */
struct xfer_split_shared
{
  atomic_intmax_t next;		/* the next range to take */

  pthread_mutex_t lock;		/* guards the members below, and the
                                   split's report */
  off_t failed_at;		/* start of the first range that failed */
  bool ok;
  struct held_errors failure;	/* what that range said */
  struct held_errors warnings;	/* what the others said, once each */
};

/* The automatic range size: see "cp jobs" in the manual for the
   measurements.  Ranges start at multiples of it, so it is a multiple
   of CHUNK_ALIGN, which is more than any direct I/O alignment.  */
enum { DEFAULT_CHUNK = 64 * 1024 * 1024, CHUNK_ALIGN = 1024 * 1024 };

intmax_t
xfer_range_count (off_t size, off_t chunk)
{
  return size / chunk + (size % chunk != 0);
}

/* The range size CPDD_CHUNK_SIZE sets, or 0.  */
static off_t
chunk_size_from_env (void)
{
  char const *v = getenv ("CPDD_CHUNK_SIZE");
  uintmax_t n;
  if (v && xfer_parse_size (v, &n) == LONGINT_OK && 0 < n
      && n <= TYPE_MAXIMUM (off_t) - CHUNK_ALIGN)
    return n + (CHUNK_ALIGN - n % CHUNK_ALIGN) % CHUNK_ALIGN;
  return 0;
}

off_t
xfer_chunk_size (void)
{
  off_t n = chunk_size_from_env ();
  return n ? n : DEFAULT_CHUNK;
}

bool
xfer_chunk_size_set (void)
{
  return chunk_size_from_env () != 0;
}

/* Whether FD can be opened anew with FLAGS, as each range does.  */
static bool
can_reopen (int fd, int flags)
{
  int again = xfer_reopen (fd, flags);
  return 0 <= again && close (again) == 0;
}

/* Take out of S->opts the direct I/O an end of S cannot do, warning
   once as a copy in one go does, where each range would warn.  */
static void
probe_direct (struct xfer_split *s)
{
  int want = s->opts.direct;
  /* A mapping always goes through the page cache.  */
  if (s->opts.method == XFER_METHOD_MMAP)
    want &= ~XFER_DIRECT_IN;

  struct xfer_file const *file[] = { &s->src, &s->dst };
  int which[] = { XFER_DIRECT_IN, XFER_DIRECT_OUT };
  for (int i = 0; i < 2; i++)
    if (want & which[i])
      {
        struct xfer_end e;
        xfer_start_end (&e, file[i], which[i], 0);
        if (xfer_end_direct_on (&e))
          xfer_end_direct_off (&e);
        else
          s->opts.direct &= ~which[i];
      }
}

/* Set S up to copy SRC to DST in ranges of CHUNK bytes with OPTS,
   none of them known yet, this process taking them from the first.  */
static void
split_init (struct xfer_split *s, struct xfer_file const *src,
            struct xfer_file const *dst, struct xfer_opts const *opts,
            off_t chunk)
{
  struct xfer_split_shared *sh = xmalloc (sizeof *sh);
  int err = pthread_mutex_init (&sh->lock, NULL);
  if (err)
    error (EXIT_FAILURE, err, _("cannot make a lock"));
  atomic_init (&sh->next, 0);
  sh->failed_at = -1;
  sh->ok = true;
  sh->failure = sh->warnings = (struct held_errors) { NULL, 0 };
  *s = (struct xfer_split) { .src = *src, .dst = *dst, .opts = *opts,
                             .chunk = chunk, .verify_algo = -1,
                             .report = { .method = XFER_METHOD_READ },
                             .shared = sh };
}

/* End what split_init started.  */
static void
split_free (struct xfer_split *s)
{
  pthread_mutex_destroy (&s->shared->lock);
  free (s->shared);
  s->shared = NULL;
}

bool
xfer_split_start (struct xfer_split *s, struct xfer_file const *src,
                  struct xfer_file const *dst,
                  struct xfer_opts const *opts, off_t chunk)
{
  struct stat const *st = src->st;
  if (! (src->just_opened && dst->just_opened
         && S_ISREG (st->st_mode) && S_ISREG (dst->st->st_mode)
         && chunk <= st->st_size
         && can_reopen (src->fd, O_RDONLY)
         && can_reopen (dst->fd, O_WRONLY)))
    return false;

  split_init (s, src, dst, opts, chunk);

  struct xfer_sink *sink = opts->sink;
  if (sink)
    sink->begin (sink);

  /* A clone is of the whole file, in one go.  */
  enum xfer_step cloned = xfer_clone_file (src, dst, opts, &s->report);
  if (cloned != XFER_STEP_UNSUITED)
    {
      s->shared->ok = cloned == XFER_STEP_DONE;
      return true;
    }

  probe_direct (s);
  s->ranges = xfer_range_count (st->st_size, chunk);
  s->report.ranges = s->ranges;
  return true;
}

/* Open FILE anew with FLAGS and put the new descriptor's offset at
   START.  Return it, or -1 after a diagnostic (MSGID, with the
   name).  */
static int
open_range_end (struct xfer_file const *file, int flags, off_t start,
                char const *msgid)
{
  int fd = xfer_reopen (file->fd, flags);
  if (fd < 0)
    {
      error (0, errno, msgid, quoteaf (file->name));
      return -1;
    }
  if (lseek (fd, start, SEEK_SET) < 0)
    {
      error (0, errno, _("cannot lseek %s"), quoteaf (file->name));
      close (fd);
      return -1;
    }
  return fd;
}

/* Close FD, a range's descriptor of the file NAME.  */
static bool
close_range_end (int fd, char const *name)
{
  if (close (fd) == 0)
    return true;
  error (0, errno, _("failed to close %s"), quoteaf (name));
  return false;
}

/* Copy the range of S at START (to the end of the source if LAST),
   through descriptors of its own, reporting to REPORT; read it back
   and compare if S asks.  */
static bool
copy_range_at (struct xfer_split *s, off_t start, bool last,
               struct xfer_report *report)
{
  struct xfer_file src = s->src;
  struct xfer_file dst = s->dst;
  src.fd = open_range_end (&s->src, O_RDONLY, start,
                           _("cannot open %s for reading"));
  if (src.fd < 0)
    return false;
  dst.fd = open_range_end (&s->dst, O_WRONLY, start,
                           _("cannot open %s for writing"));
  if (dst.fd < 0)
    {
      close_range_end (src.fd, src.name);
      return false;
    }

  /* Only the last range may give the file its length: the others
     end where another range goes on.  */
  struct xfer_hash h;
  bool verify = 0 <= s->verify_algo;
  if (verify)
    xfer_hash_init (&h, s->verify_algo);
  struct xfer_part part = { start, last ? -1 : s->chunk, last,
                            verify ? &h : NULL };
  bool ok = xfer_copy_part (&src, &dst, &s->opts, &part, report);
  if (verify)
    {
      if (ok)
        {
          char want[XFER_HASH_HEX_MAX];
          struct xfer_check c = { start, last ? -1 : report->bytes,
                                  s->verify_algo, &h, s->opts.sink };
          ok = xfer_verify_part (&src, &dst, &c, want, report);
        }
      else
        xfer_hash_discard (&h);
    }
  ok &= close_range_end (dst.fd, dst.name);
  ok &= close_range_end (src.fd, src.name);
  return ok;
}

/* Add R, the report of a range of a file, to TO, the file's.  The
   first range's method, buffer and queue stand for all.  */
static void
merge_report (struct xfer_report *to, struct xfer_report const *r,
              bool first)
{
  if (first)
    {
      to->method = r->method;
      to->buffer_size = r->buffer_size;
      to->offload = r->offload;
      to->queue = r->queue;
      to->inflight = r->inflight;
      to->uncached = r->uncached;
      to->hashed = r->hashed;
    }
  to->holes |= r->holes;
  to->direct |= r->direct;
  to->differs |= r->differs;
  if (r->read_back)
    {
      to->read_back = true;
      to->readback = r->readback;
    }
  to->bytes += r->bytes;
  to->detection |= r->detection;
}

/* Add to TO the lines of FROM it does not have yet, and empty FROM.  */
static void
add_new_lines (struct held_errors *to, struct held_errors *from)
{
  char const *p = from->text;
  char const *end = p + from->len;
  while (p < end)
    {
      char const *nl = memchr (p, '\n', end - p);
      idx_t n = nl + 1 - p;
      bool known = false;
      for (char const *q = to->text; !known && q < to->text + to->len;
           q = strchr (q, '\n') + 1)
        known = strncmp (q, p, n) == 0;
      if (!known)
        {
          to->text = xirealloc (to->text, to->len + n + 1);
          memcpy (to->text + to->len, p, n);
          to->len += n;
          to->text[to->len] = '\0';
        }
      p = nl + 1;
    }
  free (from->text);
  *from = (struct held_errors) { NULL, 0 };
}

/* Where the source's next data is after START, if it lies beyond the
   range of S at START and the options keep the source's holes; else
   -1.  A range of holes needs no descriptors of its own, nor any I/O:
   the destination reads as zeros there already.  The file's own
   offset moves, but no range uses it.  */
static off_t
hole_until (struct xfer_split const *s, off_t start)
{
#if HAVE_SEEK_HOLE
  struct stat const *st = s->src.st;
  if (s->opts.sparse == XFER_SPARSE_NEVER || !xfer_looks_sparse (st))
    return -1;
  off_t data = lseek (s->src.fd, start, SEEK_DATA);
  if (data < 0)
    return errno == ENXIO ? st->st_size : -1;
  return start + s->chunk <= data ? data : -1;
#else
  return -1;
#endif
}

/* Range I of S is all hole, up to DATA: take the ranges after it up
   to DATA too, unless another thread took the next one already, so
   that a file of a terabyte of holes is split quickly.  Never take
   the last range, which gives the file its length.  Return how many
   ranges were taken with I.  */
static intmax_t
take_holes (struct xfer_split *s, intmax_t i, off_t data)
{
  intmax_t upto = MIN (data / s->chunk, s->ranges - 1);
  intmax_t next = i + 1;
  if (next < upto
      && atomic_compare_exchange_strong (&s->shared->next, &next, upto))
    return upto - i;
  return 1;
}

/* Add to S the outcome of its range at START, copied if OK: REPORT,
   and SAID, what was said meanwhile, which is taken and emptied.  */
static void
record_range (struct xfer_split *s, off_t start, bool ok,
              struct held_errors *said, struct xfer_report const *report)
{
  struct xfer_split_shared *sh = s->shared;
  merge_report (&s->report, report, start == 0);
  if (ok)
    add_new_lines (&sh->warnings, said);
  else
    {
      sh->ok = false;
      if (sh->failed_at < 0 || start < sh->failed_at)
        {
          sh->failed_at = start;
          free (sh->failure.text);
          sh->failure = *said;
        }
      else
        free (said->text);
      *said = (struct held_errors) { NULL, 0 };
    }
}

/* Copy range I of S, unless a range before it failed.  */
static void
copy_range (struct xfer_split *s, intmax_t i)
{
  off_t start = i * s->chunk;

  off_t failed_at = xfer_split_failed_at (s);
  bool after_failure = 0 <= failed_at && failed_at < start;
  if (after_failure)
    return;

  struct xfer_report report = { .method = XFER_METHOD_READ };
  struct held_errors said = { NULL, 0 };
  bool last = i == s->ranges - 1;
  off_t data = last ? -1 : hole_until (s, start);
  bool ok = true;
  if (0 <= data)
    {
      off_t n = take_holes (s, i, data) * s->chunk;
      report.holes = true;
      report.bytes = n;
      report.detection = XFER_DETECT_SEEK_HOLE;
      if (s->opts.sink)
        s->opts.sink->bytes (s->opts.sink, n);
    }
  else
    {
      /* A rank of mpicp walking a subtree copies ranges in its walk,
         whose own diagnostics it holds for its answer.  */
      struct error_hold_scope hold;
      error_hold_take (&hold, &said);
      ok = copy_range_at (s, start, last, &report);
      error_hold_give_back (&hold);
    }

  pthread_mutex_lock (&s->shared->lock);
  record_range (s, start, ok, &said, &report);
  pthread_mutex_unlock (&s->shared->lock);
}

void
xfer_copy_ranges (struct xfer_split *s)
{
  for (;;)
    {
      intmax_t i = atomic_fetch_add (&s->shared->next, 1);
      if (s->ranges <= i)
        break;
      copy_range (s, i);
    }
}

void
xfer_copy_one_range (struct xfer_split *s, intmax_t i)
{
  copy_range (s, i);
}

void
xfer_split_join (struct xfer_split *s, struct xfer_file const *src,
                 struct xfer_file const *dst, struct xfer_opts const *opts,
                 off_t chunk, intmax_t ranges)
{
  /* No other range is this process's to take with its own.  Its bytes
     count in this process's sink, the file in the one that split it.  */
  split_init (s, src, dst, opts, chunk);
  s->ranges = ranges;
  atomic_store (&s->shared->next, -1);
}

bool
xfer_copy_range (struct xfer_split *s, intmax_t i, struct held_errors *said,
                 struct xfer_report *report)
{
  copy_range (s, i);
  struct xfer_split_shared *sh = s->shared;
  *report = s->report;
  bool ok = sh->ok;
  *said = ok ? sh->warnings : sh->failure;
  free (ok ? sh->failure.text : sh->warnings.text);
  split_free (s);
  return ok;
}

void
xfer_split_merge (struct xfer_split *s, off_t start, bool ok,
                  struct held_errors *said, struct xfer_report const *report)
{
  record_range (s, start, ok, said, report);
}

bool
xfer_split_end (struct xfer_split *s)
{
  struct xfer_split_shared *sh = s->shared;
  error_print_held (&sh->warnings);
  error_print_held (&sh->failure);
  struct stat st;
  if (0 <= sh->failed_at)
    {
      /* Only ever shorten: the range that failed may not have
         reached its start.  */
      if (fstat (s->dst.fd, &st) != 0)
        error (0, errno, _("cannot fstat %s"), quoteaf (s->dst.name));
      else if (sh->failed_at < st.st_size
               && ftruncate (s->dst.fd, sh->failed_at) != 0)
        error (0, errno, _("failed to truncate %s"), quoteaf (s->dst.name));
    }
  bool ok = sh->ok && !s->report.differs;
  if (s->opts.sink)
    s->opts.sink->end (s->opts.sink, &s->report, ok);
  split_free (s);
  return ok;
}

bool
xfer_split_ok (struct xfer_split const *s)
{
  pthread_mutex_lock (&s->shared->lock);
  bool ok = s->shared->ok;
  pthread_mutex_unlock (&s->shared->lock);
  return ok;
}

off_t
xfer_split_failed_at (struct xfer_split const *s)
{
  pthread_mutex_lock (&s->shared->lock);
  off_t failed_at = s->shared->failed_at;
  pthread_mutex_unlock (&s->shared->lock);
  return failed_at;
}
