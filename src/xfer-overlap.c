/* xfer-overlap.c -- direct I/O with reads and writes in flight together.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Direct I/O bypasses the kernel's read-ahead and write-behind, so a
   loop that reads a block and then writes it leaves the device idle
   half the time: measured here, 38% slower than a buffered copy.  This
   method keeps several aligned buffers busy so that the next blocks are
   read while earlier ones are written: with io_uring where the kernel
   allows it, and otherwise with a reader thread that fills a bounded
   ring of buffers the calling thread writes out.

   Only whole buffers go through the queue, at explicit offsets, so
   with io_uring they may complete in any order.  The block where the
   input ends, shorter than a buffer, is kept back and written last by
   the output stage, which knows how to write an unaligned tail;
   the chooser then has the plain loop copy anything the file gained
   meanwhile.

   A method, of the engine (see doc/HACKING): it calls the
   I/O ends (xfer-io.c) for their state and the reader thread's
   positional transfers, io_uring for its queue, and the output stage
   (xfer-output.c); no other method, and not the chooser.  */

#include <config.h>

#include <pthread.h>
#if HAVE_LIBURING
# include <liburing.h>
#endif

#include "system.h"
#include "xfer-method.h"
#include "xfer-output.h"
#include "xfer-io.h"
#include "xfer-size.h"

/* The bytes kept in flight, shared among the buffers.  Copying 1 GiB
   cold from ext4 to ext4 (medians of 5, GNU cp 2.79 s in the same
   run), two 8 MiB buffers took 1.65 s; eight of 2 MiB 2.01 s, four of
   4 MiB 1.89 s, two of 16 MiB 1.86 s; so the default is two 8 MiB
   buffers.  At least two are needed for any overlap; more than 16
   small ones only add system time (1 MiB buffers: 0.27 s of it,
   256 KiB: 0.8 s, 8 MiB: 0.04 to 0.09 s).  */
enum { INFLIGHT_BYTES = 16 * 1024 * 1024, MIN_DEPTH = 2, MAX_DEPTH = 16 };

/* One buffer's worth of the copy.  */
struct block
{
  char *buf;
  off_t off;			/* offset from the start of the range */
  idx_t len;			/* bytes read into BUF */
  idx_t done;			/* bytes of it written */
  bool writing;			/* its queued operation is a write */
};

struct overlap
{
  struct xfer_ctx *c;
  int in, out;			/* the descriptors */
  off_t in_base, out_base;	/* where the range starts in each file */
  off_t limit;			/* whole blocks to copy; -1: up to the end */
  idx_t bufsize;
  int depth;
  struct block *blocks;
  off_t next_read;		/* offset of the next block to read */
  off_t eof;			/* where the input ended; -1: not seen */
  struct block *tail;		/* the block where it ended, if not empty */
  off_t written_end;		/* the end of the furthest write */
  int read_err, write_err;	/* the first error of each kind, or 0 */
  off_t err_off;		/* the lowest offset an error hit */
  int refused;			/* XFER_DIRECT_* ends that refused direct I/O */
};

/* C's end WHICH (XFER_DIRECT_IN or XFER_DIRECT_OUT).  */
static struct xfer_end *
end_of (struct xfer_ctx *c, int which)
{
  return which == XFER_DIRECT_IN ? &c->in : &c->out;
}

/* The number of buffers to keep in flight with buffers of SIZE.  */
static int
choose_depth (idx_t size)
{
  idx_t depth = INFLIGHT_BYTES / size;
  return MAX (MIN_DEPTH, MIN (depth, MAX_DEPTH));
}

/* Whether io_uring may be tried.  CPDD_IO_URING=0 in the environment
   makes the copy use the reader thread, for tests and for systems
   where io_uring is allowed but misbehaves.  */
static bool
io_uring_wanted (void)
{
  char const *v = getenv ("CPDD_IO_URING");
  return ! (v && STREQ (v, "0"));
}

/* Whether no new blocks should be started.  */
static bool
stopping (struct overlap const *o)
{
  return (0 <= o->eof || o->read_err || o->write_err || o->refused
          || (0 <= o->limit && o->limit <= o->next_read));
}

/* Note the failure with errno ERR of a transfer on end WHICH at offset
   OFF of the range.  EINVAL on an end's first direct transfer is the
   file system refusing direct I/O, which the caller handles.  */
