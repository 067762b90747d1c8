/* xfer-direct.c -- direct I/O: switching it, aligning for it.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Direct I/O is switched on the caller's open descriptors, so the
   caller's open logic does not change: O_DIRECT through fcntl on Linux
   and the BSDs, directio() on Solaris, F_NOCACHE on macOS.  Each
   transfer must then start at an aligned offset, with an aligned
   buffer and an aligned length; the engine's buffers and their sizes
   are aligned, and it switches direct I/O off on an end before any
   transfer that is not, which in practice is only the file's tail.  */

#include <config.h>

#include "system.h"
#include "xfer.h"
#include "xfer-impl.h"

#if HAVE_DIRECTIO && !HAVE_O_DIRECT
# include <sys/fcntl.h>
#endif

/* The alignment used where the system does not say.  */
enum { DEFAULT_ALIGN = 4096 };

/* Switch direct I/O on FD on or off.  Return 0, or -1 with errno.  */
static int
set_direct (int fd, bool on)
{
#if HAVE_O_DIRECT
  int flags = fcntl (fd, F_GETFL);
  if (flags < 0)
    return -1;
  int want = on ? flags | O_DIRECT : flags & ~O_DIRECT;
  return want == flags ? 0 : fcntl (fd, F_SETFL, want);
#elif HAVE_DIRECTIO
  return directio (fd, on ? DIRECTIO_ON : DIRECTIO_OFF);
#elif HAVE_F_NOCACHE
  return fcntl (fd, F_NOCACHE, on);
#else
  errno = ENOTSUP;
  return -1;
#endif
}

/* The alignment direct I/O on FD needs (a power of two), or 0 if the
   system says FD's file system cannot do direct I/O.  */
static idx_t
dio_alignment (int fd)
{
#if HAVE_STATX_DIOALIGN
  struct statx stx;
  if (statx (fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0
      && (stx.stx_mask & STATX_DIOALIGN))
    return (stx.stx_dio_offset_align == 0 ? 0
            : MAX (stx.stx_dio_mem_align, stx.stx_dio_offset_align));
#endif
  return DEFAULT_ALIGN;
}

static void
warn_unsupported (char const *name)
{
  error (0, 0, _("warning: direct I/O not supported for %s;"
                 " using the page cache"), quoteaf (name));
}

/* The file at end WHICH of C.  */
static struct xfer_file const *
end_file (struct xfer_ctx const *c, int which)
{
  return which == XFER_DIRECT_IN ? c->src : c->dst;
}

void
xfer_direct_start (struct xfer_ctx *c)
{
  int want = c->opts->direct;
  /* A mapping always goes through the page cache.  */
  if (c->method == XFER_METHOD_MMAP)
    want &= ~XFER_DIRECT_IN;

  for (int which = XFER_DIRECT_IN; which <= XFER_DIRECT_OUT; which <<= 1)
    {
      if (! (want & which) || (c->direct & which))
        continue;
      struct xfer_file const *f = end_file (c, which);
      /* On a pipe, O_DIRECT means packet mode: not what is wanted.  */
      bool can = S_ISREG (f->st->st_mode) || S_ISBLK (f->st->st_mode);
      idx_t align = can ? dio_alignment (f->fd) : 0;
      if (align == 0 || set_direct (f->fd, true) != 0)
        {
          warn_unsupported (f->name);
          continue;
        }
      c->direct |= which;
      c->direct_unproven |= which;
      c->align = MAX (c->align, align);
    }
}

void
xfer_direct_stop (struct xfer_ctx *c, int which)
{
  for (int end = XFER_DIRECT_IN; end <= XFER_DIRECT_OUT; end <<= 1)
    if (which & c->direct & end)
      {
        /* If this fails, the next unaligned transfer fails too and
           that diagnostic says why.  */
        set_direct (end_file (c, end)->fd, false);
        c->direct &= ~end;
      }
}

bool
xfer_direct_refused (struct xfer_ctx *c, int which, int err)
{
  if (! (c->direct_unproven & which) || err != EINVAL)
    return false;
  warn_unsupported (end_file (c, which)->name);
  xfer_direct_stop (c, which);
  c->direct_unproven &= ~which;
  return true;
}

/* Whether a transfer at offset POS of N bytes at ADDR suits direct
   I/O with alignment ALIGN.  */
static bool
aligned (off_t pos, idx_t n, void const *addr, idx_t align)
{
  return pos % align == 0 && n % align == 0
         && (uintptr_t) addr % align == 0;
}

ssize_t
xfer_read_in (struct xfer_ctx *c, idx_t size)
{
  if ((c->direct & XFER_DIRECT_IN)
      && !aligned (c->in_pos, size, c->buf, c->align))
    xfer_direct_stop (c, XFER_DIRECT_IN);

  for (;;)
    {
      ssize_t n = (c->uncached & XFER_DIRECT_IN
                   ? xfer_uncached_read (c, c->buf, size)
                   : xfer_read (c->src->fd, c->buf, size));
      if (n < 0 && xfer_direct_refused (c, XFER_DIRECT_IN, errno))
        continue;
      if (0 < n)
        {
          c->in_pos += n;
          if (c->direct & XFER_DIRECT_IN)
            {
              c->report->direct |= XFER_DIRECT_IN;
              c->direct_unproven &= ~XFER_DIRECT_IN;
            }
        }
      return n;
    }
}

bool
xfer_write_out (struct xfer_ctx *c, char const *data, idx_t n,
                struct xfer_window *w)
{
  if (c->direct & XFER_DIRECT_OUT)
    {
      idx_t tail = n % c->align;
      if (!aligned (c->out_pos, 0, data, c->align))
        xfer_direct_stop (c, XFER_DIRECT_OUT);
      else if (tail)
        {
          /* Write the aligned part directly, the tail through the
             page cache.  */
          if (tail < n && !xfer_write_out (c, data, n - tail, w))
            return false;
          xfer_direct_stop (c, XFER_DIRECT_OUT);
          return xfer_write_out (c, data + n - tail, tail, w);
        }
    }

  idx_t done = 0;
  while (done < n)
    {
      idx_t count = n - done;
      idx_t written = (w ? xfer_window_put (w, c->dst->fd, data + done, count)
                       : c->uncached & XFER_DIRECT_OUT
                       ? xfer_uncached_write (c, data + done, count)
                       : xfer_write (c->dst->fd, data + done, count));
      done += written;
      c->out_pos += written;
      if (written == count)
        break;
      int err = errno;
      if (done == 0 && xfer_direct_refused (c, XFER_DIRECT_OUT, err))
        continue;
      c->out_end = MAX (c->out_end, c->out_pos);
      xfer_account (c, done);
      if (w && err == EFAULT)
        xfer_window_read_error (w);
      else
        error (0, err, _("error writing %s"), quoteaf (c->dst->name));
      return false;
    }

  if (c->direct & XFER_DIRECT_OUT)
    {
      c->report->direct |= XFER_DIRECT_OUT;
      c->direct_unproven &= ~XFER_DIRECT_OUT;
    }
  c->out_end = MAX (c->out_end, c->out_pos);
  xfer_account (c, n);
  return true;
}
