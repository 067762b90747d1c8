/* dd-io.c -- dd's reads and writes, cache dropping and buffers.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "human.h"
#include "dd-impl.h"

/* The kernel drops cached pages in whole pages; asking for less than
   this much at a time would only cost system calls.  */
enum { NOCACHE_CHUNK = 256 * 1024 };

/* Page cache dropping.  */

void
dd_advance_input_offset (struct dd *d, intmax_t n)
{
  if (0 <= d->input_offset
      && INT_ADD_WRAPV (d->input_offset, n, &d->input_offset))
    d->input_offset = -1;
}

bool
dd_drop_cache (struct dd *d, int fd, off_t len)
{
  bool input = fd == STDIN_FILENO;
  struct dd_nocache *nc = input ? &d->in_cache : &d->out_cache;
  off_t clen;			/* bytes to drop; 0: to end of file */
  off_t back;			/* how far before the end they start */

  if (len)
    {
      off_t total;
      if (INT_ADD_WRAPV (nc->pending, len, &total))
        total = TYPE_MAXIMUM (off_t);
      nc->pending = total % NOCACHE_CHUNK;
      clen = total - nc->pending;
      if (!clen)
        return true;
      back = total;
    }
  else if (!nc->pending && !nc->to_eof)
    return true;
  else
    {
      /* What is left stays counted as pending: a second final drop,
         as after leaving direct I/O, asks for the same bytes again.  */
      back = nc->pending;
      clen = nc->to_eof ? 0 : nc->pending;
    }

  off_t end;
  if (input)
    {
      end = d->input_seekable ? d->input_offset : -1;
      if (end < 0)
        errno = ESPIPE;
    }
  else
    {
      /* As GNU dd does, ask where the output is at the first drop
         only, and from then on add the bytes each later drop but the
         last one covers, pending bytes included though an earlier
         drop added them already.  That can place a drop past what
         was written; but a drop is only advice that costs no data,
         and the calls, which strace shows, are then GNU's.  */
      if (nc->offset == -2)
        nc->offset = lseek (fd, 0, SEEK_CUR);
      else if (0 <= nc->offset && len
               && INT_ADD_WRAPV (nc->offset, back, &nc->offset))
        nc->offset = -1;
      end = nc->offset;
    }
  if (end < 0)
    return false;

  off_t start = end - back;
  /* The kernel drops only whole pages: to drop to the end of the
     file, start at the page that holds the first byte.  */
  if (!clen)
    start -= start % d->page_size;
  return xfer_drop_cache (fd, start, clen) == 0;
}

int
dd_drop_caches_at_end (struct dd *d)
{
  int status = EXIT_SUCCESS;
  bool whole = d->s.max_records == 0 && d->s.max_bytes == 0;
  struct { struct dd_nocache const *nc; int fd; char const *name; } const
    ends[] = { { &d->in_cache, STDIN_FILENO, d->in_name },
               { &d->out_cache, STDOUT_FILENO, d->out_name } };

  for (int i = 0; i < 2; i++)
    {
      if (! (ends[i].nc->on || (!whole && ends[i].nc->to_eof)))
        continue;
      if (!dd_drop_cache (d, ends[i].fd, 0) && whole)
        {
          error (0, errno, _("failed to discard cache for: %s"),
                 quotef (ends[i].name));
          status = EXIT_FAILURE;
        }
    }
  return status;
}

/* Reading and writing.  */

/* Read up to SIZE bytes, acting on signals meanwhile, and warning
   once about a short read in the middle of the input when that can
   make counts wrong.  */
