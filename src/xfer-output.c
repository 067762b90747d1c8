/* xfer-output.c -- the methods' output stage: data, holes, accounting.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The output layer, below the methods (see doc/HACKING): sparse
   output, the buffers and the one accounting call every method
   shares.  It calls the I/O ends (xfer-io.c, xfer-window.c), the utility
   layer and, through a function pointer, the sink the chooser was
   handed; never a method or the chooser.  */

#include <config.h>

#include "system.h"
#include "xfer-output.h"
#include "xfer-hash.h"
#include "xfer-io.h"
#include "xfer-size.h"
#include "xfer-window.h"

/* Zeros written where the destination cannot have holes.  */
static char const zeros[64 * 1024];

char *
xfer_new_buffer (struct xfer_ctx const *c)
{
  char *buf = xfer_buffer_alloc (MAX (getpagesize (), c->align), c->bufsize,
                                 xfer_direct_ends (c) != 0);
  if (!buf)
    xalloc_die ();
  return buf;
}

void
xfer_account (struct xfer_ctx *c, off_t n)
{
  c->report->bytes += n;
  if (c->sink)
    c->sink->bytes (c->sink, n);
}

void
xfer_account_unseen (struct xfer_ctx *c, off_t n)
{
  if (0 < n)
    c->hash_missed = true;
  xfer_account (c, n);
}

/* Add the N bytes at DATA, in window W if not NULL, just written, to
   the hash of C's data, if it has one.  Return false if W could not be
   read.  */
static bool
hash_written (struct xfer_ctx *c, char const *data, idx_t n,
              struct xfer_window *w)
{
  if (!c->hash)
    return true;
  if (w)
    return xfer_window_hash (w, data, n, c->hash);
  xfer_hash_add (c->hash, data, n);
  return true;
}

/* The same for N zeros, written or left as a hole.  */
static void
hash_zeros (struct xfer_ctx *c, off_t n)
{
  if (c->hash)
    xfer_hash_add_zeros (c->hash, n);
}

/* Write the N bytes at DATA, in window W if not NULL, to the
   destination.  Return true, or false after a diagnostic.  */
static bool
write_out (struct xfer_ctx *c, char const *data, idx_t n,
           struct xfer_window *w)
{
  idx_t done = (w ? xfer_window_put (w, &c->out, data, n)
                : xfer_end_write (&c->out, data, n));
  int err = errno;
  c->out_end = MAX (c->out_end, c->out.pos);
  xfer_account (c, done);
  if (done == n)
    return hash_written (c, data, n, w);
  if (w && err == EFAULT)
    xfer_window_read_error (w);
  else
    error (0, err, _("error writing %s"), quoteaf (c->out.name));
  return false;
}

/* Whether the N bytes at DATA, in W if not NULL, are zero.  */
static enum xfer_zeros
is_zero (char const *data, idx_t n, struct xfer_window *w)
{
  if (w)
    return xfer_window_is_zero (w, data, n);
  return xfer_is_zero (data, n) ? XFER_ZEROS_ALL : XFER_ZEROS_NO;
}

bool
xfer_output (struct xfer_ctx *c, char const *data, idx_t n,
             struct xfer_window *w)
{
  c->moved = true;
  if (!c->make_holes)
    return write_out (c, data, n, w);

  /* Look at the destination's hole units: a zero unit becomes part of
     a hole, anything else is written.  Runs of either kind are written
     or skipped in one go.  A part of a unit at either end of DATA
     counts too: skipping its zeros allocates nothing, and a unit whose
     zeros arrive in pieces (from a pipe, or at end of file) then stays
     a hole, as in GNU cp.  */
  idx_t unit = c->hole_unit;
  idx_t data_start = 0;
  idx_t k = 0;
  while (k < n)
    {
      idx_t blk = MIN (n - k, unit - (c->out.pos + k - data_start) % unit);
      enum xfer_zeros zero = is_zero (data + k, blk, w);
      if (zero == XFER_ZEROS_UNREAD)
        return false;
      if (zero == XFER_ZEROS_NO)
        {
          k += blk;
          continue;
        }
      if (data_start < k
          && !write_out (c, data + data_start, k - data_start, w))
        return false;
      idx_t z = k + blk;
      while (unit <= n - z
             && (zero = is_zero (data + z, unit, w)) == XFER_ZEROS_ALL)
        z += unit;
      if (zero == XFER_ZEROS_UNREAD || !xfer_output_hole (c, z - k))
        return false;
      k = data_start = z;
    }
  return data_start == n || write_out (c, data + data_start,
                                            n - data_start, w);
}

/* Write N zeros where the source has a hole that the destination is
   not to have.  EXTENDING says that they only give the destination
   its length, at its end: a failure then is a failure to extend it,
   as GNU cp words it, and otherwise a failed write.  */
static bool
write_zeros (struct xfer_ctx *c, off_t n, bool extending)
{
  while (0 < n)
    {
      idx_t chunk = MIN (n, (off_t) sizeof zeros);
      idx_t done = xfer_end_write (&c->out, zeros, chunk);
      int err = errno;
      c->out_end = MAX (c->out_end, c->out.pos);
      xfer_account (c, done);
      hash_zeros (c, done);
      if (done < chunk)
        {
          if (extending)
            error (0, err, _("failed to extend %s"), quoteaf (c->out.name));
          else
            error (0, err, _("%s: write failed"), quotef (c->out.name));
          return false;
        }
      n -= chunk;
    }
  return true;
}

bool
xfer_output_hole (struct xfer_ctx *c, off_t n)
{
  if (n <= 0)
    return true;
  if (!c->keep_holes)
    return write_zeros (c, n, false);

  if (lseek (c->out.fd, n, SEEK_CUR) < 0)
    {
      error (0, errno, _("cannot lseek %s"), quoteaf (c->out.name));
      return false;
    }
  c->out.pos += n;
  c->report->holes = true;
  xfer_account (c, n);
  hash_zeros (c, n);
  return true;
}

bool
xfer_output_tail (struct xfer_ctx *c, off_t n)
{
  if (c->keep_holes || n <= 0)
    return xfer_output_hole (c, n);
  return write_zeros (c, n, true);
}

bool
xfer_output_finish (struct xfer_ctx *c)
{
  if (c->out.pos <= c->out_end || !S_ISREG (c->out.st->st_mode))
    return true;
  if (ftruncate (c->out.fd, c->out.pos) != 0)
    {
      error (0, errno, _("failed to extend %s"), quoteaf (c->out.name));
      return false;
    }
  c->out_end = c->out.pos;
  return true;
}