static void
note_error (struct overlap *o, int which, int err, off_t off)
{
  if (err == EINVAL && end_of (o->c, which)->direct_unproven)
    o->refused |= which;
  else if (which == XFER_DIRECT_IN ? !o->read_err : !o->write_err)
    {
      if (which == XFER_DIRECT_IN)
        o->read_err = err;
      else
        o->write_err = err;
    }
  if (o->err_off < 0 || off < o->err_off)
    o->err_off = off;
}

/* Note that end WHICH made a direct transfer.  */
static void
proven (struct overlap *o, int which)
{
  xfer_end_proven (end_of (o->c, which));
}

/* A read into B stopped short.  Whether to read on: a direct read
   stops short only at the end of the file, at an offset that is
   usually not aligned, where reading on would fail; a read through the
   cache may stop short anywhere.  Stopping early is safe: what follows
   the block is copied after it, by the plain loop.  */
static bool
more_to_read (struct overlap const *o, struct block const *b)
{
  return b->len % o->c->align == 0;
}

/* B was read to LEN bytes: a whole block, or the end of the input.  */
static void
note_read (struct overlap *o, struct block *b)
{
  proven (o, XFER_DIRECT_IN);
  if (b->len == o->bufsize)
    return;
  off_t end = b->off + b->len;
  if (o->eof < 0 || end < o->eof)
    {
      o->eof = end;
      o->tail = b->len ? b : NULL;
    }
}

/* N more bytes of B were written.  */
static void
note_written (struct overlap *o, struct block *b, idx_t n)
{
  b->done += n;
  o->written_end = MAX (o->written_end, b->off + b->done);
  proven (o, XFER_DIRECT_OUT);
  xfer_account (o->c, n);
}

/* Whether block B, read in full, is to be written: not if the input
   was found to end before it.  */
static bool
wanted (struct overlap const *o, struct block const *b)
{
  return b->len == o->bufsize && (o->eof < 0 || b->off < o->eof);
}

#if HAVE_LIBURING

/* Each block always has at most one operation queued, and the ring has
   an entry per block, so a free entry can be missing only if the
   kernel stopped taking submissions: a write error, so that the copy
   is never taken for complete.  */
static struct io_uring_sqe *
get_sqe (struct io_uring *ring, struct overlap *o, off_t off)
{
  struct io_uring_sqe *sqe = io_uring_get_sqe (ring);
  if (!sqe && 0 <= io_uring_submit (ring))
    sqe = io_uring_get_sqe (ring);
  if (!sqe)
    note_error (o, XFER_DIRECT_OUT, EBUSY, off);
  return sqe;
}

/* Queue the read of the rest of B, or the write of what of it is not
   written yet.  Return whether it was queued.  */
static bool
queue_io (struct io_uring *ring, struct overlap *o, struct block *b,
          bool write)
{
  struct io_uring_sqe *sqe = get_sqe (ring, o, b->off);
  if (!sqe)
    return false;
  b->writing = write;
  if (write)
    io_uring_prep_write (sqe, o->out, b->buf + b->done, b->len - b->done,
                         o->out_base + b->off + b->done);
  else
    io_uring_prep_read (sqe, o->in, b->buf + b->len, o->bufsize - b->len,
                        o->in_base + b->off + b->len);
  io_uring_sqe_set_data (sqe, b);
  return true;
}

/* Start reading the next block into B, unless the copy is stopping.  */
static bool
start_block (struct io_uring *ring, struct overlap *o, struct block *b)
{
  if (stopping (o))
    return false;
  b->off = o->next_read;
  b->len = b->done = 0;
  o->next_read += o->bufsize;
  return queue_io (ring, o, b, false);
}

/* Act on the completion of B's operation, with result RES.  Return
   whether B has an operation queued again.  */
static bool
completed (struct io_uring *ring, struct overlap *o, struct block *b,
           int res)
{
  if (res == -EINTR || res == -EAGAIN)
    return queue_io (ring, o, b, b->writing);

  if (b->writing)
    {
      if (res <= 0)
        {
          note_error (o, XFER_DIRECT_OUT, res == 0 ? ENOSPC : -res,
                      b->off + b->done);
          return false;
        }
      note_written (o, b, res);
      if (b->done < b->len)
        return queue_io (ring, o, b, true);
      return start_block (ring, o, b);
    }

  if (res < 0)
    {
      note_error (o, XFER_DIRECT_IN, -res, b->off + b->len);
      return false;
    }
  b->len += res;
  if (0 < res && b->len < o->bufsize && more_to_read (o, b))
    return queue_io (ring, o, b, false);
  note_read (o, b);
  return wanted (o, b) && !o->write_err && queue_io (ring, o, b, true);
}

