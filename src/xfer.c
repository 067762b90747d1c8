/* xfer.c -- the transfer engine's entry point: pick a method, run it.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Layer 3 of the engine, the chooser (see "Engine layers" in the
   manual): it sets up the copy's two I/O ends, tries a clone, walks the
   source's extents, and picks and sequences the methods, falling back
   from one to the next.  It may call every lower layer: the methods
   (xfer-impl.h), the I/O ends (xfer-io.h) and the utilities.  What the
   copy reports as it goes goes to the sink in the options, through
   its function pointers: the chooser knows nothing of what is drawn or
   counted there.  */

#include <config.h>

#include <stdckdint.h>

#include "system.h"
#include "stat-size.h"
#include "xfer.h"
#include "xfer-impl.h"
#include "xfer-io.h"

/* Whether ST is a regular file with fewer blocks than its size needs,
   i.e. probably with holes.  */
static bool
looks_sparse (struct stat const *st)
{
  return (S_ISREG (st->st_mode)
          && ST_NBLOCKS (*st) < st->st_size / ST_NBLOCKSIZE);
}

/* The method to start with.  Automatic: in-kernel offload, except
   where the options want something it cannot do: direct or uncached
   I/O (it goes through the page cache), zero detection (it never sees
   the data), or no shared extents (copy_file_range may share them, as
   on XFS, Btrfs and NFS; GNU cp avoids it for --reflink=never too).
   Uncached I/O reads too, as a mapping is the page cache.  */
static enum xfer_method
choose_method (struct xfer_ctx const *c)
{
  struct xfer_opts const *o = c->opts;
  enum xfer_method m = o->method;
  bool cache_bypass = o->direct || o->uncached;

  if (m == XFER_METHOD_AUTO)
    m = (cache_bypass || o->sparse == XFER_SPARSE_ALWAYS
         || o->reflink == XFER_REFLINK_NEVER
         ? XFER_METHOD_READ : XFER_METHOD_OFFLOAD);
  else if ((m == XFER_METHOD_OFFLOAD
            && (cache_bypass || o->sparse == XFER_SPARSE_ALWAYS))
           || (m == XFER_METHOD_MMAP && o->uncached))
    m = XFER_METHOD_READ;

  /* Only a regular file with a size can be mapped; others (pipes,
     devices, /proc files that say they are empty) are read.  */
  struct stat const *st = c->in.st;
  if (m == XFER_METHOD_MMAP && ! (S_ISREG (st->st_mode) && 0 < st->st_size))
    m = XFER_METHOD_READ;
  return m;
}

/* SIZE rounded up to a multiple of ALIGN (down, if that overflows).  */
static idx_t
round_up (idx_t size, idx_t align)
{
  idx_t up;
  if (size % align == 0)
    return size;
  return (ckd_add (&up, size, align - size % align)
          ? size - size % align : up);
}

/* The buffer (or window) size for C's method, after direct I/O set
   C->align.  Direct I/O waits for the device on every call, with no
   read-ahead or write-behind to hide it, so it gets a larger automatic
   buffer: copying 1 GiB ext4 to ext4 with --direct took 4.0 s with
   256 KiB and 1.9 to 2.6 s with anything from 1 to 16 MiB.  So does
   --uncached, whose writes each start the write-back of just what they
   wrote: with 256 KiB buffers the disk got 3,852 write requests of
   272 KiB for 1 GiB and the copy took 2.4 s; with 8 MiB, 274 requests
   of 3.8 MiB (as many as GNU cp's write-back sends) and 1.35 s.  */
static idx_t
choose_bufsize (struct xfer_ctx const *c)
{
  idx_t size = c->opts->buffer_size;
  if (!size && c->method == XFER_METHOD_MMAP)
    size = XFER_MMAP_WINDOW;
  else if (!size)
    {
      struct stat const *st = c->in.st;
      size = xfer_auto_buffer_size (st, c->out.st);
      if (xfer_direct_ends (c) || c->in.uncached || c->out.uncached)
        {
          idx_t large = XFER_LARGE_BUFFER;
          if (S_ISREG (st->st_mode) && 0 <= st->st_size
              && st->st_size < large)
            large = round_up (st->st_size + 1, size);
          size = MAX (size, large);
        }
    }
  return round_up (size, c->align);
}

/* Switch direct I/O on for the ends C->opts->direct asks for and whose
   file system supports it (an end that cannot warns); then every
   direct transfer keeps the largest alignment either end needs.  */
static void
start_direct (struct xfer_ctx *c)
{
  int want = c->opts->direct;
  /* A mapping always goes through the page cache.  */
  if (c->method == XFER_METHOD_MMAP)
    want &= ~XFER_DIRECT_IN;

  if ((want & XFER_DIRECT_IN) && xfer_end_direct_on (&c->in))
    c->align = MAX (c->align, c->in.align);
  if ((want & XFER_DIRECT_OUT) && xfer_end_direct_on (&c->out))
    c->align = MAX (c->align, c->out.align);
  c->in.align = c->out.align = c->align;
}

