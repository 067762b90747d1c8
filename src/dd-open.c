/* dd-open.c -- opening dd's files, and skip= and seek=.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "dd-impl.h"

/* Open NAME with FLAGS and MODE as file descriptor FD.  */
static bool
reopen (int fd, char const *name, int flags, mode_t mode)
{
  int nfd;
  do
    nfd = open (name, flags, mode);
  while (nfd < 0 && errno == EINTR);
  if (nfd < 0)
    return false;
  if (nfd == fd)
    return true;
  bool ok = dup2 (nfd, fd) == fd;
  int saved = errno;
  close (nfd);
  errno = saved;
  return ok;
}

/* Add the open flags FLAGS to the already open FD named NAME, checking
   the ones that only make sense at open time.  */
static void
set_fd_flags (int fd, int flags, char const *name)
{
  flags &= ~(O_NOCTTY | O_NOFOLLOW);
  if (!flags)
    return;

  int old = fcntl (fd, F_GETFL);
  bool ok = 0 <= old;
  int new = old | flags;
  if (ok && old != new && (new & O_DIRECTORY))
    {
      struct stat st;
      if (fstat (fd, &st) != 0)
        ok = false;
      else if (!S_ISDIR (st.st_mode))
        {
          errno = ENOTDIR;
          ok = false;
        }
      new &= ~O_DIRECTORY;
    }
  if (ok && old != new && fcntl (fd, F_SETFL, new) != 0)
    ok = false;
  if (!ok)
    error (EXIT_FAILURE, errno, _("setting flags for %s"), quoteaf (name));
}

void
dd_open_input (struct dd *d)
{
  if (!d->s.input_file)
    {
      d->in_name = _("standard input");
      set_fd_flags (STDIN_FILENO, d->s.iflags, d->in_name);
    }
  else
    {
      d->in_name = d->s.input_file;
      if (!reopen (STDIN_FILENO, d->in_name, O_RDONLY | d->s.iflags, 0))
        error (EXIT_FAILURE, errno, _("failed to open %s"),
               quoteaf (d->in_name));
    }

  off_t off = lseek (STDIN_FILENO, 0, SEEK_CUR);
  d->input_seekable = 0 <= off;
  d->input_offset = MAX (0, off);
  d->input_seek_errno = errno;
}

/* Note where the output, open and cut, holds data that a seek over a
   block of zeros would keep (up to d->kept_end): all of a disk,
   a file up to its size.  */
static void
note_kept_data (struct dd *d)
{
  struct stat st;
  d->kept_end = 0;
  if ((d->s.conv & DD_CONV_SPARSE) && d->s.nhashes
      && fstat (STDOUT_FILENO, &st) == 0)
    d->kept_end = (S_ISBLK (st.st_mode) ? TYPE_MAXIMUM (off_t)
                   : S_ISREG (st.st_mode) ? st.st_size : 0);
}

/* Cut the output at SIZE, where seek= starts, unless conv=notrunc.
   A file that cannot be cut where seek= starts ends dd before it
   writes, as in GNU dd 9.10: writing there would leave the old data
   after it, which the user asked to lose.  */
static void
cut_at_seek (struct dd *d, off_t size)
{
  struct dd_settings const *s = &d->s;
  if (s->seek_records && !(s->conv & DD_CONV_NOTRUNC)
      && ftruncate (STDOUT_FILENO, size) != 0)
    {
      /* Only files with a size can be cut; for others (devices) the
         failure is expected.  */
      int err = errno;
      struct stat st;
      if (fstat (STDOUT_FILENO, &st) != 0)
        error (EXIT_FAILURE, errno, _("cannot fstat %s"),
               quoteaf (d->out_name));
      if (S_ISREG (st.st_mode) || S_ISDIR (st.st_mode) || S_TYPEISSHM (&st))
        error (EXIT_FAILURE, err,
               _("failed to truncate to %jd bytes in output file %s"),
               (intmax_t) size, quoteaf (d->out_name));
    }
}

void
dd_open_output (struct dd *d)
{
  struct dd_settings const *s = &d->s;
  if (!s->output_file)
    {
      d->out_name = _("standard output");
      set_fd_flags (STDOUT_FILENO, s->oflags, d->out_name);
      note_kept_data (d);
      return;
    }

  d->out_name = s->output_file;
  int flags = (s->oflags
               | (s->conv & DD_CONV_NOCREAT ? 0 : O_CREAT)
               | (s->conv & DD_CONV_EXCL ? O_EXCL : 0)
               | (s->seek_records || (s->conv & DD_CONV_NOTRUNC)
                  ? 0 : O_TRUNC));
  mode_t mode = S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH;
  off_t size;
  if (INT_MULTIPLY_WRAPV (s->seek_records, s->obs, &size)
      || INT_ADD_WRAPV (size, s->seek_bytes, &size))
    error (EXIT_FAILURE, 0,
           _("offset too large: cannot truncate to a length of seek=%jd"
             " (%td-byte) blocks"),
           s->seek_records, (ptrdiff_t) s->obs);

  /* Read access lets seek= read over what cannot be seeked over; do
     without it if it is refused.  */
  if ((!s->seek_records
       || !reopen (STDOUT_FILENO, d->out_name, O_RDWR | flags, mode))
      && !reopen (STDOUT_FILENO, d->out_name, O_WRONLY | flags, mode))
    error (EXIT_FAILURE, errno, _("failed to open %s"),
           quoteaf (d->out_name));

  cut_at_seek (d, size);
  note_kept_data (d);
}

/* Positioning.  */

