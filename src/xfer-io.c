/* xfer-io.c -- the I/O ends: reading, writing, direct and uncached I/O.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Layer 1 of the engine, the I/O ends (see doc/HACKING): the only code
   that reads and writes a copy's descriptors, switches direct I/O off
   where a file system refuses it, falls back from RWF_DONTCACHE, and
   drops the cache behind a copy.  It calls only the system and the
   utility layer (xfer-size.c), never a method or the chooser;
   everything it keeps lives in the struct xfer_end.

   Direct I/O is switched on the caller's open descriptors, so the
   caller's open logic does not change: O_DIRECT through fcntl on Linux
   and the BSDs, directio() on Solaris, F_NOCACHE on macOS.  Each
   transfer must then start at an aligned offset, with an aligned
   buffer and an aligned length; the engine's buffers and their sizes
   are aligned, and an end switches direct I/O off before any transfer
   that is not, which in practice is only the file's tail.

   Direct I/O keeps a copy out of the page cache, but brings alignment
   rules and loses the kernel's read-ahead and write-behind.  Linux 6.14
   added RWF_DONTCACHE: ordinary buffered reads and writes whose pages
   are dropped as soon as they are no longer needed.  Where the kernel
   or the file system refuses it, the copy goes on with plain reads and
   writes and drops from the cache what it has copied, a window behind
   the copy, as dd's nocache flags do.  */

#include <config.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/uio.h>
#if HAVE_SYS_MMAN_H
# include <sys/mman.h>
#endif

#include "system.h"
#include "xfer-io.h"
#include "xfer-size.h"

#include "alignalloc.h"

#if HAVE_MADVISE && defined MADV_HUGEPAGE
# define CAN_ADVISE_HUGE 1
#else
# define CAN_ADVISE_HUGE 0
#endif

#if HAVE_DIRECTIO && !HAVE_O_DIRECT
# include <sys/fcntl.h>
#endif

#if defined __linux__ && !defined RWF_DONTCACHE
# define RWF_DONTCACHE 0x00000080
#endif

#if HAVE_PREADV2 && HAVE_PWRITEV2 && defined RWF_DONTCACHE
# define CAN_DONTCACHE 1
#else
# define CAN_DONTCACHE 0
#endif

/* The alignment used where the system does not say.  */
enum { DEFAULT_ALIGN = 4096 };

/* How far behind the copy the fallback drops pages.  Write-back of the
   window just written then overlaps the copying of the next, so
   waiting for it rarely stalls the copy.  */
enum { DROP_WINDOW = 8 * 1024 * 1024 };

ssize_t
xfer_read (int fd, void *buf, idx_t size)
{
  for (;;)
    {
      ssize_t n = read (fd, buf, size);
      if (! (n < 0 && errno == EINTR))
        return n;
    }
}

idx_t
xfer_write (int fd, void const *buf, idx_t size)
{
  char const *p = buf;
  idx_t done = 0;
  while (done < size)
    {
      ssize_t n = write (fd, p + done, size - done);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          break;
        }
      if (n == 0)
        {
          /* A regular file or device that accepts nothing is full.  */
          errno = ENOSPC;
          break;
        }
      done += n;
    }
  return done;
}

bool
xfer_is_zero (char const *p, idx_t n)
{
  /* Check a short head byte by byte, then compare the block with
     itself shifted by that much: equal means every byte is the same,
     i.e. zero.  memcmp is vectorised; a loop here would not be.  */
  enum { HEAD = 16 };
  idx_t head = MIN (n, HEAD);
  for (idx_t i = 0; i < head; i++)
    if (p[i])
      return false;
  return n <= HEAD || memcmp (p, p + HEAD, n - HEAD) == 0;
}

/* What the process learnt of the system it runs on, kept for the
   whole process: it holds for any file of the same kinds, and the
   command warns of a refusal once, however many files it copies and
   however many workers or ranges copy them.  CLONES are the pairs of
   file systems (source's and destination's device) on which a clone
   was refused as unsupported: a tree copy between two file systems
   that cannot share extents (ext4, tmpfs) would otherwise ask for a
   clone of every file, and be refused every time: one system call per
   file, of the 11 or so a small file needs.  */
enum { CLONE_REFUSALS_MAX = 8 };
static struct
{
  pthread_mutex_t lock;		/* guards the clones */
  struct clone_refusal { dev_t in, out; int err; } clones[CLONE_REFUSALS_MAX];
  int n_clones;
  atomic_bool dontcache_warned;	/* RWF_DONTCACHE's refusal was told */
  _Atomic idx_t huge_page;	/* see huge_page_size; -1: not read yet */
} learnt = { .lock = PTHREAD_MUTEX_INITIALIZER, .huge_page = -1 };

