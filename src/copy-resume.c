/* copy-resume.c -- finishing a regular file's copy an earlier run began.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* An earlier run may have been killed, run out of space or lost power
   while it copied.  What it leaves of a regular file's copy is, from
   the start, the data written before it stopped: one stretch from the
   start for a copy in one go, one stretch at the start of each range
   for a copy in ranges (cp --jobs, mpicp), which made the file full
   size first; and, after a power cut, holes or zeros wherever data
   written had not reached storage, whatever the size says.  The
   attributes come last: cp sets a copy's times only once all its
   data is written, so a copy cut short has the time of the copying.

   So a copy is complete when it is as long as its source, has data
   wherever the source has, and, where times are kept, has the
   source's modification time; the end of its data is also compared
   with the source's, as a file system that cannot say where its holes
   are shows lost data as zeros.  Where times are not kept, nothing
   tells a complete copy from one cut short, or from another file of
   that name, but its data: it is compared whole with the source's; so
   it is on a file system that cannot show holes (FUSE), where times
   tell nothing of data a crash lost.
   A copy cut short keeps the data it holds up to a multiple of
   RESUME_UNIT in each stretch, where the last RESUME_UNIT kept is
   compared with the source: a write cut short leaves a block half
   done, zeros after the bytes written.  The start of each stretch is
   compared too, so that an older, unrelated file of the name is not
   taken for the start of the copy.  */

#include <config.h>

#include "system.h"
#include "copy-resume.h"
#include "copy-hash.h"
#include "stat-time.h"
#include "timespec.h"
#include "xfer.h"

#include <fcntl.h>
#if HAVE_SYS_VFS_H && HAVE_FSTATFS
# include <sys/vfs.h>
#endif

enum
{
  /* What is kept of a stretch of data ends at a multiple of this,
     before the stretch's end: it holds any block a write cut short
     left half done, and keeps what is copied next aligned for direct
     I/O.  */
  RESUME_UNIT = 1024 * 1024,
  /* The bytes compared at the start of a stretch kept on the strength
     of its times, and at the end of a copy found complete so: enough
     to tell another file from the copy, little beside the data a
     small file's copy would write.  */
  RESUME_SAMPLE = 64 * 1024,
  /* The bytes compared at a time.  */
  RESUME_CHUNK = 1024 * 1024
};

/* Spans of a file, in order, none touching another.  */
struct spans
{
  struct resume_span *v;
  idx_t n;
  idx_t alloc;
};

static void
spans_add (struct resume_span **v, idx_t *n, idx_t *alloc, off_t start,
           off_t end)
{
  if (*n && (*v)[*n - 1].end == start)
    {
      (*v)[*n - 1].end = end;
      return;
    }
  if (*n == *alloc)
    *v = xpalloc (*v, alloc, 1, -1, sizeof **v);
  (*v)[(*n)++] = (struct resume_span) { start, end };
}

static void
add_span (struct spans *s, off_t start, off_t end)
{
  spans_add (&s->v, &s->n, &s->alloc, start, end);
}

/* Set *S to where FD, SIZE bytes long, has data, as SEEK_DATA and
   SEEK_HOLE say; where they can't, all of it is data.  Return false if
   FD can't be looked at so.  */
static bool
data_spans (int fd, off_t size, struct spans *s)
{
#if HAVE_SEEK_HOLE
  off_t pos = 0;
  while (pos < size)
    {
      off_t data = lseek (fd, pos, SEEK_DATA);
      if (data < 0)
        {
          if (errno == ENXIO)
            return true;
          if (errno != EINVAL && errno != ENOTSUP)
            return false;
          add_span (s, pos, size);
          return true;
        }
      if (size <= data)
        return true;
      off_t hole = lseek (fd, data, SEEK_HOLE);
      if (hole < 0)
        return false;
      hole = MIN (hole, size);
      add_span (s, data, hole);
      pos = hole;
    }
#else
  if (0 < size)
    add_span (s, 0, size);
#endif
  return true;
}

/* Whether some of S lies between START and END.  */
static bool
meets (struct spans const *s, off_t start, off_t end)
{
  for (idx_t i = 0; i < s->n; i++)
    if (s->v[i].start < end && start < s->v[i].end)
      return true;
  return false;
}

