/* dd-copy.c -- dd's copy loop, and the blocks it writes.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "dd-impl.h"

/* Output blocks.  */

/* Write the full output block waiting in obuf, or quit.  */
static void
write_output (struct dd *d)
{
  idx_t n = dd_write (d, d->obuf, d->s.obs);
  d->w_bytes += n;
  if (n != d->s.obs)
    {
      error (0, errno, _("writing to %s"), quoteaf (d->out_name));
      if (n)
        d->w_partial++;
      dd_quit (d, EXIT_FAILURE);
    }
  d->w_full++;
  d->oc = 0;
}

static void
output_char (void *ctx, char c)
{
  struct dd *d = ctx;
  d->obuf[d->oc++] = c;
  if (d->oc == d->s.obs)
    write_output (d);
}

/* Append N bytes of BUF to the output blocks.  */
static void
copy_simple (struct dd *d, char const *buf, idx_t n)
{
  while (n)
    {
      idx_t take = MIN (n, d->s.obs - d->oc);
      memcpy (d->obuf + d->oc, buf, take);
      buf += take;
      n -= take;
      d->oc += take;
      if (d->oc == d->s.obs)
        write_output (d);
    }
}

/* Copying.  */

/* Convert the N bytes read into BUF and add them to the output.  */
static void
convert_block (struct dd *d, char *buf, idx_t n)
{
  struct dd_sink sink = { output_char, d };

  if (d->tr.needed)
    dd_translate (d->tr.table, buf, n);
  if (d->s.conv & DD_CONV_SWAB)
    buf = dd_swab (buf, &n, &d->swab_carry, &d->swab_has_carry);

  if (d->s.conv & DD_CONV_BLOCK)
    dd_block (&d->rec, buf, n, &sink);
  else if (d->s.conv & DD_CONV_UNBLOCK)
    dd_unblock (&d->rec, buf, n, &sink);
  else
    copy_simple (d, buf, n);
}

/* At end of input: flush what the conversions hold back, and write
   the last, short block.  */
static int
finish_output (struct dd *d)
{
  struct dd_sink sink = { output_char, d };

  if (d->swab_has_carry)
    {
      d->swab_has_carry = false;
      if (d->s.conv & DD_CONV_BLOCK)
        dd_block (&d->rec, &d->swab_carry, 1, &sink);
      else if (d->s.conv & DD_CONV_UNBLOCK)
        dd_unblock (&d->rec, &d->swab_carry, 1, &sink);
      else
        output_char (d, d->swab_carry);
    }
  if (d->s.conv & DD_CONV_BLOCK)
    dd_block_finish (&d->rec, &sink);
  else if (d->s.conv & DD_CONV_UNBLOCK)
    dd_unblock_finish (&d->rec, &sink);

  if (d->oc)
    {
      idx_t n = dd_write (d, d->obuf, d->oc);
      d->w_bytes += n;
      if (n)
        d->w_partial++;
      if (n != d->oc)
        {
          error (0, errno, _("error writing %s"), quoteaf (d->out_name));
          return EXIT_FAILURE;
        }
    }
  return EXIT_SUCCESS;
}

/* If the output ends in a hole, give the file its full size.  */
static int
extend_after_hole (struct dd *d)
{
  struct stat st;
  if (!d->final_op_was_seek)
    return EXIT_SUCCESS;
  if (fstat (STDOUT_FILENO, &st) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (d->out_name));
      return EXIT_FAILURE;
    }
  if (! (S_ISREG (st.st_mode) || S_TYPEISSHM (&st)))
    return EXIT_SUCCESS;
  off_t end = lseek (STDOUT_FILENO, 0, SEEK_CUR);
  if (0 <= end && st.st_size < end && ftruncate (STDOUT_FILENO, end) != 0)
    {
      error (0, errno, _("failed to truncate to %jd bytes in output file %s"),
             (intmax_t) end, quoteaf (d->out_name));
      return EXIT_FAILURE;
    }
  return EXIT_SUCCESS;
}

/* Close D's mmap reader, if any, which leaves the input's offset just
   past the data read, as read would have; set *STATUS to failure if
   that fails.  */
static void
close_window (struct dd *d, int *status)
{
  if (d->in_window && !xfer_window_close (d->in_window))
    *status = EXIT_FAILURE;
  d->in_window = NULL;
}

/* Handle a failed read.  Return -1 to stop copying, 0 to go on with
   the next read, 1 to go on with an empty block (conv=noerror,sync).  */