/* The refusal of clones from IN to OUT, or NULL.  The caller holds
   the lock.  */
static struct clone_refusal const *
clone_refusal (dev_t in, dev_t out)
{
  for (int i = 0; i < learnt.n_clones; i++)
    if (learnt.clones[i].in == in && learnt.clones[i].out == out)
      return &learnt.clones[i];
  return NULL;
}

int
xfer_clone_refusal (dev_t in, dev_t out)
{
  pthread_mutex_lock (&learnt.lock);
  struct clone_refusal const *r = clone_refusal (in, out);
  int err = r ? r->err : 0;
  pthread_mutex_unlock (&learnt.lock);
  return err;
}

void
xfer_note_clone_refusal (dev_t in, dev_t out, int err)
{
  pthread_mutex_lock (&learnt.lock);
  if (!clone_refusal (in, out) && learnt.n_clones < CLONE_REFUSALS_MAX)
    learnt.clones[learnt.n_clones++]
      = (struct clone_refusal) { in, out, err };
  pthread_mutex_unlock (&learnt.lock);
}

void
xfer_end_init (struct xfer_end *e, struct xfer_file const *file,
               int which, off_t pos)
{
  *e = (struct xfer_end) { .fd = file->fd, .name = file->name,
                           .st = file->st, .which = which, .pos = pos,
                           .align = 1 };
}

/* Direct I/O.  */

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
warn_unsupported (struct xfer_end const *e)
{
  if (!e->direct_quiet)
    error (0, 0, _("warning: direct I/O not supported for %s;"
                   " using the page cache"), quoteaf (e->name));
}

bool
xfer_end_direct_on (struct xfer_end *e)
{
  if (e->direct)
    return true;
  /* On a pipe, O_DIRECT means packet mode: not what is wanted.  */
  bool can = S_ISREG (e->st->st_mode) || S_ISBLK (e->st->st_mode);
  idx_t align = can ? dio_alignment (e->fd) : 0;
  if (align == 0 || set_direct (e->fd, true) != 0)
    {
      warn_unsupported (e);
      return false;
    }
  e->direct = e->direct_unproven = true;
  e->align = align;
  return true;
}

void
xfer_end_direct_off (struct xfer_end *e)
{
  if (e->direct)
    {
      /* If this fails, the next unaligned transfer fails too and
         that diagnostic says why.  */
      set_direct (e->fd, false);
      e->direct = false;
    }
}

bool
xfer_end_refused (struct xfer_end *e, int err)
{
  if (!e->direct_unproven || err != EINVAL)
    return false;
  warn_unsupported (e);
  xfer_end_direct_off (e);
  e->direct_unproven = false;
  return true;
}

void
xfer_end_proven (struct xfer_end *e)
{
  if (e->direct)
    {
      e->direct_unproven = false;
      e->direct_used = true;
    }
}

/* Whether a transfer at offset POS of N bytes at ADDR suits direct
   I/O with alignment ALIGN.  */
static bool
aligned (off_t pos, idx_t n, void const *addr, idx_t align)
{
  return pos % align == 0 && n % align == 0
         && (uintptr_t) addr % align == 0;
}

/* Uncached I/O.  */

/* Whether to try RWF_DONTCACHE.  CPDD_DONTCACHE=0 in the environment
   forces the fallback, for tests on kernels that have the flag.  */
static bool
dontcache_wanted (void)
{
  char const *v = getenv ("CPDD_DONTCACHE");
  return CAN_DONTCACHE && ! (v && STREQ (v, "0"));
}

void
xfer_end_uncached_on (struct xfer_end *e)
{
  mode_t mode = e->st->st_mode;
  /* Direct I/O bypasses the cache already; pipes and terminals have
     none.  */
  if (!e->uncached && !e->direct && (S_ISREG (mode) || S_ISBLK (mode)))
    {
      e->uncached = true;
      e->dontcache = e->dontcache_unproven = dontcache_wanted ();
    }
  e->base = e->dropped = e->flushed = e->pos;
}

#if CAN_DONTCACHE
/* The I/O with RWF_DONTCACHE on E failed with errno ERR.  If that is
   the kernel or file system refusing the flag on the first try, switch
   E to the fallback, warn (once per command), and return true: the
   caller retries without the flag.  */
static bool
dontcache_refused (struct xfer_end *e, int err)
{
  if (!e->dontcache_unproven
      || ! (err == EOPNOTSUPP || err == EINVAL || err == ENOSYS))
    return false;
  if (!atomic_exchange (&learnt.dontcache_warned, true))
    error (0, 0, _("warning: uncached I/O not supported for %s;"
                   " dropping copied data from the cache instead"),
           quoteaf (e->name));
  e->dontcache = e->dontcache_unproven = false;
  return true;
}
#endif