/* Use --uncached on the ends it applies to, if the options ask for it
   and it is not on already.  */
static void
start_uncached (struct xfer_ctx *c)
{
  if (!c->opts->uncached || c->in.uncached || c->out.uncached)
    return;
  xfer_end_uncached_on (&c->in);
  xfer_end_uncached_on (&c->out);
}

/* Start moving data with method M: direct I/O, buffer size.  */
static void
start_method (struct xfer_ctx *c, enum xfer_method m)
{
  c->method = m;
  if (m == XFER_METHOD_OFFLOAD)
    return;
  start_direct (c);
  start_uncached (c);
  c->bufsize = choose_bufsize (c);
  c->hole_unit = ST_BLKSIZE (*c->out.st);
  if (c->hole_unit % c->align != 0)
    c->hole_unit = c->align;
}

/* Move LEN bytes (all, if LEN < 0) with C's method, falling back from
   offload or mmap to the read/write loop where they cannot work, and
   from the direct I/O queue to it for what the queue leaves.  */
static bool
move (struct xfer_ctx *c, off_t len)
{
  enum xfer_step r;
  if (c->method == XFER_METHOD_OFFLOAD)
    {
      r = xfer_offload_range (c, len);
      if (r != XFER_STEP_UNSUITED)
        return r == XFER_STEP_DONE;
      start_method (c, XFER_METHOD_READ);
    }
  if (c->method == XFER_METHOD_MMAP)
    {
      r = xfer_mmap_range (c, len);
      if (r != XFER_STEP_UNSUITED)
        return r == XFER_STEP_DONE;
    }
  else if (xfer_direct_ends (c) && !c->make_holes)
    {
      /* A refusal of direct I/O switched it off on an end: queue again
         if the other still uses it.  */
      do
        r = xfer_overlap_range (c, &len);
      while (r == XFER_STEP_AGAIN);
      if (r == XFER_STEP_FAILED)
        return false;
      if (r == XFER_STEP_DONE && len == 0)
        return true;
    }
  return xfer_readloop (c, len);
}

/* Copy the source's data extents and leave holes for its holes, up to
   the size it had when the caller looked.  Return 1 when done, 0 if
   the file system cannot tell (nothing was done), -1 after a
   diagnostic.  */
static int
copy_extents (struct xfer_ctx *c)
{
#if HAVE_SEEK_HOLE
  int fd = c->in.fd;
  off_t end = c->in.st->st_size;
  off_t pos = c->in.pos;

  while (pos < end)
    {
      off_t data = lseek (fd, pos, SEEK_DATA);
      if (data < 0)
        {
          if (errno == ENXIO)
            data = end;
          else if (pos == c->in.pos && (errno == EINVAL || errno == ENOTSUP))
            {
              /* Put the offset back for the plain copy.  */
              return lseek (fd, pos, SEEK_SET) < 0 ? -1 : 0;
            }
          else
            goto fail;
        }
      data = MIN (data, end);
      if (!xfer_output_hole (c, data - pos))
        return -1;
      pos = data;
      if (end <= pos)
        break;

      off_t hole = lseek (fd, data, SEEK_HOLE);
      if (hole < 0 || lseek (fd, data, SEEK_SET) < 0)
        goto fail;
      c->in.pos = data;
      if (!move (c, MIN (hole, end) - data))
        return -1;
      pos = c->in.pos;
      if (pos < MIN (hole, end))
        break;			/* the file shrank */
    }

  c->in.pos = pos;
  if (lseek (fd, pos, SEEK_SET) < 0)
    goto fail;
  return 1;

 fail:
  error (0, errno, _("cannot lseek %s"), quoteaf (c->in.name));
  return -1;
#else
  return 0;
#endif
}

/* Try to make the destination share the source's extents, as
   C->opts->reflink asks.  Return 1 if it does, 0 to copy the data,
   -1 after a diagnostic.  */
static int
try_clone (struct xfer_ctx *c)
{
  struct xfer_report *r = c->report;
  enum xfer_reflink want = c->opts->reflink;
  if (want == XFER_REFLINK_NEVER)
    {
      r->reflink = XFER_ATTEMPT_AVOIDED;
      return 0;
    }

  /* A clone is of whole files.  */
  bool whole = (S_ISREG (c->in.st->st_mode)
                && S_ISREG (c->out.st->st_mode)
                && c->in.pos == 0 && c->out.pos == 0);
  if (whole && xfer_clone (c))
    {
      r->reflink = XFER_ATTEMPT_YES;
      r->reflinked = true;
      r->method = XFER_METHOD_OFFLOAD;
      xfer_account (c, c->in.st->st_size);
      return 1;
    }
  if (want == XFER_REFLINK_ALWAYS)
    {
      error (0, whole ? errno : EINVAL, _("failed to clone %s from %s"),
             quoteaf_n (0, c->out.name), quoteaf_n (1, c->in.name));
      return -1;
    }
  r->reflink = whole ? XFER_ATTEMPT_UNSUPPORTED : XFER_ATTEMPT_AVOIDED;
  return 0;
}

