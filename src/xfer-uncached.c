/* xfer-uncached.c -- buffered copies that leave the page cache as it was.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Direct I/O keeps a copy out of the page cache, but brings alignment
   rules and loses the kernel's read-ahead and write-behind.  Linux 6.14
   added RWF_DONTCACHE: ordinary buffered reads and writes whose pages
   are dropped as soon as they are no longer needed.  Where the kernel
   or the file system refuses it, the copy goes on with plain reads and
   writes and drops from the cache what it has copied, a window behind
   the copy, as dd's nocache flags do.  */

#include <config.h>

#include <fcntl.h>
#include <sys/uio.h>

#include "system.h"
#include "xfer.h"
#include "xfer-impl.h"

#if defined __linux__ && !defined RWF_DONTCACHE
# define RWF_DONTCACHE 0x00000080
#endif

#if HAVE_PREADV2 && HAVE_PWRITEV2 && defined RWF_DONTCACHE
# define CAN_DONTCACHE 1
#else
# define CAN_DONTCACHE 0
#endif

/* How far behind the copy the fallback drops pages.  Write-back of the
   window just written then overlaps the copying of the next, so
   waiting for it rarely stalls the copy.  */
enum { DROP_WINDOW = 8 * 1024 * 1024 };

/* Whether to try RWF_DONTCACHE.  CPDD_DONTCACHE=0 in the environment
   forces the fallback, for tests on kernels that have the flag.  */
static bool
dontcache_wanted (void)
{
  char const *v = getenv ("CPDD_DONTCACHE");
  return CAN_DONTCACHE && ! (v && STREQ (v, "0"));
}

void
xfer_uncached_start (struct xfer_ctx *c)
{
  if (!c->opts->uncached || c->uncached)
    return;
  struct xfer_file const *end[] = { c->src, c->dst };
  for (int i = 0; i < 2; i++)
    {
      int which = i == 0 ? XFER_DIRECT_IN : XFER_DIRECT_OUT;
      mode_t mode = end[i]->st->st_mode;
      /* Direct I/O bypasses the cache already; pipes and terminals
         have none.  */
      if (! (c->direct & which) && (S_ISREG (mode) || S_ISBLK (mode)))
        c->uncached |= which;
    }
  if (dontcache_wanted ())
    c->dontcache = c->dontcache_unproven = c->uncached;
  c->in_base = c->in_dropped = c->in_pos;
  c->out_base = c->out_dropped = c->out_flushed = c->out_pos;
  c->report->uncached = (! c->uncached ? XFER_UNCACHED_NO
                         : c->dontcache == c->uncached
                         ? XFER_UNCACHED_DONTCACHE : XFER_UNCACHED_DROP);
}

/* The I/O with RWF_DONTCACHE on end WHICH failed with errno ERR.  If
   that is the kernel or file system refusing the flag on the first
   try, switch that end to the fallback, warn (once per process), and
   return true: the caller retries without the flag.  */
static bool
dontcache_refused (struct xfer_ctx *c, int which, int err)
{
  static bool warned;
  if (! (c->dontcache_unproven & which)
      || ! (err == EOPNOTSUPP || err == EINVAL || err == ENOSYS))
    return false;
  if (!warned)
    {
      error (0, 0, _("warning: uncached I/O not supported for %s;"
                     " dropping copied data from the cache instead"),
             quoteaf (which == XFER_DIRECT_IN ? c->src->name : c->dst->name));
      warned = true;
    }
  c->dontcache &= ~which;
  c->dontcache_unproven &= ~which;
  c->report->uncached = XFER_UNCACHED_DROP;
  return true;
}

