/* xfer-readback.c -- hashing a file by reading it again.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Layer 1 of the engine, beside the I/O ends (see doc/HACKING).  cp
   --verify reads each copy back to hash it, and that proves something
   only if the bytes come from storage: the pages the copy just wrote
   are still in the page cache, and reading them would only hash what
   was written, not what the disk holds.  So the read-back uses direct
   I/O, and where a file system refuses it, syncs the file and drops
   its pages before reading.  A source whose data the kernel moved
   (a clone, an offload) is hashed the same way, through the cache.  */

#include <config.h>

#include <fcntl.h>

#include "system.h"
#include "xfer-readback.h"
#include "xfer-hash.h"
#include "xfer-io.h"
#include "xfer-size.h"

/* Write FD's data to storage and drop it from the page cache, so that
   it is read from storage next.  Return false if either failed.  */
static bool
sync_and_drop (int fd)
{
  return fdatasync (fd) == 0 && xfer_drop_cache (fd, 0, 0) == 0;
}

/* Start E, on the descriptor FD of its own opened for FILE, reading
   from START, as FROM_STORAGE asks; set *HOW to how it reads.  Return
   false with errno set if FD cannot be put at START.  */
static bool
start_reading (struct xfer_end *e, int fd, struct xfer_file const *file,
               off_t start, bool from_storage, enum xfer_readback *how)
{
  struct xfer_file f = { fd, file->name, file->st, start == 0 };
  xfer_end_init (e, &f, XFER_DIRECT_IN, start);
  e->direct_quiet = true;
  *how = XFER_READBACK_CACHE;
  if (start != 0 && lseek (fd, start, SEEK_SET) != start)
    return false;
  if (!from_storage)
    return true;
  if (xfer_end_direct_on (e))
    *how = XFER_READBACK_DIRECT;
  else if (sync_and_drop (fd))
    *how = XFER_READBACK_DROPPED;
  return true;
}

/* A buffer to read through, fit for the end's direct I/O.  */
struct read_buffer
{
  char *data;
  idx_t size;
};

/* Hash the LEN bytes that E reads (all to its end if LEN < 0) with
   ALGO into HEX, through BUF, counting them in SINK if not NULL; set
   *READ to whether any byte was read.  Those of the LEN bytes past the end of the file are
   zeros: a range of a copy in ranges may end in a hole that only a
   later range gives the file the length to hold.  Return true, or
   false with errno set.  */
static bool
hash_to_end (struct xfer_end *e, struct read_buffer const *buf, off_t len,
             enum xfer_hash_algo algo, char hex[XFER_HASH_HEX_MAX],
             struct xfer_sink *sink, bool *read)
{
  idx_t size = buf->size;
  struct xfer_hash h;
  xfer_hash_init (&h, algo);
  *read = false;
  while (len != 0)
    {
      ssize_t n = xfer_end_read (e, buf->data,
                                 0 <= len && len < size ? len : size);
      if (n < 0)
        {
          int err = errno;
          xfer_hash_discard (&h);
          errno = err;
          return false;
        }
      if (n == 0)
        {
          if (0 < len)
            xfer_hash_add_zeros (&h, len);
          break;
        }
      *read = true;
      xfer_hash_add (&h, buf->data, n);
      if (sink)
        sink->read_back (sink, n);
      if (0 <= len)
        len -= n;
    }
  xfer_hash_finish (&h, hex);
  return true;
}

bool
xfer_hash_back (struct xfer_file const *file, struct xfer_hash_read const *r,
                char *hex, enum xfer_readback *how)
{
  off_t start = r->start, len = r->len;
  int algo = r->algo;
  int fd = xfer_reopen (file->fd, O_RDONLY);
  if (fd < 0)
    {
      error (0, errno, _("cannot open %s for reading"), quoteaf (file->name));
      return false;
    }
  struct xfer_end e;
  bool ok = start_reading (&e, fd, file, start, r->from_storage, how);
  idx_t align = MAX (getpagesize (), e.align);
  struct read_buffer buf;
  buf.size = (MAX (r->bufsize, align) + align - 1) / align * align;
  buf.data = xfer_buffer_alloc (align, buf.size, e.direct);
  if (!buf.data)
    xalloc_die ();

  bool read;
  ok = ok && hash_to_end (&e, &buf, len, algo, hex, r->sink, &read);
  if (ok && *how == XFER_READBACK_DIRECT && read && !e.direct_used)
    {
      /* The file system took the flag but refused the I/O, and the end
         went on through the cache: read it all again from storage.  */
      *how = sync_and_drop (fd) ? XFER_READBACK_DROPPED : XFER_READBACK_CACHE;
      e.pos = start;
      ok = (lseek (fd, start, SEEK_SET) == start
            && hash_to_end (&e, &buf, len, algo, hex, NULL, &read));
    }
  int err = errno;
  xfer_buffer_free (buf.data);
  if (!ok)
    error (0, err, _("error reading %s"), quoteaf (file->name));
  if (close (fd) != 0 && ok)
    {
      error (0, errno, _("failed to close %s"), quoteaf (file->name));
      ok = false;
    }
  return ok;
}

bool
xfer_verify_part (struct xfer_file const *src, struct xfer_file const *dst,
                  struct xfer_check const *c, char *want,
                  struct xfer_report *report)
{
  struct xfer_hash_read r = { c->start, c->len,
                              MAX (report->buffer_size, 1024 * 1024),
                              c->algo, false };
  char got[XFER_HASH_HEX_MAX];
  enum xfer_readback how;
  if (c->hash && report->hashed == XFER_HASHED_PASSING)
    xfer_hash_finish (c->hash, want);
  else
    {
      if (c->hash)
        xfer_hash_discard (c->hash);
      if (!xfer_hash_back (src, &r, want, &how))
        return false;
    }
  r.from_storage = true;
  r.sink = c->sink;
  if (!xfer_hash_back (dst, &r, got, &report->readback))
    return false;
  report->read_back = true;
  if (strcmp (want, got) != 0)
    {
      error (0, 0, _("%s differs from %s when read back"),
             quoteaf_n (0, dst->name), quoteaf_n (1, src->name));
      report->differs = true;
    }
  return true;
}
