/* xfer-window.c -- windowed mmap input, safe against a shrinking file.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Layer 1 of the engine, beside the I/O ends (see doc/HACKING): the
   input end of the mmap method and of dd's iflag=mmap. It calls only
   the I/O ends (xfer-io.c), to write from a window, and the system.

   The input is mapped MAP_SHARED, one window at a time, and read
   sequentially.  If another process truncates the file, touching a page
   of the mapping beyond the new end raises SIGBUS.  Re-checking the
   size with fstat before each window narrows that race but cannot
   close it (the file can shrink between the check and the access), so
   every access this file makes to a mapping runs under a SIGBUS
   handler that jumps back to the access with sigsetjmp/siglongjmp and
   turns the fault into an "error reading" diagnostic.  Data written
   straight from the mapping with write() does not fault in user space:
   the kernel reports EFAULT instead, which is treated the same way.
   The handler lets any other SIGBUS kill the process as it would have
   without it.  */

#include <config.h>

#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdckdint.h>
#include <sys/mman.h>

#include "system.h"
#include "xfer-window.h"
#include "xfer-hash.h"
#include "xfer-io.h"
#include "xfer-size.h"

struct xfer_window
{
  int fd;
  char const *name;
  idx_t window;			/* bytes per mapping, a multiple of pages */
  idx_t pagesize;
  off_t pos;			/* offset of the next byte to hand out */
  off_t end;			/* stop here; -1 for end of file */
  off_t size;			/* the file's size when last checked */
  char *map;			/* the current mapping, or NULL */
  size_t map_len;
  char const *unread;		/* what xfer_window_read has not copied */
  idx_t unread_len;
  sigjmp_buf fault;		/* where a SIGBUS in the mapping returns */
  struct sigaction old_bus;	/* the action to restore */
};

/* The window being accessed by this thread, if any.  The signal
   handler has no other way to find it; a SIGBUS from a mapping goes to
   the thread that touched it, so each of cp's workers has its own.  */
static _Thread_local struct xfer_window *volatile guarded;

static void
bus_handler (int sig, siginfo_t *info, void *context)
{
  struct xfer_window *w = guarded;
  char const *addr = info->si_addr;
  if (w && w->map <= addr && addr < w->map + w->map_len)
    {
      guarded = NULL;
      siglongjmp (w->fault, 1);
    }

  /* Not ours: die of the signal, once the handler returns and the
     signal is unblocked.  */
  signal (sig, SIG_DFL);
  raise (sig);
}

void
xfer_window_read_error (struct xfer_window const *w)
{
  /* A mapping fails to read when the file shrank or its storage
     failed; either way the data is gone, which is EIO.  */
  struct stat st;
  int err = fstat (w->fd, &st) != 0 ? errno : EIO;
  error (0, err, _("error reading %s"), quoteaf (w->name));
}

/* Accesses to W's mapping are bracketed so:

     if (sigsetjmp (w->fault, 0))
       { ...the access faulted: guard_off was done by the handler's
         jump; report the error... }
     guard_on (w);
     ...access...
     guard_off ();

   sigsetjmp stands alone as the controlling expression, as C requires.
   The signal fences keep the compiler from moving the access outside
   the bracket.  */
static void
guard_on (struct xfer_window *w)
{
  guarded = w;
  atomic_signal_fence (memory_order_seq_cst);
}

static void
guard_off (void)
{
  atomic_signal_fence (memory_order_seq_cst);
  guarded = NULL;
}

/* Unmap W's current window.  */
static bool
unmap_window (struct xfer_window *w)
{
  if (!w->map)
    return true;
  int r = munmap (w->map, w->map_len);
  w->map = NULL;
  w->unread_len = 0;
  if (r != 0)
    {
      error (0, errno, _("error reading %s"), quoteaf (w->name));
      return false;
    }
  return true;
}

struct xfer_window *
xfer_window_open_range (int fd, char const *name, idx_t window, off_t len)
{
  struct stat st;
  if (fstat (fd, &st) != 0)
    return NULL;
  if (!S_ISREG (st.st_mode))
    {
      errno = ENODEV;
      return NULL;
    }
  off_t pos = lseek (fd, 0, SEEK_CUR);
  if (pos < 0)
    return NULL;

  idx_t pagesize = getpagesize ();
  if (window <= 0)
    window = XFER_MMAP_WINDOW;
  if (window % pagesize != 0)
    {
      idx_t rounded;
      window = (ckd_add (&rounded, window, pagesize - window % pagesize)
                ? window - window % pagesize : rounded);
    }

  struct xfer_window *w = xmalloc (sizeof *w);
  *w = (struct xfer_window) { .fd = fd, .name = name, .window = window,
                              .pagesize = pagesize, .pos = pos,
                              .end = len < 0 ? -1 : pos + len,
                              .size = st.st_size };

  struct sigaction act = { .sa_sigaction = bus_handler,
                           .sa_flags = SA_SIGINFO | SA_NODEFER };
  sigemptyset (&act.sa_mask);
  /* SA_NODEFER: leaving the handler by siglongjmp must not leave
     SIGBUS blocked, and sigsetjmp need not save the mask (which would
     cost a system call per access).  */
  if (sigaction (SIGBUS, &act, &w->old_bus) != 0)
    {
      int err = errno;
      free (w);
      errno = err;
      return NULL;
    }
  return w;
}