/* Whether S holds every span of T whole.  */
static bool
covers (struct spans const *s, struct spans const *t)
{
  idx_t j = 0;
  for (idx_t i = 0; i < t->n; i++)
    {
      while (j < s->n && s->v[j].end < t->v[i].end)
        j++;
      if (j == s->n || t->v[i].start < s->v[j].start)
        return false;
    }
  return true;
}

/* Read up to N bytes of FD at POS into BUF; return how many, fewer
   only at its end, or -1 on error.  */
static ssize_t
read_at (int fd, char *buf, idx_t n, off_t pos)
{
  idx_t got = 0;
  while (got < n)
    {
      ssize_t r = pread (fd, buf + got, n - got, pos + got);
      if (r < 0)
        {
          if (errno == EINTR)
            continue;
          return -1;
        }
      if (r == 0)
        break;
      got += r;
    }
  return got;
}

/* The first offset from START up to END where the data of SRC and DST
   differ, END if nowhere, or -1 if either can't be read.  BUF has room
   for twice RESUME_CHUNK bytes.  */
static off_t
first_difference (int src, int dst, off_t start, off_t end, char *buf)
{
  char *a = buf, *b = buf + RESUME_CHUNK;
  for (off_t pos = start; pos < end; )
    {
      idx_t n = MIN (end - pos, RESUME_CHUNK);
      ssize_t na = read_at (src, a, n, pos);
      ssize_t nb = read_at (dst, b, n, pos);
      if (na < 0 || nb < 0)
        return -1;
      idx_t same = MIN (na, nb);
      for (idx_t i = 0; i < same; i++)
        if (a[i] != b[i])
          return pos + i;
      if (same < n)
        return pos + same;
      pos += n;
    }
  return end;
}

/* Whether SRC and DST hold the same data from START up to END.  */
static bool
same_data (int src, int dst, off_t start, off_t end, char *buf)
{
  return first_difference (src, dst, start, end, buf) == end;
}

/* Whether the file system of FD shows where a file's data was lost as
   holes.  A FUSE file system that does not implement lseek, as the
   tests' own, has SEEK_DATA find all of a file to be data, so that
   data lost in a crash reads as zeros that nothing tells from the
   source's but comparing them; so does a system without SEEK_DATA,
   where the holes a copy in ranges leaves unwritten read as zeros
   too.  */
static bool
shows_holes (int fd)
{
#if ! HAVE_SEEK_HOLE
  return false;
#elif HAVE_SYS_VFS_H && HAVE_FSTATFS
  enum { FUSE_MAGIC = 0x65735546 };
  struct statfs fs;
  return ! (fstatfs (fd, &fs) == 0 && fs.f_type == FUSE_MAGIC);
#else
  return true;
#endif
}

/* Whether DST's modification time is SRC's.  */
static bool
same_mtime (struct stat const *src, struct stat const *dst)
{
  return timespec_cmp (get_stat_mtime (src), get_stat_mtime (dst)) == 0;
}

/* POS rounded up to a multiple of RESUME_UNIT.  */
static off_t
unit_ceil (off_t pos)
{
  return pos + (RESUME_UNIT - pos % RESUME_UNIT) % RESUME_UNIT;
}

/* Add to *KEPT each RESUME_UNIT of the copy DST's data, stretching as
   D says, that is the same as the source SRC's, SIZE bytes long, and
   the source's last bytes if they are.  Comparing it all, a unit the
   same as the source's is kept wherever it lies, as where no holes
   show, the units between the ranges a copy in ranges wrote read as
   zeros, not as holes.  Return false if either can't be read.  */
static bool
same_units (int src, int dst, struct spans const *d, off_t size, char *buf,
            struct spans *kept)
{
  for (idx_t i = 0; i < d->n; i++)
    {
      for (off_t pos = unit_ceil (d->v[i].start); pos < d->v[i].end; pos += RESUME_UNIT)
        {
          off_t end = MIN (pos + RESUME_UNIT, d->v[i].end);
          off_t diff = first_difference (src, dst, pos, end, buf);
          if (diff < 0)
            return false;
          if (diff == end && (end - pos == RESUME_UNIT || end == size))
            add_span (kept, pos, end);
        }
    }
  return true;
}