ssize_t
xfer_uncached_read (struct xfer_ctx *c, void *buf, idx_t size)
{
#if CAN_DONTCACHE
  while (c->dontcache & XFER_DIRECT_IN)
    {
      struct iovec iov = { .iov_base = buf, .iov_len = size };
      ssize_t n = preadv2 (c->src->fd, &iov, 1, -1, RWF_DONTCACHE);
      if (0 <= n)
        {
          c->dontcache_unproven &= ~XFER_DIRECT_IN;
          return n;
        }
      if (errno != EINTR && !dontcache_refused (c, XFER_DIRECT_IN, errno))
        return n;
    }
#endif
  return xfer_read (c->src->fd, buf, size);
}

idx_t
xfer_uncached_write (struct xfer_ctx *c, char const *buf, idx_t size)
{
  idx_t done = 0;
#if CAN_DONTCACHE
  while ((c->dontcache & XFER_DIRECT_OUT) && done < size)
    {
      struct iovec iov = { .iov_base = (char *) buf + done,
                           .iov_len = size - done };
      ssize_t n = pwritev2 (c->dst->fd, &iov, 1, -1, RWF_DONTCACHE);
      if (0 < n)
        {
          c->dontcache_unproven &= ~XFER_DIRECT_OUT;
          done += n;
        }
      else if (n == 0)
        {
          errno = ENOSPC;
          return done;
        }
      else if (errno != EINTR
               && !dontcache_refused (c, XFER_DIRECT_OUT, errno))
        return done;
    }
#endif
  return done + xfer_write (c->dst->fd, buf + done, size - done);
}

/* Drop the LEN bytes at OFF of FD from the cache.  Failure leaves them
   cached, which is not an error of the copy.  */
static void
drop (int fd, off_t off, off_t len)
{
#if HAVE_POSIX_FADVISE
  if (0 < len)
    posix_fadvise (fd, off, len, POSIX_FADV_DONTNEED);
#endif
}

/* Wait until the LEN bytes at OFF of FD are on disk (only clean pages
   can be dropped), and drop them.  */
static void
sync_and_drop (int fd, off_t off, off_t len)
{
  if (len <= 0)
    return;
#if HAVE_SYNC_FILE_RANGE
  sync_file_range (fd, off, len, (SYNC_FILE_RANGE_WAIT_BEFORE
                                  | SYNC_FILE_RANGE_WRITE
                                  | SYNC_FILE_RANGE_WAIT_AFTER));
#else
  fdatasync (fd);
#endif
  drop (fd, off, len);
}

void
xfer_uncached_drop (struct xfer_ctx *c, bool finish)
{
  int ends = c->uncached & ~c->dontcache;
  int in = c->src->fd, out = c->dst->fd;

  if (ends & XFER_DIRECT_OUT)
    {
#if HAVE_SYNC_FILE_RANGE
      /* Start writing back what is new, without waiting for it.  */
      if (c->out_flushed < c->out_pos)
        sync_file_range (out, c->out_flushed, c->out_pos - c->out_flushed,
                         SYNC_FILE_RANGE_WRITE);
#endif
      c->out_flushed = c->out_pos;
      off_t upto = finish ? c->out_pos : c->out_pos - DROP_WINDOW;
      if (finish || c->out_dropped + DROP_WINDOW <= upto)
        {
          sync_and_drop (out, c->out_dropped, upto - c->out_dropped);
          c->out_dropped = upto;
        }
    }
  if (ends & XFER_DIRECT_IN)
    {
      off_t upto = finish ? c->in_pos : c->in_pos - DROP_WINDOW;
      if (finish || c->in_dropped + DROP_WINDOW <= upto)
        {
          drop (in, c->in_dropped, upto - c->in_dropped);
          c->in_dropped = upto;
        }
    }

  /* Pages still in the kernel's per-CPU LRU batches when their window
     was dropped stay cached (measured: 85% of a 100 MiB source), so
     the whole range is dropped once more at the end.  */
  if (finish)
    {
      if (ends & XFER_DIRECT_IN)
        drop (in, c->in_base, c->in_pos - c->in_base);
      if (ends & XFER_DIRECT_OUT)
        drop (out, c->out_base, c->out_pos - c->out_base);
    }
}
