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
   check the copy with.

   Reading a copy back from storage right after writing it waits for
   the disk twice: the file's write-back, then its read.  For a large
   file that is a pause among long transfers; for a tree of small
   files it is the whole cost (the real tree of doc/cpdd-bench.texi
   took 25 times as long to copy with --verify).  So small files are
   noted when copied, and checked later in batches: their file system
   is synced once, then each file is dropped from the page cache and
   read ahead a few files before it is hashed, which keeps the disk
   busy.  Large files are still read back at once, with direct
   I/O.  */

#include <config.h>

#include <fcntl.h>
#include <pthread.h>

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

/* Print the line that checks the copy NAME against HEX, its source's
   digest, where X says.  */
static void
copy_hash_print (char const *name, char const *hex,
                 struct cp_options const *x)
{
  FILE *stream = held ? held : x->hash_out;
  /* Whole, among the other workers' lines.  */
  flockfile (stream);
  xfer_hash_print (stream, x->hash_algo, hex, name, false);
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

enum
{
  /* Files larger than this are read back as soon as they are copied.  */
  LATER_MAX_SIZE = 8 * 1024 * 1024,
  /* A batch is checked once it holds this many files or bytes, which
     bounds the memory it takes and the data left dirty.  */
  BATCH_FILES = 4096,
  BATCH_BYTES = 512 * 1024 * 1024,
  /* Files opened and read ahead before the one being hashed.  */
  AHEAD = 32,
  /* File systems whose sync a batch remembers.  */
  SYNCED_MAX = 8
};

/* A copy to check: its destination and source names, the destination's
   identity, and the source's digest.  */
struct later
{
  char *dst;
  char *src;
  dev_t dev;
  ino_t ino;
  char *hex;
};

struct batch
{
  struct later *v;
  idx_t n;
  idx_t alloc;
  intmax_t bytes;
};

/* The batch being filled, by the walk or by any worker.  */
static struct batch filling;
static pthread_mutex_t filling_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether a check of a batch failed.  */
static bool failed;
static pthread_mutex_t failed_lock = PTHREAD_MUTEX_INITIALIZER;

static void
note_failure (void)
{
  pthread_mutex_lock (&failed_lock);
  failed = true;
  pthread_mutex_unlock (&failed_lock);
}

/* Whether the copy OUT, whose data was just copied as REPORT says, is
   to be read back later with others, as X allows: it is small.  */
static bool
copy_verify_later_suits (struct xfer_file const *out,
                         struct xfer_report const *report,
                         struct cp_options const *x)
{
  /* The batch reopens the copy by name: one too long to open whole
     stays with the check made at once.  */
  return (x->verify_later && report->bytes <= LATER_MAX_SIZE
          && strlen (out->name) < PATH_MAX);
}

/* Take the batch being filled if it is full (or, if ALL, whatever it
   holds) into *B; return whether there was one to take.  */
static bool
take_batch (struct batch *b, bool all)
{
  pthread_mutex_lock (&filling_lock);
  bool take = (filling.n != 0
               && (all || BATCH_FILES <= filling.n
                   || BATCH_BYTES <= filling.bytes));
  if (take)
    {
      *b = filling;
      filling = (struct batch) { NULL, 0, 0, 0 };
    }
  pthread_mutex_unlock (&filling_lock);
  return take;
}

/* Sync the file system of L, open as FD, unless SYNCED (*N_SYNCED
   devices) says this batch has synced it already.  Where there is no
   syncfs, sync the file alone.  */
static bool
sync_storage (struct later const *l, int fd, dev_t *synced, int *n_synced)
{
#if HAVE_SYNCFS
  for (int i = 0; i < *n_synced; i++)
    if (synced[i] == l->dev)
      return true;
  if (syncfs (fd) != 0)
    {
      error (0, errno, _("error syncing %s"), quoteaf (l->dst));
      return false;
    }
  if (*n_synced < SYNCED_MAX)
    synced[(*n_synced)++] = l->dev;
  return true;
#else
  if (fdatasync (fd) == 0)
    return true;
  error (0, errno, _("fdatasync failed for %s"), quoteaf (l->dst));
  return false;
#endif
}

/* Open L's copy again, make sure it is the file that was copied
   (without waiting, should it have become a FIFO meanwhile),
   sync it to storage and start reading it from there.  Set *DROPPED
   to whether the page cache let it go, so that reading it goes to
   storage.  Return its descriptor, or -1 after a diagnostic.  */
static int
start_check (struct later const *l, dev_t *synced, int *n_synced,
             bool *dropped)
{
  int fd = open (l->dst, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      error (0, errno, _("cannot open %s for reading"), quoteaf (l->dst));
      return -1;
    }
  struct stat st;
  if (fstat (fd, &st) != 0)
    error (0, errno, _("cannot fstat %s"), quoteaf (l->dst));
  else if (st.st_dev != l->dev || st.st_ino != l->ino)
    error (0, 0, _("%s was replaced before it could be read back"),
           quoteaf (l->dst));
  else if (sync_storage (l, fd, synced, n_synced))
    {
      *dropped = xfer_readback_ahead (fd);
      return fd;
    }
  close (fd);
  return -1;
}

/* Hash L's copy, open as FD (-1 if it could not be), from storage,
   compare it with its source's digest, and print its line if X asks.
   Read it through the cache if DROPPED, else with direct I/O, through
   BUF of SIZE bytes.  Return whether it is as copied.  */
static bool
finish_check (struct later const *l, int fd, bool dropped, char *buf,
              idx_t size, struct cp_options const *x)
{
  if (fd < 0)
    return false;
  struct stat st;
  bool ok = fstat (fd, &st) == 0;
  if (!ok)
    error (0, errno, _("cannot fstat %s"), quoteaf (l->dst));
  struct xfer_file f = { fd, l->dst, &st, true };
  char got[XFER_HASH_HEX_MAX];
  enum xfer_readback how;
  ok = ok && (dropped
              ? xfer_hash_file (&f, x->hash_algo, got, buf, size)
              : xfer_hash_back (&f, true, 0, -1, size, x->hash_algo, got,
                                &how));
  if (close (fd) != 0 && ok)
    {
      error (0, errno, _("failed to close %s"), quoteaf (l->dst));
      ok = false;
    }
  if (ok && strcmp (l->hex, got) != 0)
    {
      error (0, 0, _("%s differs from %s when read back"),
             quoteaf_n (0, l->dst), quoteaf_n (1, l->src));
      ok = false;
    }
  if (ok && x->print_hash)
    copy_hash_print (l->dst, l->hex, x);
  return ok;
}

/* Check the copies of B, opening each AHEAD files before it is hashed,
   and free B.  Return whether all are as copied.  */
static bool
check_batch (struct batch *b, struct cp_options const *x)
{
  idx_t size = 1024 * 1024;
  char *buf = xmalloc (size);
  int fds[AHEAD];
  bool dropped[AHEAD];
  dev_t synced[SYNCED_MAX];
  int n_synced = 0;
  bool ok = true;
  for (idx_t i = 0; i < b->n + AHEAD - 1; i++)
    {
      if (i < b->n)
        fds[i % AHEAD] = start_check (&b->v[i], synced, &n_synced,
                                      &dropped[i % AHEAD]);
      idx_t j = i - (AHEAD - 1);
      if (0 <= j && j < b->n)
        {
          struct later *l = &b->v[j];
          ok &= finish_check (l, fds[j % AHEAD], dropped[j % AHEAD],
                              buf, size, x);
          free (l->dst);
          free (l->src);
          free (l->hex);
        }
    }
  free (buf);
  free (b->v);
  return ok;
}

/* Check the batch being filled if it is full, or if ALL whatever it
   holds.  */
static void
check_filled (bool all, struct cp_options const *x)
{
  struct batch b;
  if (take_batch (&b, all) && !check_batch (&b, x))
    note_failure ();
}

/* Note that OUT, copied from IN whose digest is HEX, is to be read back
   later, and note in REPORT how; check the copies noted so far if they
   are enough for a batch.  A failed check counts in
   copy_verify_finish's result.  */
static void
copy_verify_later (struct xfer_file const *in, struct xfer_file const *out,
                   char const *hex, struct xfer_report *report,
                   struct cp_options const *x)
{
  struct later l = { xstrdup (out->name), xstrdup (in->name),
                     out->st->st_dev, out->st->st_ino, xstrdup (hex) };
  report->read_back = true;
  report->readback = XFER_READBACK_LATER;

  pthread_mutex_lock (&filling_lock);
  if (filling.n == filling.alloc)
    filling.v = xpalloc (filling.v, &filling.alloc, 1, -1,
                         sizeof *filling.v);
  filling.v[filling.n++] = l;
  filling.bytes += report->bytes;
  pthread_mutex_unlock (&filling_lock);

  check_filled (false, x);
}

bool
copy_verify_finish (struct cp_options const *x)
{
  check_filled (true, x);
  return !failed;
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
  if (x->verify && copy_verify_later_suits (out, report, x))
    {
      if (!source_digest (&h, in, report, hex, x))
        return false;
      copy_verify_later (in, out, hex, report, x);
      return true;
    }
  if (x->verify ? !verify_copy (in, out, &h, hex, report, x)
      : !source_digest (&h, in, report, hex, x))
    return false;
  if (x->print_hash)
    copy_hash_print (out->name, hex, x);
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