/* Add to *KEPT the spans of the copy DST, whose data stretches as D
   says, that hold the source SRC's data on the strength of its times,
   SIZE being the source's: each is compared at its end, where a write
   cut short would show (a block half written reads as zeros from
   where the write stopped), and at its start, which tells another
   file from the copy.  Return false if the copy is not the source's
   at all, or can't be read.  */
static bool
sampled_spans (int src, int dst, struct spans const *d, off_t size,
               char *buf, struct spans *kept)
{
  for (idx_t i = 0; i < d->n; i++)
    {
      off_t start = unit_ceil (d->v[i].start);
      off_t end = d->v[i].end;
      if (end <= start)
        continue;
      off_t diff = first_difference (src, dst, MAX (start, end - RESUME_UNIT),
                                     end, buf);
      if (diff < 0)
        return false;
      if (! (diff == end && end == size))
        end = diff - diff % RESUME_UNIT;
      if (end <= start)
        continue;
      if (!same_data (src, dst, start, MIN (end, start + RESUME_SAMPLE), buf))
        return false;
      add_span (kept, start, end);
    }
  return true;
}

/* Whether DST's bytes from START up to END are all zeros.  BUF has
   room for RESUME_CHUNK bytes.  */
static bool
zeros_to (int dst, off_t start, off_t end, char *buf)
{
  for (off_t pos = start; pos < end; )
    {
      idx_t n = MIN (end - pos, RESUME_CHUNK);
      if (read_at (dst, buf, n, pos) != n)
        return false;
      for (idx_t i = 0; i < n; i++)
        if (buf[i])
          return false;
      pos += n;
    }
  return true;
}

bool
resume_holds_only_source (int src, int dst, off_t size)
{
  struct spans d = { NULL, 0, 0 };
  bool ok = data_spans (dst, size, &d);
  char *buf = ok ? xmalloc (2 * RESUME_CHUNK) : NULL;
  for (idx_t i = 0; ok && i < d.n; i++)
    {
      off_t end = d.v[i].end;
      off_t diff = first_difference (src, dst, d.v[i].start, end, buf);
      ok = 0 <= diff && (diff == end || zeros_to (dst, diff, end, buf));
    }
  free (buf);
  free (d.v);
  return ok;
}

void
resume_decide (struct xfer_file const *src, struct xfer_file const *dst,
               struct cp_options const *x, struct resume_plan *p)
{
  *p = (struct resume_plan) { .verdict = RESUME_WHOLE };
  off_t size = src->st->st_size;
  off_t dsize = dst->st->st_size;
  if (size < dsize)
    return;
  if (size == 0)
    {
      p->verdict = RESUME_COMPLETE;
      return;
    }

  struct spans s = { NULL, 0, 0 }, d = { NULL, 0, 0 }, kept = { NULL, 0, 0 };
  char *buf = NULL;
  if (!data_spans (src->fd, size, &s) || !data_spans (dst->fd, dsize, &d))
    goto done;
  buf = xmalloc (2 * RESUME_CHUNK);

  bool timed = x->preserve_timestamps && shows_holes (dst->fd);
  if (timed && dsize == size && same_mtime (src->st, dst->st)
      && covers (&d, &s))
    {
      /* Lost data that reads as zeros, where holes do not show, is
         likelier at the end, written last.  */
      if (same_data (src->fd, dst->fd, MAX (0, size - RESUME_SAMPLE), size,
                     buf))
        {
          p->verdict = RESUME_COMPLETE;
          p->kept = size;
        }
      goto done;
    }
  if (! (timed
         ? sampled_spans (src->fd, dst->fd, &d, size, buf, &kept)
         : same_units (src->fd, dst->fd, &d, size, buf, &kept))
      || kept.n == 0)
    goto done;