static int
read_failed (struct dd *d, int *status)
{
  int conv = d->s.conv;
  if ((!(conv & DD_CONV_NOERROR) || d->s.status != DD_STATUS_NONE)
      && !d->read_error_told)
    error (0, errno, _("error reading %s"), quoteaf (d->in_name));
  d->read_error_told = false;
  if (!(conv & DD_CONV_NOERROR))
    {
      *status = EXIT_FAILURE;
      return -1;
    }

  dd_print_stats (d);
  idx_t bad = d->s.ibs - d->partread;
  if (d->in_cache.on)
    dd_drop_cache (d, STDIN_FILENO, bad);
  if (!dd_skip_bad_block (d, bad))
    {
      *status = EXIT_FAILURE;
      /* Seeking failed once; do not say so for every block.  */
      d->input_seekable = false;
      d->input_seek_errno = ESPIPE;
    }
  return (conv & DD_CONV_SYNC) && !d->partread ? 1 : 0;
}

int
dd_copy (struct dd *d)
{
  struct dd_settings *s = &d->s;
  int status = EXIT_SUCCESS;
  /* conv=sync pads with spaces when making records, else with NULs.  */
  char pad = s->conv & (DD_CONV_BLOCK | DD_CONV_UNBLOCK) ? ' ' : '\0';

  if (s->skip_records || s->skip_bytes)
    dd_skip_input (d);
  if (s->seek_records || s->seek_bytes)
    dd_seek_output (d);
  if (s->max_records == 0 && s->max_bytes == 0)
    return status;

  dd_alloc_ibuf (d);
  dd_alloc_obuf (d);

  /* iflag=mmap on an input that cannot be mapped (a pipe, a device)
     reads it the ordinary way; so does iflag=direct, which asks for
     reads that bypass the page cache the map would go through.  */
  if ((s->iextra & DD_FLAG_MMAP) && ! (s->iflags & O_DIRECT))
    d->in_window = xfer_window_open (STDIN_FILENO, d->in_name, 0);

  for (;;)
    {
      dd_maybe_print_progress (d);

      intmax_t records = d->r_full + d->r_partial;
      if (records >= s->max_records + !!s->max_bytes)
        break;

      /* Zero (or blank) the block first, so that with noerror what
         was read before an error is followed by padding.  */
      if ((s->conv & DD_CONV_SYNC) && (s->conv & DD_CONV_NOERROR))
        memset (d->ibuf, pad, s->ibs);

      idx_t want = records >= s->max_records ? s->max_bytes : s->ibs;
      ssize_t nread = dd_read_block (d, STDIN_FILENO, d->ibuf, want);

      if (0 < nread)
        {
          dd_advance_input_offset (d, nread);
          if (d->in_cache.on)
            dd_drop_cache (d, STDIN_FILENO, nread);
        }
      else if (nread == 0)
        {
          d->in_cache.to_eof |= d->in_cache.on;
          d->out_cache.to_eof |= (d->out_cache.on
                                  && !(s->conv & DD_CONV_NOTRUNC));
          break;
        }
      else
        {
          int next = read_failed (d, &status);
          if (next < 0)
            break;
          if (next == 0)
            continue;
          nread = 0;
        }

      idx_t n = nread;
      if (n < s->ibs)
        {
          d->r_partial++;
          d->partread = n;
          if (s->conv & DD_CONV_SYNC)
            {
              if (!(s->conv & DD_CONV_NOERROR))
                memset (d->ibuf + n, pad, s->ibs - n);
              n = s->ibs;
            }
        }
      else
        {
          d->r_full++;
          d->partread = 0;
        }

      if (!s->reblock)
        {
          idx_t w = dd_write (d, d->ibuf, n);
          d->w_bytes += w;
          if (w != n)
            {
              error (0, errno, _("error writing %s"), quoteaf (d->out_name));
              close_window (d, &status);
              return EXIT_FAILURE;
            }
          if (n == s->ibs)
            d->w_full++;
          else
            d->w_partial++;
          continue;
        }

      convert_block (d, d->ibuf, n);
    }

  close_window (d, &status);

  if (finish_output (d) != EXIT_SUCCESS)
    return EXIT_FAILURE;
  if (extend_after_hole (d) != EXIT_SUCCESS)
    return EXIT_FAILURE;

  /* Syncing can take long: show the progress made before it.  */
  if ((s->conv & (DD_CONV_FDATASYNC | DD_CONV_FSYNC))
      && s->status == DD_STATUS_PROGRESS
      && 0 <= d->reported_w_bytes && d->reported_w_bytes < d->w_bytes)
    dd_print_transfer (d, gethrxtime ());

  return status;
}