/* Read as xfer_read does, with RWF_DONTCACHE if E uses it.  */
static ssize_t
uncached_read (struct xfer_end *e, void *buf, idx_t size)
{
#if CAN_DONTCACHE
  while (e->dontcache)
    {
      struct iovec iov = { .iov_base = buf, .iov_len = size };
      ssize_t n = preadv2 (e->fd, &iov, 1, -1, RWF_DONTCACHE);
      if (0 <= n)
        {
          e->dontcache_unproven = false;
          return n;
        }
      if (errno != EINTR && !dontcache_refused (e, errno))
        return n;
    }
#endif
  return xfer_read (e->fd, buf, size);
}

/* Write as xfer_write does, with RWF_DONTCACHE if E uses it.  */
static idx_t
uncached_write (struct xfer_end *e, char const *buf, idx_t size)
{
  idx_t done = 0;
#if CAN_DONTCACHE
  while (e->dontcache && done < size)
    {
      struct iovec iov = { .iov_base = (char *) buf + done,
                           .iov_len = size - done };
      ssize_t n = pwritev2 (e->fd, &iov, 1, -1, RWF_DONTCACHE);
      if (0 < n)
        {
          e->dontcache_unproven = false;
          done += n;
        }
      else if (n == 0)
        {
          errno = ENOSPC;
          return done;
        }
      else if (errno != EINTR && !dontcache_refused (e, errno))
        return done;
    }
#endif
  return done + xfer_write (e->fd, buf + done, size - done);
}

int
xfer_reopen (int fd, int flags)
{
#ifdef __linux__
  /* The link in /proc names the open file itself, not a path that
     someone could have renamed or replaced since.  */
  char name[sizeof "/proc/self/fd/" + INT_STRLEN_BOUND (int)];
  sprintf (name, "/proc/self/fd/%d", fd);
  return open (name, flags | O_BINARY | O_CLOEXEC | O_NOCTTY);
#else
  errno = ENOTSUP;
  return -1;
#endif
}

int
xfer_drop_cache (int fd, off_t off, off_t len)
{
#if HAVE_POSIX_FADVISE
  int err = posix_fadvise (fd, off, len, POSIX_FADV_DONTNEED);
#else
  int err = ENOTSUP;
#endif
  if (!err)
    return 0;
  errno = err;
  return -1;
}

int
xfer_cached_samples (int fd, off_t size)
{
#if HAVE_MMAP && HAVE_MINCORE
  /* mincore looks without reading: a read that must not wait
     (RWF_NOWAIT) still starts the read-ahead it cannot wait for, and
     with a large read-ahead window the samples after the first then
     find what the first one asked for.  Linux answers for a file only
     to its owner or to whoever may write it; for others the pages seem
     not cached, which is as if this could not be told.  */
  if (size <= 0 || SIZE_MAX < (uintmax_t) size)
    return -1;
  void *map = mmap (NULL, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED)
    return -1;
  long page = getpagesize ();
  int hits = 0;
  for (int i = 0; i < XFER_CACHE_SAMPLES; i++)
    {
      off_t at = size / XFER_CACHE_SAMPLES * i / page * page;
      unsigned char resident;
      if (mincore ((char *) map + at, 1, (void *) &resident) != 0)
        {
          hits = -1;
          break;
        }
      hits += resident & 1;
    }
  munmap (map, size);
  return hits;
#else
  return -1;
#endif
}

/* Drop the LEN bytes at OFF of FD from the cache, if there are any.
   Failure leaves them cached, which is not an error of the copy.  */