static ssize_t
iread (struct dd *d, int fd, char *buf, idx_t size)
{
  ssize_t n;
  do
    {
      dd_process_signals (d);
      if (d->in_window && fd == STDIN_FILENO)
        {
          /* A regular file read gives whole blocks; keep that across
             window boundaries, so the record counts are read's.  */
          idx_t got = 0;
          do
            n = xfer_window_read (d->in_window, buf + got, size - got);
          while (0 < n && (got += n) < size);
          /* The reader has said what went wrong, and why: the input
             shrinking under the mapping shows as EIO.  */
          if (n < 0 && got == 0)
            {
              d->read_error_told = true;
              errno = EIO;
            }
          else
            n = got;
          break;
        }
      n = read (fd, buf, size);
      /* With iflag=direct, the read after a short final block fails
         with EINVAL at the unaligned offset: that is end of file.  */
      if (n < 0 && errno == EINVAL && (d->s.iflags & O_DIRECT)
          && 0 < d->prev_nread && d->prev_nread < size)
        n = 0;
    }
  while (n < 0 && errno == EINTR);

  /* A signal may have cut the read short.  */
  if (0 < n && n < size)
    dd_process_signals (d);

  if (0 < n && d->s.warn_partial_read
      && 0 < d->prev_nread && d->prev_nread < size)
    {
      if (d->s.status != DD_STATUS_NONE)
        error (0, 0, (d->prev_nread == 1
                      ? _("warning: partial read (%td byte); "
                          "suggest iflag=fullblock")
                      : _("warning: partial read (%td bytes); "
                          "suggest iflag=fullblock")),
               (ptrdiff_t) d->prev_nread);
      d->s.warn_partial_read = false;
    }

  d->prev_nread = n;
  return n;
}

ssize_t
dd_read_block (struct dd *d, int fd, char *buf, idx_t size)
{
  if (! (d->s.iextra & DD_FLAG_FULLBLOCK))
    return iread (d, fd, buf, size);

  idx_t got = 0;
  while (got < size)
    {
      ssize_t n = iread (d, fd, buf + got, size - got);
      if (n < 0)
        return n;
      if (n == 0)
        break;
      got += n;
    }
  return got;
}

/* Direct I/O cannot write a short block at an aligned file's end:
   write it through the cache instead, and sync it, as GNU dd does.
   The flag is cleared as dd set it, as an open flag: the engine's
   switch may use another interface, or none in a build configured as
   if the system had no O_DIRECT.  */
static void
leave_direct_io (struct dd *d)
{
  int flags = fcntl (STDOUT_FILENO, F_GETFL);
  if ((flags < 0
       || fcntl (STDOUT_FILENO, F_SETFL, flags & ~O_DIRECT) != 0)
      && d->s.status != DD_STATUS_NONE)
    error (0, errno, _("failed to turn off O_DIRECT: %s"),
           quotef (d->out_name));
  d->s.oflags &= ~O_DIRECT;
  d->out_cache.to_eof = true;
  dd_drop_cache (d, STDOUT_FILENO, 0);
  d->s.conv |= DD_CONV_FSYNC;
}

/* A descriptor that reads the output: standard output itself if it
   was opened for reading too, else of= opened again; -1 if neither
   can be had.  */
static int
kept_reader (struct dd *d)
{
  if (!d->kept_fd_open)
    {
      char c;
      d->kept_fd_open = true;
      d->kept_fd = STDOUT_FILENO;
      if (pread (STDOUT_FILENO, &c, 0, 0) < 0)
        d->kept_fd = (d->s.output_file
                      ? open (d->s.output_file,
                              O_RDONLY | O_NOCTTY | O_CLOEXEC)
                      : -1);
    }
  return d->kept_fd;
}

/* The block of SIZE zeros at BUF is to be a hole at offset AT of the
   output, over bytes that may be kept there: hash those bytes instead
   of the zeros.  Return false if they cannot be read, and the zeros
   must be written for the hashes to be true.  */
static bool
hash_kept (struct dd *d, off_t at, char const *buf, idx_t size)
{
  idx_t kept = MIN (size, d->kept_end - at);
  int fd = kept_reader (d);
  if (fd < 0)
    return false;
  char *old = ximalloc (kept);
  idx_t got = 0;
  while (got < kept)
    {
      ssize_t n = pread (fd, old + got, kept - got, at + got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          free (old);
          return false;
        }
      if (n == 0)
        break;
      got += n;
    }
  /* Past the end of the file, a hole reads as zeros.  */
  memset (old + got, 0, kept - got);
  dd_hash_written (d, old, kept);
  dd_hash_written (d, buf + kept, size - kept);
  free (old);
  return true;
}