/* Run the copy with io_uring.  Return false, having done nothing, if
   io_uring cannot be used here.  */
static bool
copy_uring (struct overlap *o)
{
  struct io_uring ring;
  if (!io_uring_wanted () || io_uring_queue_init (o->depth, &ring, 0) < 0)
    return false;
  o->c->report->queue = XFER_QUEUE_URING;

  int busy = 0;
  for (int i = 0; i < o->depth; i++)
    busy += start_block (&ring, o, &o->blocks[i]);

  while (0 < busy)
    {
      int r = io_uring_submit_and_wait (&ring, 1);
      if (r < 0 && r != -EINTR)
        {
          /* The operations in the ring are lost with it: fail the copy
             rather than guess what they did.  */
          note_error (o, XFER_DIRECT_OUT, -r, o->next_read);
          break;
        }
      struct io_uring_cqe *cqe;
      unsigned head, seen = 0;
      io_uring_for_each_cqe (&ring, head, cqe)
        {
          busy -= !completed (&ring, o, io_uring_cqe_get_data (cqe),
                              cqe->res);
          seen++;
        }
      io_uring_cq_advance (&ring, seen);
    }

  io_uring_queue_exit (&ring);
  return true;
}

#else

static bool
copy_uring (struct overlap *o _GL_UNUSED)
{
  return false;
}

#endif

/* The threaded way: the reader thread fills blocks in order and the
   calling thread writes them in order.  FILLED counts the blocks ready
   for writing, FREE those ready for reading.  */
struct ring
{
  struct overlap *o;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int filled, free;
  bool reader_done;		/* no more blocks will be filled */
  bool stop;			/* the writer gave up: stop reading */
};

/* Read block B in full, stopping early only at the end of the input.
   Return 0 or an errno value.  */
static int
fill_block (struct overlap *o, struct block *b)
{
  b->len = b->done = 0;
  while (b->len < o->bufsize)
    {
      ssize_t n = xfer_end_pread (&o->c->in, b->buf + b->len,
                                  o->bufsize - b->len,
                                  o->in_base + b->off + b->len);
      if (n < 0)
        return errno;
      if (n == 0)
        break;
      b->len += n;
      if (b->len < o->bufsize && !more_to_read (o, b))
        break;
    }
  return 0;
}

static void *
reader_main (void *arg)
{
  struct ring *r = arg;
  struct overlap *o = r->o;

  for (int i = 0; ; i = (i + 1) % o->depth)
    {
      pthread_mutex_lock (&r->lock);
      while (r->free == 0 && !r->stop)
        pthread_cond_wait (&r->changed, &r->lock);
      bool stop = r->stop || stopping (o);
      if (!stop)
        r->free--;
      pthread_mutex_unlock (&r->lock);
      if (stop)
        break;

      struct block *b = &o->blocks[i];
      b->off = o->next_read;
      int err = fill_block (o, b);

      pthread_mutex_lock (&r->lock);
      o->next_read += o->bufsize;
      if (err)
        note_error (o, XFER_DIRECT_IN, err, b->off + b->len);
      else
        note_read (o, b);
      if (wanted (o, b))
        r->filled++;
      else
        r->free++;
      pthread_cond_broadcast (&r->changed);
      pthread_mutex_unlock (&r->lock);
    }

  pthread_mutex_lock (&r->lock);
  r->reader_done = true;
  pthread_cond_broadcast (&r->changed);
  pthread_mutex_unlock (&r->lock);
  return NULL;
}

/* Write all of B at its place.  Return 0 or an errno value.  */
static int
flush_block (struct overlap *o, struct block *b)
{
  while (b->done < b->len)
    {
      ssize_t n = xfer_end_pwrite (&o->c->out, b->buf + b->done,
                                   b->len - b->done,
                                   o->out_base + b->off + b->done);
      if (n <= 0)
        return n < 0 ? errno : ENOSPC;
      note_written (o, b, n);
    }
  return 0;
}

