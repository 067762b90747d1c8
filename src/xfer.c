/* xfer.c -- the transfer engine's entry point: pick a method, run it.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The engine's chooser (see doc/HACKING): it sets up the copy's two
   I/O ends, tries a clone, walks the source's extents, and on each
   runs the first method of its table that suits the copy, then the
   next that suits where one cannot go on.  It may call every lower
   layer: the methods (xfer-method.h), the output stage
   (xfer-output.h), the I/O ends (xfer-io.h) and the utilities.  What
   the copy reports as it goes goes to the sink in the options, through
   its function pointers: the chooser knows nothing of what is drawn or
   counted there.  */

#include <config.h>

#include <stdckdint.h>

#include "system.h"
#include "stat-size.h"
#include "xfer.h"
#include "xfer-io.h"
#include "xfer-method.h"
#include "xfer-output.h"
#include "xfer-size.h"

bool
xfer_looks_sparse (struct stat const *st)
{
  return (S_ISREG (st->st_mode)
          && ST_NBLOCKS (*st) < st->st_size / ST_NBLOCKSIZE);
}

/* The method to start with.  Automatic: in-kernel offload, except
   where the options want something it cannot do: direct or uncached
   I/O (it goes through the page cache), zero detection or a hash (it
   never sees the data), or no shared extents and no holes (copy_file_range may
   share extents, as on XFS, Btrfs and NFS, and so make holes where
   the source has them; GNU cp avoids it for --reflink=never and
   --sparse=never too).  Uncached I/O reads too, as a mapping is the
   page cache.  */