/* Seek over the block of SIZE zeros at BUF, as conv=sparse asks, and
   hash it as it will read.  Return false if it is to be written
   instead: the output cannot seek (sparse is then only advice, and
   is given up), or the bytes it keeps cannot be read for the
   hashes.  */
static bool
seek_over (struct dd *d, char const *buf, idx_t size)
{
  off_t end = lseek (STDOUT_FILENO, size, SEEK_CUR);
  if (end < 0)
    {
      d->s.conv &= ~DD_CONV_SPARSE;
      return false;
    }
  off_t at = end - size;
  if (d->kept_end <= at)
    dd_hash_written (d, buf, size);
  else if (!hash_kept (d, at, buf, size))
    {
      if (lseek (STDOUT_FILENO, at, SEEK_SET) < 0)
        error (EXIT_FAILURE, errno, _("cannot seek in %s"),
               quoteaf (d->out_name));
      return false;
    }
  d->final_op_was_seek = true;
  return true;
}

idx_t
dd_write (struct dd *d, char const *buf, idx_t size)
{
  idx_t done = 0;
  idx_t hashed = 0;

  if ((d->s.oflags & O_DIRECT) && size < d->s.obs)
    leave_direct_io (d);

  while (done < size)
    {
      ssize_t n = 0;
      dd_process_signals (d);

      d->final_op_was_seek = false;
      if ((d->s.conv & DD_CONV_SPARSE) && xfer_is_zero (buf, size)
          && seek_over (d, buf, size))
        n = hashed = size;
      if (!n)
        n = write (STDOUT_FILENO, buf + done, size - done);

      if (n < 0)
        {
          if (errno != EINTR)
            break;
        }
      else if (n == 0)
        {
          /* A device that takes nothing is full.  */
          errno = ENOSPC;
          break;
        }
      else
        done += n;
    }

  dd_hash_written (d, buf + hashed, done - hashed);
  if (d->out_cache.on && done)
    dd_drop_cache (d, STDOUT_FILENO, done);
  return done;
}

/* Buffers.  */

/* Exit because no buffer of SIZE bytes, the input buffer if INPUT,
   could be had.  */
static void
buffer_exhausted (bool input, idx_t size)
{
  char hbuf[LONGEST_HUMAN_READABLE + 1];
  char const *h = human_readable (size, hbuf,
                                  (human_autoscale | human_round_to_nearest
                                   | human_space_before_unit | human_SI
                                   | human_B | human_base_1024),
                                  1, 1);
  if (input)
    error (EXIT_FAILURE, 0, _("memory exhausted by input buffer"
                              " of size %td bytes (%s)"), size, h);
  error (EXIT_FAILURE, 0, _("memory exhausted by output buffer"
                            " of size %td bytes (%s)"), size, h);
}

/* Whether either end asked for direct I/O, whose buffers are best on
   huge pages (see xfer-size.c).  */
static bool
direct_io (struct dd const *d)
{
  return ((d->s.iflags | d->s.oflags) & O_DIRECT) != 0;
}

void
dd_alloc_ibuf (struct dd *d)
{
  if (d->ibuf)
    return;
  /* One byte more for conv=swab's carried byte.  */
  d->ibuf = xfer_buffer_alloc (d->page_size,
                               d->s.ibs + !!(d->s.conv & DD_CONV_SWAB),
                               direct_io (d));
  if (!d->ibuf)
    buffer_exhausted (true, d->s.ibs);
}

void
dd_free_buffers (struct dd *d)
{
  if (d->obuf != d->ibuf)
    xfer_buffer_free (d->obuf);
  xfer_buffer_free (d->ibuf);
  d->ibuf = d->obuf = NULL;
}

void
dd_alloc_obuf (struct dd *d)
{
  if (d->obuf)
    return;
  if (!d->s.reblock)
    {
      dd_alloc_ibuf (d);
      d->obuf = d->ibuf;
      return;
    }
  d->obuf = xfer_buffer_alloc (d->page_size, d->s.obs, direct_io (d));
  if (!d->obuf)
    {
      /* The run ends here: give the input buffer back, as its end
         would have.  */
      dd_free_buffers (d);
      buffer_exhausted (false, d->s.obs);
    }
}