/* Run the copy with a reader thread.  Return false, having done
   nothing, if no thread can be started.  */
static bool
copy_threaded (struct overlap *o)
{
  struct ring r = { .o = o, .free = o->depth };
  pthread_t reader;

  pthread_mutex_init (&r.lock, NULL);
  pthread_cond_init (&r.changed, NULL);
  if (pthread_create (&reader, NULL, reader_main, &r) != 0)
    {
      pthread_mutex_destroy (&r.lock);
      pthread_cond_destroy (&r.changed);
      return false;
    }
  o->c->report->queue = XFER_QUEUE_THREAD;

  for (int i = 0; ; i = (i + 1) % o->depth)
    {
      pthread_mutex_lock (&r.lock);
      while (r.filled == 0 && !r.reader_done)
        pthread_cond_wait (&r.changed, &r.lock);
      bool have = 0 < r.filled;
      pthread_mutex_unlock (&r.lock);
      if (!have)
        break;

      /* The reader fills the blocks in turn and skips none, so block I
         is the next one filled.  */
      struct block *b = &o->blocks[i];
      int err = flush_block (o, b);

      pthread_mutex_lock (&r.lock);
      if (err)
        {
          note_error (o, XFER_DIRECT_OUT, err, b->off + b->done);
          r.stop = true;
        }
      r.filled--;
      r.free++;
      pthread_cond_broadcast (&r.changed);
      pthread_mutex_unlock (&r.lock);
      if (err)
        break;
    }

  pthread_join (reader, NULL);
  pthread_mutex_destroy (&r.lock);
  pthread_cond_destroy (&r.changed);
  return true;
}

/* Whether C suits the queue: a copy that reads, direct I/O still on,
   no zero detection (the queue writes whole buffers), no hash (it
   writes in no set order) and no uncached end (whose transfers the
   plain loop makes), both files seekable at
   offsets the direct ends can use, and more than one buffer to move
   (LEN bytes, or the rest of the source if LEN < 0).  */
static bool
suits (struct xfer_ctx const *c, off_t len)
{
  if (c->method != XFER_METHOD_READ || c->make_holes || c->hash
      || !xfer_direct_ends (c) || c->in.uncached || c->out.uncached
      || c->in.pos < 0 || c->out.pos < 0)
    return false;
  if ((c->in.direct && c->in.pos % c->align != 0)
      || (c->out.direct && c->out.pos % c->align != 0))
    return false;
  struct stat const *st = c->in.st;
  off_t expected = (0 <= len ? len
                    : S_ISREG (st->st_mode) ? st->st_size - c->in.pos
                    : -1);
  return ! (0 <= expected && expected <= c->bufsize);
}

/* Put the destination at the end of what the queue copied without a
   gap, removing anything written past it (after an error, or where the
   source shrank under the copy), and the source just past it too.  */
static bool
settle (struct overlap *o, off_t good)
{
  struct xfer_ctx *c = o->c;
  if (good < o->written_end && S_ISREG (c->out.st->st_mode)
      && ftruncate (o->out, o->out_base + good) != 0)
    {
      error (0, errno, _("failed to truncate %s"), quoteaf (c->out.name));
      return false;
    }
  c->in.pos = o->in_base + good;
  c->out.pos = o->out_base + good;
  c->out_end = MAX (c->out_end, c->out.pos);
  if (lseek (o->in, c->in.pos, SEEK_SET) < 0)
    {
      error (0, errno, _("cannot lseek %s"), quoteaf (c->in.name));
      return false;
    }
  if (lseek (o->out, c->out.pos, SEEK_SET) < 0)
    {
      error (0, errno, _("cannot lseek %s"), quoteaf (c->out.name));
      return false;
    }
  return true;
}

/* After an error, the end of what was written without a gap: blocks
   are started in order, so below the lowest offset an error hit every
   block was read, and each was written unless it still holds data.  */
static off_t
gapless_end (struct overlap const *o)
{
  off_t good = o->err_off;
  for (int i = 0; i < o->depth; i++)
    {
      struct block const *b = &o->blocks[i];
      if (b->done < b->len)
        good = MIN (good, b->off + b->done);
    }
  return good;
}

/* Run the queue over C's range.  Return XFER_STEP_DONE when it is
   done, XFER_STEP_UNSUITED if it did not run (no thread, or direct I/O
   refused: nothing was written), XFER_STEP_FAILED after a diagnostic.
   When done, set *TAIL to the block the input ended in, if it is not
   empty, and leave both files positioned at its start.  */