struct xfer_window *
xfer_window_open (int fd, char const *name, idx_t window)
{
  return xfer_window_open_range (fd, name, window, -1);
}

idx_t
xfer_window_size (struct xfer_window const *w)
{
  return w->window;
}

ssize_t
xfer_window_next (struct xfer_window *w, char const **data)
{
  if (!unmap_window (w))
    return -1;

  /* The file may have shrunk since the last window: that is an error,
     as a fault in the mapping would have been.  It may have grown:
     read on, as read would.  */
  struct stat st;
  if (fstat (w->fd, &st) != 0)
    {
      error (0, errno, _("error reading %s"), quoteaf (w->name));
      return -1;
    }
  off_t promised = w->end < 0 ? w->size : MIN (w->end, w->size);
  if (st.st_size < promised)
    {
      xfer_window_read_error (w);
      return -1;
    }
  w->size = st.st_size;

  off_t stop = w->end < 0 ? w->size : MIN (w->end, w->size);
  if (stop <= w->pos)
    return 0;

  off_t map_off = w->pos - w->pos % w->pagesize;
  size_t len = MIN (w->window, stop - map_off);
  void *p = mmap (NULL, len, PROT_READ, MAP_SHARED, w->fd, map_off);
  if (p == MAP_FAILED)
    {
      error (0, errno, _("error reading %s"), quoteaf (w->name));
      return -1;
    }
#if HAVE_MADVISE
  /* Only advice: read-ahead works without it, less eagerly.  */
  madvise (p, len, MADV_SEQUENTIAL);
#endif

  w->map = p;
  w->map_len = len;
  idx_t head = w->pos - map_off;
  idx_t n = len - head;
  *data = w->map + head;
  w->pos += n;
  return n;
}

ssize_t
xfer_window_read (struct xfer_window *w, void *buf, idx_t size)
{
  if (w->unread_len == 0)
    {
      char const *data;
      ssize_t n = xfer_window_next (w, &data);
      if (n <= 0)
        return n;
      w->unread = data;
      w->unread_len = n;
    }

  idx_t n = MIN (size, w->unread_len);
  if (sigsetjmp (w->fault, 0))
    {
      xfer_window_read_error (w);
      return -1;
    }
  guard_on (w);
  memcpy (buf, w->unread, n);
  guard_off ();
  w->unread += n;
  w->unread_len -= n;
  return n;
}

idx_t
xfer_window_put (struct xfer_window *w, struct xfer_end *e,
                 char const *data, idx_t n)
{
  /* write() normally reports a missing page as EFAULT, but guard the
     call too in case some kernel path faults in user space.  */
  if (sigsetjmp (w->fault, 0))
    {
      errno = EFAULT;
      return 0;
    }
  guard_on (w);
  idx_t written = xfer_end_write (e, data, n);
  int err = errno;
  guard_off ();
  errno = err;
  return written;
}

bool
xfer_window_write (struct xfer_window *w, char const *data, idx_t size,
                   int fd, char const *name)
{
  struct xfer_file file = { .fd = fd, .name = name };
  struct xfer_end out;
  xfer_end_init (&out, &file, XFER_DIRECT_OUT, -1);
  if (xfer_window_put (w, &out, data, size) == size)
    return true;
  if (errno == EFAULT)
    xfer_window_read_error (w);
  else
    error (0, errno, _("error writing %s"), quoteaf (name));
  return false;
}

enum xfer_zeros
xfer_window_is_zero (struct xfer_window *w, char const *data, idx_t size)
{
  if (sigsetjmp (w->fault, 0))
    {
      xfer_window_read_error (w);
      return XFER_ZEROS_UNREAD;
    }
  guard_on (w);
  bool zero = xfer_is_zero (data, size);
  guard_off ();
  return zero ? XFER_ZEROS_ALL : XFER_ZEROS_NO;
}

bool
xfer_window_hash (struct xfer_window *w, char const *data, idx_t size,
                  struct xfer_hash *hash)
{
  if (sigsetjmp (w->fault, 0))
    {
      xfer_window_read_error (w);
      return false;
    }
  guard_on (w);
  xfer_hash_add (hash, data, size);
  guard_off ();
  return true;
}

bool
xfer_window_close (struct xfer_window *w)
{
  bool ok = unmap_window (w);
  off_t done = w->pos - w->unread_len;
  if (lseek (w->fd, done, SEEK_SET) < 0)
    {
      error (0, errno, _("cannot seek in %s"), quoteaf (w->name));
      ok = false;
    }
  if (sigaction (SIGBUS, &w->old_bus, NULL) != 0)
    {
      error (0, errno, _("cannot restore the SIGBUS action"));
      ok = false;
    }
  free (w);
  return ok;
}

