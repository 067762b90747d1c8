/* copy-hash.c -- cp's --print-hash, --hash-file, --verify and --fsync.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* A regular file's data is hashed as the engine moves it; where the
   kernel moved it instead (a clone, an offload asked for), the source
   is read to hash it.  --verify then reads the copy back from storage
   and compares; --print-hash prints a line that the checksum programs
   check the copy with.  */

#include <config.h>

#include "system.h"
#include "copy-impl.h"
#include "xfer-hash.h"

/* Source reads go in pieces of at least this size.  */
enum { HASH_READ_SIZE = 1024 * 1024 };

/* The digest of IN's data with X's algorithm into HEX: H's, which saw
   the data as it was copied if REPORT says so, else one from reading
   IN again.  H is finished or discarded.  */
static bool
source_digest (struct xfer_hash *h, struct xfer_file const *in,
               struct xfer_report const *report, char *hex,
               struct cp_options const *x)
{
  if (report->hashed == XFER_HASHED_PASSING)
    {
      xfer_hash_finish (h, hex);
      return true;
    }
  xfer_hash_discard (h);
  enum xfer_readback how;
  return xfer_hash_back (in, false, 0, -1,
                         MAX (report->buffer_size, HASH_READ_SIZE),
                         x->hash_algo, hex, &how);
}

/* Sync OUT's data to storage, as --fsync asks, if it is a file or a
   disk; a terminal or a pipe has nothing to sync.  */
static bool
sync_data (struct xfer_file const *out)
{
  mode_t mode = out->st->st_mode;
  if (! (S_ISREG (mode) || S_ISBLK (mode)) || fdatasync (out->fd) == 0)
    return true;
  error (0, errno, _("fdatasync failed for %s"), quoteaf (out->name));
  return false;
}

/* Read all of OUT back from storage and compare it with IN, whose
   data H saw as it was copied unless REPORT says otherwise; set HEX to
   IN's digest.  Return false after a diagnostic if they differ or
   either cannot be read.  */
static bool
verify_copy (struct xfer_file const *in, struct xfer_file const *out,
             struct xfer_hash *h, char *hex, struct xfer_report *report,
             struct cp_options const *x)
{
  return (xfer_verify_part (in, out, 0, -1, x->hash_algo, h, hex, report)
          && !report->differs);
}

/* On mpicp's ranks but the first, the lines kept for the next answer:
   a stream into HELD_TEXT, or NULL.  Such a rank copies in one
   thread.  */
static FILE *held;
static char *held_text;
static size_t held_len;

/* Print the line that checks OUT against HEX.  */
static void
print_hash (struct xfer_file const *out, char const *hex,
            struct cp_options const *x)
{
  FILE *stream = held ? held : x->hash_out;
  /* Whole, among the other workers' lines.  */
  flockfile (stream);
  xfer_hash_print (stream, x->hash_algo, hex, out->name, false);
  funlockfile (stream);
}

void
copy_hash_hold (void)
{
  held = open_memstream (&held_text, &held_len);
  if (!held)
    xalloc_die ();
}

void
copy_hash_take (char **text, size_t *len)
{
  *text = NULL;
  *len = 0;
  if (!held)
    return;
  if (fclose (held) != 0)
    xalloc_die ();
  *text = held_text;
  *len = held_len;
  copy_hash_hold ();
}

void
copy_hash_put (struct cp_options const *x, char const *text, size_t len)
{
  FILE *stream = held ? held : x->hash_out;
  if (len && stream && fwrite (text, 1, len, stream) != len)
    xalloc_die ();
}

bool
copy_file_data (struct xfer_file const *in, struct xfer_file const *out,
                struct xfer_report *report, struct cp_options const *x)
{
  /* Only regular files have data to hash and read back: a copy of a
     pipe's data, or one into a device, is copied as usual.  */
  if (x->hash_algo < 0 || !S_ISREG (in->st->st_mode)
      || !S_ISREG (out->st->st_mode))
    return (xfer_copy (in, out, &x->xfer, report)
            && (!x->fsync || sync_data (out)));

  struct xfer_hash h;
  xfer_hash_init (&h, x->hash_algo);
  if (!xfer_copy_hashed (in, out, &x->xfer, report, &h))
    {
      xfer_hash_discard (&h);
      return false;
    }
  char hex[XFER_HASH_HEX_MAX];
  if (x->fsync && !sync_data (out))
    {
      xfer_hash_discard (&h);
      return false;
    }
  if (x->verify ? !verify_copy (in, out, &h, hex, report, x)
      : !source_digest (&h, in, report, hex, x))
    return false;
  if (x->print_hash)
    print_hash (out, hex, x);
  return true;
}

bool
copy_split_checked (struct xfer_split *split, struct cp_options const *x)
{
  struct xfer_file const *in = &split->src, *out = &split->dst;
  if (x->fsync && !sync_data (out))
    return false;
  /* The ranges checked themselves; a clone was of the whole file.  */
  if (!x->verify || !split->report.reflinked)
    return true;
  split->report.hashed = XFER_HASHED_MISSED;
  char hex[XFER_HASH_HEX_MAX];
  return verify_copy (in, out, NULL, hex, &split->report, x);
}

void
copy_hash_start (struct cp_options *x, char const *hash_file)
{
  x->hash_out = NULL;
  if (!x->print_hash)
    return;
  x->hash_out = stdout;
  if (hash_file)
    {
      x->hash_out = fopen (hash_file, "w");
      if (!x->hash_out)
        error (EXIT_FAILURE, errno, _("failed to open %s"),
               quoteaf (hash_file));
    }
}

bool
copy_hash_finish (struct cp_options const *x, char const *hash_file)
{
  if (!hash_file || !x->hash_out)
    return true;
  bool failed = ferror (x->hash_out);
  int err = 0;
  if (fclose (x->hash_out) != 0)
    {
      err = errno;
      failed = true;
    }
  if (failed)
    error (0, err, _("error writing %s"), quoteaf (hash_file));
  return !failed;
}