static enum xfer_step
run_queue (struct overlap *o, struct block **tail)
{
  struct xfer_ctx *c = o->c;
  if (! (copy_uring (o) || copy_threaded (o)))
    return XFER_STEP_UNSUITED;

  if (o->refused && !o->read_err && !o->write_err && o->written_end == 0)
    {
      for (int which = XFER_DIRECT_IN; which <= XFER_DIRECT_OUT; which <<= 1)
        if (o->refused & which)
          xfer_end_refused (end_of (c, which), EINVAL);
      return XFER_STEP_UNSUITED;
    }

  if (o->read_err || o->write_err || o->refused)
    {
      settle (o, gapless_end (o));
      int in_err = (o->read_err ? o->read_err
                    : o->refused & XFER_DIRECT_IN ? EINVAL : 0);
      if (in_err)
        error (0, in_err, _("error reading %s"), quoteaf (c->in.name));
      else
        error (0, o->write_err ? o->write_err : EINVAL,
               _("error writing %s"), quoteaf (c->out.name));
      return XFER_STEP_FAILED;
    }

  *tail = o->tail;
  off_t good = (0 <= o->eof ? o->eof - (o->tail ? o->tail->len : 0)
                : o->limit);
  return settle (o, good) ? XFER_STEP_DONE : XFER_STEP_FAILED;
}

/* Copy *LEN_PTR bytes through the queue, and the block where the
   input ended through the output stage.  XFER_STEP_PART leaves in
   *LEN_PTR what the source gained since the queue saw its end, for the
   plain loop.  */
static enum xfer_step
run (struct xfer_ctx *c, off_t *len_ptr)
{
  off_t len = *len_ptr;

  if (!c->buf)
    c->buf = xfer_new_buffer (c);
  c->report->method = XFER_METHOD_READ;
  c->report->buffer_size = c->bufsize;

  struct overlap o = {
    .c = c, .in = c->in.fd, .out = c->out.fd,
    .in_base = c->in.pos, .out_base = c->out.pos,
    .limit = len < 0 ? -1 : len - len % c->bufsize,
    .bufsize = c->bufsize, .depth = choose_depth (c->bufsize),
    .eof = -1, .err_off = -1
  };
  c->report->inflight = o.depth;
  o.blocks = xcalloc (o.depth, sizeof *o.blocks);
  o.blocks[0].buf = c->buf;
  for (int i = 1; i < o.depth; i++)
    o.blocks[i].buf = xfer_new_buffer (c);

  struct block *tail = NULL;
  enum xfer_step r = run_queue (&o, &tail);
  bool refused = o.refused != 0;
  bool ok = r != XFER_STEP_FAILED;
  off_t rest = len;
  if (r == XFER_STEP_DONE)
    {
      off_t copied = c->in.pos - o.in_base;
      /* The block where the input ended goes through the output
         stage, which writes an unaligned tail correctly.  */
      if (tail)
        {
          c->moved = true;
          ok = xfer_output (c, tail->buf, tail->len, NULL);
          if (ok && lseek (o.in, tail->len, SEEK_CUR) < 0)
            {
              error (0, errno, _("cannot lseek %s"), quoteaf (c->in.name));
              ok = false;
            }
          c->in.pos += tail->len;
          copied += tail->len;
        }
      if (0 <= len)
        rest = len - copied;
    }

  for (int i = 1; i < o.depth; i++)
    xfer_buffer_free (o.blocks[i].buf);
  free (o.blocks);

  if (!ok)
    return XFER_STEP_FAILED;
  if (r == XFER_STEP_UNSUITED)
    {
      /* Without a thread, or where a file system refused direct I/O
         (switched off there now), copy as if the queue never ran.  */
      c->report->queue = XFER_QUEUE_NONE;
      c->report->inflight = 0;
      return refused ? XFER_STEP_AGAIN : XFER_STEP_UNSUITED;
    }
  c->moved = true;
  /* Whatever the source gained since its end was seen.  */
  *len_ptr = rest;
  return rest == 0 ? XFER_STEP_DONE : XFER_STEP_PART;
}

struct xfer_method_ops const xfer_overlap_method =
  { "direct-queue", suits, run };