static void
drop (int fd, off_t off, off_t len)
{
  if (0 < len)
    xfer_drop_cache (fd, off, len);
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
xfer_end_drop (struct xfer_end *e, bool finish)
{
  if (! (e->uncached && !e->dontcache))
    return;

  off_t upto = finish ? e->pos : e->pos - DROP_WINDOW;
  bool due = finish || e->dropped + DROP_WINDOW <= upto;
  if (e->which == XFER_DIRECT_OUT)
    {
#if HAVE_SYNC_FILE_RANGE
      /* Start writing back what is new, without waiting for it.  */
      if (e->flushed < e->pos)
        sync_file_range (e->fd, e->flushed, e->pos - e->flushed,
                         SYNC_FILE_RANGE_WRITE);
#endif
      e->flushed = e->pos;
      if (due)
        sync_and_drop (e->fd, e->dropped, upto - e->dropped);
    }
  else if (due)
    drop (e->fd, e->dropped, upto - e->dropped);
  if (due)
    e->dropped = upto;

  /* Pages still in the kernel's per-CPU LRU batches when their window
     was dropped stay cached (measured: 85% of a 100 MiB source), so
     the whole range is dropped once more at the end.  */
  if (finish)
    drop (e->fd, e->base, e->pos - e->base);
}

/* Transfers.  */

ssize_t
xfer_end_read (struct xfer_end *e, void *buf, idx_t size)
{
  if (e->direct && !aligned (e->pos, size, buf, e->align))
    xfer_end_direct_off (e);

  for (;;)
    {
      ssize_t n = (e->uncached
                   ? uncached_read (e, buf, size)
                   : xfer_read (e->fd, buf, size));
      if (n < 0 && xfer_end_refused (e, errno))
        continue;
      if (0 < n)
        {
          e->pos += n;
          xfer_end_proven (e);
        }
      return n;
    }
}

ssize_t
xfer_end_pread (struct xfer_end const *e, void *buf, idx_t size, off_t off)
{
  for (;;)
    {
      ssize_t n = pread (e->fd, buf, size, off);
      if (! (n < 0 && errno == EINTR))
        return n;
    }
}

ssize_t
xfer_end_pwrite (struct xfer_end const *e, void const *buf, idx_t size,
                 off_t off)
{
  for (;;)
    {
      ssize_t n = pwrite (e->fd, buf, size, off);
      if (! (n < 0 && errno == EINTR))
        return n;
    }
}

/* Write the N bytes at DATA to E as they are: the caller has switched
   direct I/O off if they are not aligned for it.  */
static idx_t
write_as_is (struct xfer_end *e, char const *data, idx_t n)
{
  idx_t done = 0;
  while (done < n)
    {
      idx_t count = n - done;
      idx_t written = (e->uncached
                       ? uncached_write (e, data + done, count)
                       : xfer_write (e->fd, data + done, count));
      done += written;
      e->pos += written;
      if (written == count)
        break;
      if (done == 0 && xfer_end_refused (e, errno))
        continue;
      return done;
    }
  xfer_end_proven (e);
  return done;
}

idx_t
xfer_end_write (struct xfer_end *e, char const *data, idx_t n)
{
  if (e->direct)
    {
      idx_t tail = n % e->align;
      if (!aligned (e->pos, 0, data, e->align))
        xfer_end_direct_off (e);
      else if (tail)
        {
          /* Write the aligned part directly, the tail through the
             page cache.  */
          idx_t head = n - tail;
          idx_t done = head ? write_as_is (e, data, head) : 0;
          if (done < head)
            return done;
          xfer_end_direct_off (e);
          return head + write_as_is (e, data + head, tail);
        }
    }
  return write_as_is (e, data, n);
}

/* The size of the huge pages that can back anonymous memory, or 0 if
   there are none or it cannot be told.  It is read once: workers of
   cp --jobs may ask at once, and each then reads the same value.  */
static idx_t
huge_page_size (void)
{
  idx_t size = atomic_load_explicit (&learnt.huge_page,
                                     memory_order_relaxed);
  if (size < 0)
    {
      size = 0;
#if CAN_ADVISE_HUGE
      FILE *f = fopen ("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
                       "re");
      if (f)
        {
          intmax_t n;
          if (fscanf (f, "%jd", &n) == 1 && 0 < n && n <= IDX_MAX
              && (n & (n - 1)) == 0)
            size = n;
          fclose (f);
        }
#endif
      atomic_store_explicit (&learnt.huge_page, size, memory_order_relaxed);
    }
  return size;
}

/* Why huge pages for direct I/O: a direct transfer is built from the
   buffer's physical pages, and a device limits how many pieces one
   request may have (254 on these VMs' virtio disks), so 8 MiB buffers
   on 4 KiB pages went to the disk as requests of 540 KiB on average,
   while GNU cp's write-back, from the page cache's large folios, sent
   3.8 MiB ones.  On 2 MiB pages the requests grew to 3.5 to 3.9 MiB and
   a cold 1 GiB cp --direct went from 2.15 to 0.80 times GNU cp's wall
   time (medians of 5), its system time from 0.17 s to 0.05 s.  Through
   the page cache the buffer's pages do not matter: a hot 8 MiB copy
   took the same time either way, so other buffers stay as they are,
   sparing the system the work of finding whole huge pages.  */
void *
xfer_buffer_alloc (idx_t alignment, idx_t size, bool direct)
{
  idx_t huge = direct ? huge_page_size () : 0;
  bool use_huge = huge && huge <= size;
  void *p = alignalloc (use_huge ? MAX (alignment, huge) : alignment, size);
#if CAN_ADVISE_HUGE
  /* Only a hint: without huge pages the copy is the same, if slower.  */
  if (p && use_huge)
    madvise (p, size, MADV_HUGEPAGE);
#endif
  return p;
}

void
xfer_buffer_free (void *buf)
{
  alignfree (buf);
}