/* Copy the data of C's source, as the options ask.  */
static bool
copy_data (struct xfer_ctx *c)
{
  int cloned = try_clone (c);
  if (cloned != 0)
    return 0 < cloned;

  enum xfer_method m = choose_method (c);
  if (m != XFER_METHOD_OFFLOAD)
    c->report->offload = XFER_ATTEMPT_AVOIDED;
  start_method (c, m);

  enum xfer_sparse sparse = c->opts->sparse;
  struct stat const *st = c->in.st;
  bool sparse_src = looks_sparse (st);
  bool holes_ok = S_ISREG (c->out.st->st_mode);

  int walked = 0;
  if (sparse != XFER_SPARSE_NEVER && sparse_src && 0 <= c->in.pos)
    {
      /* With --sparse=always, zeros inside the extents become holes
         too.  */
      c->make_holes = holes_ok && sparse == XFER_SPARSE_ALWAYS;
      walked = copy_extents (c);
      if (walked < 0)
        return false;
      if (walked)
        c->report->detection |= XFER_DETECT_SEEK_HOLE;
    }

  if (!walked)
    {
      /* Without extents, a sparse-looking source's holes can still be
         found as zeros.  */
      c->make_holes = (holes_ok
                       && (sparse == XFER_SPARSE_ALWAYS
                           || (sparse == XFER_SPARSE_AUTO && sparse_src)));
      /* The kernel's copy would not show the zeros.  */
      if (c->make_holes && c->method == XFER_METHOD_OFFLOAD)
        {
          c->report->offload = XFER_ATTEMPT_AVOIDED;
          start_method (c, XFER_METHOD_READ);
        }
      if (!move (c, -1))
        return false;
    }
  if (c->make_holes)
    c->report->detection |= XFER_DETECT_ZEROS;
  return xfer_output_finish (c);
}

/* The --uncached line of C's report: the weakest way either end
   used.  */
static enum xfer_uncached
uncached_report (struct xfer_ctx const *c)
{
  if (! (c->in.uncached || c->out.uncached))
    return XFER_UNCACHED_NO;
  bool dropped = ((c->in.uncached && !c->in.dontcache)
                  || (c->out.uncached && !c->out.dontcache));
  return dropped ? XFER_UNCACHED_DROP : XFER_UNCACHED_DONTCACHE;
}

/* The offset F's data starts at.  Unseekable files (pipes) have offset
   -1: no holes, no clone.  A regular file the caller has just opened
   is at 0, which spares a system call per file.  */
static off_t
start_offset (struct xfer_file const *f)
{
  if (f->just_opened && S_ISREG (f->st->st_mode))
    return 0;
  return lseek (f->fd, 0, SEEK_CUR);
}

bool
xfer_copy (struct xfer_file const *src, struct xfer_file const *dst,
           struct xfer_opts const *opts, struct xfer_report *report)
{
  /* A command warns once that RWF_DONTCACHE is refused, however many
     files it copies and however many workers copy them.  */
  static atomic_bool dontcache_warned;

  *report = (struct xfer_report) { .method = XFER_METHOD_READ };
  struct xfer_ctx c = { .opts = opts, .sink = opts->sink,
                        .report = report, .align = 1 };

  xfer_end_init (&c.in, src, XFER_DIRECT_IN, start_offset (src),
                 &dontcache_warned);
  xfer_end_init (&c.out, dst, XFER_DIRECT_OUT, start_offset (dst),
                 &dontcache_warned);
  c.out_end = c.out.pos;

  if (c.sink)
    c.sink->begin (c.sink);
  bool ok = copy_data (&c);
  if (ok)
    {
      xfer_end_drop (&c.out, true);
      xfer_end_drop (&c.in, true);
    }

  xfer_end_direct_off (&c.in);
  xfer_end_direct_off (&c.out);
  if (c.buf)
    xfer_buffer_free (c.buf);
  report->direct = ((c.in.direct_used ? XFER_DIRECT_IN : 0)
                    | (c.out.direct_used ? XFER_DIRECT_OUT : 0));
  report->uncached = uncached_report (&c);
  if (c.sink)
    c.sink->end (c.sink, report, ok);
  return ok;
}