static enum xfer_method
choose_method (struct xfer_ctx const *c)
{
  struct xfer_opts const *o = c->opts;
  enum xfer_method m = o->method;
  bool cache_bypass = o->direct || o->uncached;

  if (m == XFER_METHOD_AUTO)
    m = (cache_bypass || c->make_holes || c->hash
         || o->reflink == XFER_REFLINK_NEVER
         || o->sparse == XFER_SPARSE_NEVER
         ? XFER_METHOD_READ : XFER_METHOD_OFFLOAD);
  else if ((m == XFER_METHOD_OFFLOAD && (cache_bypass || c->make_holes))
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

/* The methods that move data, in the order they are tried: the first
   that suits a copy runs, and where it turns out unable to, or leaves
   a part of the range, the next that suits takes over.  Offload and
   mmap suit only the copies that chose them, the direct I/O queue only
   a copy that reads with direct I/O, and the read/write loop any.  */
static struct xfer_method_ops const *const methods[] =
{
  &xfer_offload_method,
  &xfer_mmap_method,
  &xfer_overlap_method,
  &xfer_readloop_method
};

/* Move LEN bytes (all, if LEN < 0) with the methods that suit C.  */
static bool
move (struct xfer_ctx *c, off_t len)
{
  /* As GNU cp, --debug says what was done with data: a copy of holes
     alone neither avoids offload nor looks for zeros.  */
  if (c->offload_avoided)
    c->report->offload = XFER_ATTEMPT_AVOIDED;
  if (c->make_holes)
    c->report->detection |= XFER_DETECT_ZEROS;

  for (idx_t i = 0; i < sizeof methods / sizeof *methods; )
    {
      struct xfer_method_ops const *m = methods[i];
      if (!m->suits (c, len))
        {
          i++;
          continue;
        }
      switch (m->run (c, &len))
        {
        case XFER_STEP_DONE:
          return true;
        case XFER_STEP_FAILED:
          return false;
        case XFER_STEP_AGAIN:
          break;
        case XFER_STEP_UNSUITED:
          /* Offload chose no buffer: the methods after it need one.  */
          if (c->method == XFER_METHOD_OFFLOAD)
            start_method (c, XFER_METHOD_READ);
          i++;
          break;
        case XFER_STEP_PART:
          i++;
          break;
        }
    }
  /* The read/write loop suits any copy and ends it.  */
  abort ();
}

/* What a walk of the source's extents came to.  */
enum walk
{
  WALK_FAILED,			/* a diagnostic was given */
  WALK_DONE,			/* the span is copied */
  WALK_ALL_DATA,		/* the file system says all of it is data */
  WALK_UNKNOWN			/* it cannot say where data is */
};

#if HAVE_SEEK_HOLE
/* Put C's source at POS, where its walk ended, and return WALK_DONE;
   or return WALK_FAILED after a diagnostic.  */
static enum walk
end_walk (struct xfer_ctx *c, off_t pos)
{
  if (lseek (c->in.fd, pos, SEEK_SET) < 0)
    {
      error (0, errno, _("cannot lseek %s"), quoteaf (c->in.name));
      return WALK_FAILED;
    }
  c->in.pos = pos;
  return WALK_DONE;
}

/* The source's extents cannot be walked: put its offset back where the
   walk started, for a plain copy, and return WHY; or return
   WALK_FAILED after a diagnostic.  */
static enum walk
unwalked (struct xfer_ctx *c, enum walk why)
{
  return end_walk (c, c->in.pos) == WALK_FAILED ? WALK_FAILED : why;
}
#endif

/* Copy the source's data extents, and its holes as the options want
   them, up to END, at most the size it had when the caller looked.
   FINISH says that the copy ends at END.  Nothing is done where the
   walk says WALK_ALL_DATA or WALK_UNKNOWN.  The report says that holes were looked for as soon as
   the file system has told of one, even if the copy fails then.  */
static enum walk
copy_extents (struct xfer_ctx *c, off_t end, bool finish)
{
#if HAVE_SEEK_HOLE
  int fd = c->in.fd;
  off_t start = c->in.pos;
  off_t pos = start;

  while (pos < end)
    {
      off_t data = lseek (fd, pos, SEEK_DATA);
      if (data < 0)
        {
          if (errno == ENXIO)
            data = end;
          else if (pos == start && (errno == EINVAL || errno == ENOTSUP))
            return unwalked (c, WALK_UNKNOWN);
          else
            goto fail;
        }
      data = MIN (data, end);
      if (data == end)
        {
          c->report->detection |= XFER_DETECT_SEEK_HOLE;
          bool ok = (finish ? xfer_output_tail (c, end - pos)
                     : xfer_output_hole (c, end - pos));
          return ok ? end_walk (c, end) : WALK_FAILED;
        }
      off_t hole = lseek (fd, data, SEEK_HOLE);
      if (hole < 0)
        goto fail;
      /* A file system that knows no holes (squashfs) says that all of
         the file is data, which a sparse-looking file is not: there
         is nothing to walk.  */
      if (data == start && end <= hole)
        return unwalked (c, WALK_ALL_DATA);
      c->report->detection |= XFER_DETECT_SEEK_HOLE;
      if (!xfer_output_hole (c, data - pos))
        return WALK_FAILED;
      pos = data;
      if (lseek (fd, data, SEEK_SET) < 0)
        goto fail;
      c->in.pos = data;
      if (!move (c, MIN (hole, end) - data))
        return WALK_FAILED;
      pos = c->in.pos;
      if (pos < MIN (hole, end))
        break;			/* the file shrank */
    }
  return end_walk (c, pos);

 fail:
  error (0, errno, _("cannot lseek %s"), quoteaf (c->in.name));
  return WALK_FAILED;
#else
  return WALK_UNKNOWN;
#endif
}

/* Clone C's source if the options ask for it.  XFER_STEP_DONE: the
   destination shares its extents; XFER_STEP_UNSUITED: copy the data;
   XFER_STEP_FAILED: a diagnostic was printed.  */
static enum xfer_step
try_clone (struct xfer_ctx *c)
{
  off_t len = -1;
  if (xfer_clone_method.suits (c, len))
    return xfer_clone_method.run (c, &len);
  c->report->reflink = XFER_ATTEMPT_AVOIDED;
  return XFER_STEP_UNSUITED;
}

/* Make the holes C's destination may have of the zeros its data
   holds, reading it for that instead of offloading.  */
static void
look_for_zeros (struct xfer_ctx *c)
{
  if (!c->keep_holes || c->make_holes)
    return;
  c->make_holes = true;
  if (c->method == XFER_METHOD_OFFLOAD)
    {
      c->offload_avoided = true;
      start_method (c, XFER_METHOD_READ);
    }
}

/* Copy LEN bytes of C's source from its offset (up to its end if
   LEN < 0) with the method chosen, as the options ask for holes.
   FINISH says that the destination ends where this copy does, so it
   must get its full length even if it ends in a hole.  */
static bool
copy_span (struct xfer_ctx *c, off_t len, bool finish)
{
  /* A file that is not regular has no holes: zeros are written.  */
  enum xfer_sparse sparse = c->opts->sparse;
  bool holes_ok = S_ISREG (c->out.st->st_mode);
  c->keep_holes = holes_ok && sparse != XFER_SPARSE_NEVER;
  c->make_holes = holes_ok && sparse == XFER_SPARSE_ALWAYS;

  enum xfer_method m = choose_method (c);
  /* copy_file_range may share the source's extents (XFS, Btrfs, NFS),
     a clone by another name: where the options forbid clones or
     holes, an offload asked for moves the data with sendfile alone.  */
  bool no_sharing = (c->opts->reflink == XFER_REFLINK_NEVER
                     || c->opts->sparse == XFER_SPARSE_NEVER);
  if (m == XFER_METHOD_OFFLOAD && no_sharing)
    c->sending = true;
  c->offload_avoided = m != XFER_METHOD_OFFLOAD || no_sharing;
  start_method (c, m);

  /* The source's holes are found with SEEK_DATA whatever --sparse
     says, so that even --sparse=never need not read them.  A file
     that looks sparse but whose file system knows no holes is copied
     as it is, with holes made of its zeros only if --sparse=always
     asks; one whose file system cannot say where its data is, as GNU
     cp does, has holes made of its zeros unless --sparse=never.  */
  struct stat const *st = c->in.st;
  enum walk walked = WALK_ALL_DATA;
  if (xfer_looks_sparse (st) && 0 <= c->in.pos)
    {
      off_t end = st->st_size;
      if (0 <= len && c->in.pos + len < end)
        end = c->in.pos + len;
      walked = copy_extents (c, end, finish);
      if (walked == WALK_FAILED)
        return false;
      if (walked == WALK_UNKNOWN)
        look_for_zeros (c);
    }
  if (walked != WALK_DONE && !move (c, len))
    return false;
  return !finish || xfer_output_finish (c);
}

/* Copy the data of C's source, LEN bytes or to its end if LEN is
   negative, as the options ask.  */
static bool
copy_data (struct xfer_ctx *c, off_t len)
{
  enum xfer_step cloned = try_clone (c);
  if (cloned != XFER_STEP_UNSUITED)
    return cloned == XFER_STEP_DONE;
  return copy_span (c, len, true);
}

/* How much of SRC, at offset POS, a copy of it all has to move: its
   size if that is known to be where its data ends, and then nothing
   is read past it, nor anything at all of an empty file; else -1, to
   read to the end.  A file that grows meanwhile is copied as it was
   when looked at, as when it grows just after the copy.  Not with
   direct I/O, whose last transfer goes past the end in whole
   blocks.  */
static off_t
whole_length (struct xfer_file const *src, off_t pos,
              struct xfer_opts const *opts)
{
  return (src->size_true && pos == 0 && S_ISREG (src->st->st_mode)
          && !opts->direct
          ? src->st->st_size : -1);
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

/* Release what C's copy holds, and complete its report.  OK says
   whether the copy succeeded.  */
static void
end_copy (struct xfer_ctx *c, bool ok)
{
  if (ok)
    {
      xfer_end_drop (&c->out, true);
      xfer_end_drop (&c->in, true);
    }
  xfer_end_direct_off (&c->in);
  xfer_end_direct_off (&c->out);
  if (c->buf)
    xfer_buffer_free (c->buf);
  c->report->direct = ((c->in.direct_used ? XFER_DIRECT_IN : 0)
                       | (c->out.direct_used ? XFER_DIRECT_OUT : 0));
  c->report->uncached = uncached_report (c);
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

void
xfer_start_end (struct xfer_end *e, struct xfer_file const *f, int which,
                off_t pos)
{
  xfer_end_init (e, f, which, pos);
}

/* Set C up for a copy with OPTS, reporting to REPORT.  */
static void
start_copy (struct xfer_ctx *c, struct xfer_opts const *opts,
            struct xfer_report *report)
{
  *c = (struct xfer_ctx) { .opts = opts, .sink = opts->sink,
                           .report = report, .align = 1 };
}

/* Set C's ends up: SRC at offset IN_POS, DST at OUT_POS.  */
static void
start_ends (struct xfer_ctx *c, struct xfer_file const *src, off_t in_pos,
            struct xfer_file const *dst, off_t out_pos)
{
  xfer_start_end (&c->in, src, XFER_DIRECT_IN, in_pos);
  xfer_start_end (&c->out, dst, XFER_DIRECT_OUT, out_pos);
  c->out_end = out_pos;
}

bool
xfer_copy_hashed (struct xfer_file const *src, struct xfer_file const *dst,
                  struct xfer_opts const *opts, struct xfer_report *report,
                  struct xfer_hash *hash)
{
  *report = (struct xfer_report) { .method = XFER_METHOD_READ };
  off_t in_pos = start_offset (src);
  off_t out_pos = start_offset (dst);
  struct xfer_ctx c;
  start_copy (&c, opts, report);
  start_ends (&c, src, in_pos, dst, out_pos);
  c.hash = hash;

  if (c.sink)
    c.sink->begin (c.sink);
  bool ok = copy_data (&c, whole_length (src, in_pos, opts));
  end_copy (&c, ok);
  if (hash)
    report->hashed = (c.hash_missed
                      ? XFER_HASHED_MISSED : XFER_HASHED_PASSING);
  if (c.sink)
    c.sink->end (c.sink, report, ok);
  return ok;
}

bool
xfer_copy (struct xfer_file const *src, struct xfer_file const *dst,
           struct xfer_opts const *opts, struct xfer_report *report)
{
  return xfer_copy_hashed (src, dst, opts, report, NULL);
}

enum xfer_step
xfer_clone_file (struct xfer_file const *src, struct xfer_file const *dst,
                 struct xfer_opts const *opts, struct xfer_report *report)
{
  struct xfer_ctx c;
  start_copy (&c, opts, report);
  start_ends (&c, src, 0, dst, 0);
  return try_clone (&c);
}

bool
xfer_copy_part (struct xfer_file const *src, struct xfer_file const *dst,
                struct xfer_opts const *opts, struct xfer_part const *part,
                struct xfer_report *report)
{
  struct xfer_ctx c;
  start_copy (&c, opts, report);
  start_ends (&c, src, part->start, dst, part->start);
  c.hash = part->hash;
  bool ok = copy_span (&c, part->len, part->finish);
  end_copy (&c, ok);
  if (part->hash)
    report->hashed = (c.hash_missed
                      ? XFER_HASHED_MISSED : XFER_HASHED_PASSING);
  return ok;
}