  /* The rest is to be copied, but for what neither file has data in,
     where there is nothing to copy.  */
  off_t pos = 0;
  intmax_t todo = 0;
  for (idx_t i = 0; i <= kept.n; i++)
    {
      off_t end = i < kept.n ? kept.v[i].start : size;
      if (pos < end && (meets (&s, pos, end) || meets (&d, pos, end)))
        {
          spans_add (&p->todo, &p->n_todo, &p->alloc, pos, end);
          todo += end - pos;
        }
      if (i < kept.n)
        pos = kept.v[i].end;
    }
  p->kept = size - todo;
  if (p->n_todo == 0 && dsize == size)
    p->verdict = RESUME_COMPLETE;
  /* A clone shares all the data or none: a copy that must be one is
     made anew.  */
  else if (x->xfer.reflink != XFER_REFLINK_ALWAYS)
    p->verdict = RESUME_PARTIAL;
  if (p->verdict == RESUME_WHOLE)
    resume_plan_free (p);

 done:
  free (buf);
  free (s.v);
  free (d.v);
  free (kept.v);
}

/* Make DST, LEN bytes long, read as zeros from START up to END, where
   the copy will seek over the source's holes; return false if it
   can't be so, leaving the zeros to be written.  */
static bool
clear_span (int dst, off_t len, off_t start, off_t end)
{
  end = MIN (end, len);
  if (end <= start)
    return true;
#if defined FALLOC_FL_PUNCH_HOLE && defined FALLOC_FL_KEEP_SIZE
  return fallocate (dst, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                    start, end - start) == 0;
#else
  return false;
#endif
}

/* Set both SRC's and DST's offset to POS, where the engine takes up a
   part.  Return false after a diagnostic if either can't be.  */
static bool
seek_both (struct xfer_file const *src, struct xfer_file const *dst,
           off_t pos)
{
  struct xfer_file const *f = src;
  if (lseek (src->fd, pos, SEEK_SET) < 0
      || (f = dst, lseek (dst->fd, pos, SEEK_SET) < 0))
    {
      error (0, errno, _("cannot lseek %s"), quoteaf (f->name));
      return false;
    }
  return true;
}

bool
resume_start_over (struct xfer_file const *src, struct xfer_file const *dst)
{
  if (ftruncate (dst->fd, 0) != 0)
    {
      error (0, errno, _("failed to truncate %s"), quoteaf (dst->name));
      return false;
    }
  return seek_both (src, dst, 0);
}

bool
resume_fill (struct xfer_file const *src, struct xfer_file const *dst,
             struct resume_plan const *p, struct cp_options const *x,
             struct xfer_report *report)
{
  *report = (struct xfer_report) { .method = XFER_METHOD_READ };
  struct xfer_sink *sink = x->xfer.sink;
  if (sink)
    {
      sink->begin (sink);
      sink->skipped (sink, p->kept);
    }
  off_t size = src->st->st_size;
  off_t dsize = dst->st->st_size;
  bool ok = true;
  for (idx_t i = 0; ok && i < p->n_todo; i++)
    {
      struct resume_span const *t = &p->todo[i];
      struct xfer_opts opts = x->xfer;
      if (opts.sparse != XFER_SPARSE_NEVER
          && !clear_span (dst->fd, dsize, t->start, t->end))
        opts.sparse = XFER_SPARSE_NEVER;
      struct xfer_part part = { t->start, t->end - t->start,
                                t->end == size, NULL };
      ok = (seek_both (src, dst, t->start)
            && xfer_copy_part (src, dst, &opts, &part, report));
    }
  /* Where the source ends in a hole, or the copy ends in what it
     kept, nothing above has set the size.  */
  struct stat st;
  if (ok && fstat (dst->fd, &st) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (dst->name));
      ok = false;
    }
  if (ok && st.st_size != size && ftruncate (dst->fd, size) != 0)
    {
      error (0, errno, _("failed to extend %s"), quoteaf (dst->name));
      ok = false;
    }
  if (sink)
    sink->end (sink, report, ok);
  return ok && copy_resumed_checked (src, dst, report, x);
}

void
resume_plan_free (struct resume_plan *p)
{
  free (p->todo);
  p->todo = NULL;
  p->n_todo = p->alloc = 0;
}