/* Move FD (input or output) forward by RECORDS blocks of BLK bytes
   and *BYTES more: by seeking if possible, else by reading.  Return
   how many whole blocks could not be passed because the data ended,
   and leave in *BYTES the bytes not passed.  */
static intmax_t
skip (struct dd *d, int fd, intmax_t records, idx_t blk, idx_t *bytes)
{
  bool input = fd == STDIN_FILENO;
  char const *name = input ? d->in_name : d->out_name;
  off_t offset;

  errno = 0;
  if (!INT_MULTIPLY_WRAPV (records, blk, &offset)
      && !INT_ADD_WRAPV (offset, *bytes, &offset)
      && 0 <= lseek (fd, offset, SEEK_CUR))
    {
      if (!input)
        {
          *bytes = 0;
          return 0;
        }
      struct stat st;
      if (fstat (STDIN_FILENO, &st) != 0)
        error (EXIT_FAILURE, errno, _("cannot fstat %s"), quoteaf (name));
      records = 0;
      /* A size of 0 may be unknown, as for files in /proc, which can
         be read all the same: only a positive size is an end.  */
      if ((S_ISREG (st.st_mode) || S_TYPEISSHM (&st)) && 0 < st.st_size
          && 0 <= d->input_offset && st.st_size - d->input_offset < offset)
        {
          /* Past end of file: say how many whole blocks are missing,
             and stand at the end.  */
          records = (offset - st.st_size) / blk;
          offset = st.st_size - d->input_offset;
        }
      dd_advance_input_offset (d, offset);
      return records;
    }

  int seek_errno = errno;

  /* A seekable file that could not be positioned there (the offset
     is past what the file or off_t can hold): reading would not help.  */
  if (0 <= lseek (fd, 0, SEEK_END))
    {
      if (!seek_errno)
        seek_errno = EOVERFLOW;
      error (0, seek_errno, (input ? _("%s: cannot skip")
                             : _("%s: cannot seek")), quotef (name));
      dd_quit (d, EXIT_FAILURE);
    }

  char *buf;
  if (input)
    {
      dd_alloc_ibuf (d);
      buf = d->ibuf;
    }
  else
    {
      dd_alloc_obuf (d);
      buf = d->obuf;
    }

  while (records || *bytes)
    {
      ssize_t n = dd_read_block (d, fd, buf, records ? blk : *bytes);
      if (n < 0)
        {
          if (input)
            {
              error (0, errno, _("error reading %s"), quoteaf (name));
              if (d->s.conv & DD_CONV_NOERROR)
                dd_print_stats (d);
            }
          else
            error (0, seek_errno, _("%s: cannot seek"), quotef (name));
          dd_quit (d, EXIT_FAILURE);
        }
      if (n == 0)
        break;
      if (input)
        dd_advance_input_offset (d, n);
      if (records)
        records--;
      else
        *bytes = 0;
    }
  return records;
}

void
dd_skip_input (struct dd *d)
{
  intmax_t want;
  bool want_overflow = (INT_MULTIPLY_WRAPV (d->s.skip_records, d->s.ibs,
                                            &want)
                        || INT_ADD_WRAPV (want, d->s.skip_bytes, &want));
  off_t start = d->input_offset;
  idx_t bytes = d->s.skip_bytes;
  intmax_t missing = skip (d, STDIN_FILENO, d->s.skip_records, d->s.ibs,
                           &bytes);

  /* Skipping past the end of the input is not an error, but say so
     unless asked to be quiet.  */
  if (d->s.status != DD_STATUS_NONE
      && (missing
          || (0 <= d->input_offset
              && (want_overflow || want != d->input_offset - start))))
    error (0, 0, _("%s: cannot skip to specified offset"),
           quotef (d->in_name));
}

void
dd_seek_output (struct dd *d)
{
  idx_t bytes = d->s.seek_bytes;
  intmax_t records = skip (d, STDOUT_FILENO, d->s.seek_records, d->s.obs,
                           &bytes);
  if (!records && !bytes)
    return;

  memset (d->obuf, 0, records ? d->s.obs : bytes);
  while (records || bytes)
    {
      idx_t size = records ? d->s.obs : bytes;
      if (dd_write (d, d->obuf, size) != size)
        {
          error (0, errno, _("writing to %s"), quoteaf (d->out_name));
          dd_quit (d, EXIT_FAILURE);
        }
      if (records)
        records--;
      else
        bytes = 0;
    }
}

bool
dd_skip_bad_block (struct dd *d, idx_t nbytes)
{
  if (!d->input_seekable)
    {
      if (d->input_seek_errno == ESPIPE)
        return true;
      errno = d->input_seek_errno;
    }
  else
    {
      dd_advance_input_offset (d, nbytes);
      if (d->input_offset < 0)
        {
          error (0, 0, _("offset overflow while reading file %s"),
                 quoteaf (d->in_name));
          return false;
        }
      off_t now = lseek (STDIN_FILENO, 0, SEEK_CUR);
      if (0 <= now)
        {
          if (now == d->input_offset)
            return true;
          off_t diff = d->input_offset - now;
          if (! (0 <= diff && diff <= nbytes)
              && d->s.status != DD_STATUS_NONE)
            error (0, 0, _("warning: invalid file offset after failed read"));
          if (0 <= lseek (STDIN_FILENO, diff, SEEK_CUR))
            return true;
          if (errno == 0)
            error (0, 0, _("cannot work around kernel bug after all"));
        }
    }
  error (0, errno, _("%s: cannot seek"), quotef (d->in_name));
  return false;
}
