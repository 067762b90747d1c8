/* copy-hash.c -- cp's --print-hash, --hash-file and --verify.
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
   is synced once, then a few threads read them back with direct I/O,
   which cannot read ahead, so that the disk always has reads to do.
   Large files are still read back at once.  */

#include <config.h>

#include <fcntl.h>
#include <pthread.h>

#include "system.h"
#include "copy-hash.h"
#include "side-file.h"
#include "xfer-hash.h"
#include "workers.h"
#include "xfer-range.h"
#include "xfer-readback.h"

/* Source reads go in pieces of at least this size.  */
enum { HASH_READ_SIZE = 1024 * 1024 };

/* The digest of IN's data with X's algorithm into HEX: H's, which saw
   the data as it was copied if REPORT says so, else one from reading
   IN again.  H, if not null, is finished or discarded.  */
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
  if (h)
    xfer_hash_discard (h);
  enum xfer_readback how;
  struct xfer_hash_read r = { 0, -1, MAX (report->buffer_size, HASH_READ_SIZE),
                              x->hash_algo, false };
  return xfer_hash_back (in, &r, hex, &how);
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
  struct xfer_check c = { 0, -1, x->hash_algo, h, x->xfer.sink };
  return xfer_verify_part (in, out, &c, hex, report) && !report->differs;
}

/* A copy to check: its destination and source names, the destination's
   identity, the source's digest, and whether the check passed.  */
struct later
{
  char *dst;
  char *src;
  dev_t dev;
  ino_t ino;
  char *hex;
  bool linked;			/* other links may be made to the copy */
  bool ok;
};

struct batch
{
  struct later *v;
  idx_t n;
  idx_t alloc;
  intmax_t bytes;
};

/* What --verify leaves for later: the copies to read back in
   batches.  */
struct verify_batches
{
  /* The batch being filled, by the walk or by any worker.  */
  struct batch filling;
  pthread_mutex_t filling_lock;

  /* One batch is checked at a time: a thread that took the next waits,
     rather than set more readers on the disk.  Threads that only add a
     copy to the batch being filled never wait for a check.  */
  pthread_mutex_t checking_lock;

  /* Whether a check of a batch failed; read once the workers are
     done.  */
  bool failed;
};

/* All that hashing keeps for one copy session (cp_options.hashing).  */
struct copy_hashing
{
  struct hash_ledger *ledger;	/* lines held back, or NULL */

  /* On mpicp's ranks but the first, the records kept for the next
     answer: a stream into HELD_TEXT, or NULL.  Such a rank copies in
     one thread.  */
  FILE *held;
  char *held_text;
  size_t held_len;

  struct verify_batches later;
};

static struct copy_hashing *
hashing_new (void)
{
  struct copy_hashing *h = xzalloc (sizeof *h);
  workers_lock_init (&h->later.filling_lock, NULL);
  workers_lock_init (&h->later.checking_lock, NULL);
  return h;
}

/* Free H, whose ledger is settled and whose batches are checked.  */
static void
hashing_free (struct copy_hashing *h)
{
  if (h->held && fclose (h->held) != 0)
    xalloc_die ();
  free (h->held_text);
  free (h->later.filling.v);
  pthread_mutex_destroy (&h->later.filling_lock);
  pthread_mutex_destroy (&h->later.checking_lock);
  free (h);
}

/* The lines of copies, once the command ends, must name files that
   hold what they say.  Two things can make a line printed at once
   untrue or missing: a later operand's copy that moves a copy made
   earlier aside as its backup, and a further hard link to a copy,
   which gets no data of its own.  So with backups, every line waits
   in the ledger for the end, when it gets the name its file has then;
   and a copy that may be linked to has its digest kept, for the line
   of each link the walk makes to it.  Files are known by device and
   inode as well as name, whichever thread copied them.  */

/* A file, by device and inode: the first member of each entry of the
   ledger, so that one index serves lines and renames alike.  */
struct file_id
{
  dev_t dev;
  ino_t ino;
};

/* A copy, or a further link to one, and its digest (NULL for a link
   until the end).  */
struct ledger_line
{
  struct file_id id;
  char *name;
  char *hex;
};

/* The copy ID named OLD was renamed NEW.  */
struct ledger_rename
{
  struct file_id id;
  char *old;
  char *new;
};

/* A growing array of lines.  */
struct ledger_lines
{
  struct ledger_line *v;
  idx_t n, alloc;
};

struct hash_ledger
{
  pthread_mutex_t lock;
  bool defer;			/* lines wait for the end */
  struct ledger_lines lines;	/* those waiting, or kept for links */
  struct ledger_lines links;	/* further links, whose lines come last */
  struct ledger_rename *renames;
  idx_t n_renames, renames_alloc;
};

/* Add to L the line of NAME, the file ST, with HEX.  */
static void
add_line (struct ledger_lines *l, struct stat const *st, char const *name,
          char const *hex)
{
  if (l->n == l->alloc)
    l->v = xpalloc (l->v, &l->alloc, 1, -1, sizeof *l->v);
  l->v[l->n++] = (struct ledger_line) { { st->st_dev, st->st_ino },
                                        xstrdup (name),
                                        hex ? xstrdup (hex) : NULL };
}

/* Print the line that checks the copy NAME against HEX, its source's
   digest, where X says.  */
static void
write_line (char const *name, char const *hex, struct cp_options const *x)
{
  FILE *held = x->hashing->held;
  FILE *stream = held ? held : x->hash_out;
  /* Whole, among the other workers' lines.  */
  flockfile (stream);
  xfer_hash_print (stream, x->hash_algo, hex, name, false);
  funlockfile (stream);
}

/* On mpicp's ranks but the first, which keep no ledger, what the
   first must know of a copy is held as a record for the answer that
   carries it: a line (L), a rename (R) or a further link (K), with the
   file's device and inode, then two strings, each ended by a null
   byte.  */
static void
hold_record (FILE *held, char kind, dev_t dev, ino_t ino, char const *a,
             char const *b)
{
  flockfile (held);
  fprintf (held, "%c%ju %ju", kind, (uintmax_t) dev, (uintmax_t) ino);
  putc ('\0', held);
  fputs (a, held);
  putc ('\0', held);
  fputs (b, held);
  putc ('\0', held);
  funlockfile (held);
}

/* The line that checks the copy NAME (DEV, INO) against HEX: print
   it, unless it must wait for the end; keep it too if other links may
   be made to its file (LINKED).  */
static void
print_hash (char const *name, dev_t dev, ino_t ino, char const *hex,
            bool linked, struct cp_options const *x)
{
  FILE *held = x->hashing->held;
  if (held)
    {
      hold_record (held, 'L', dev, ino, name, hex);
      return;
    }
  struct hash_ledger *l = x->hashing->ledger;
  if (l && (l->defer || linked))
    {
      pthread_mutex_lock (&l->lock);
      struct stat st = { .st_dev = dev, .st_ino = ino };
      add_line (&l->lines, &st, name, hex);
      pthread_mutex_unlock (&l->lock);
    }
  if (! (l && l->defer))
    write_line (name, hex, x);
}

/* Set HEX to the digest of the data of NAME, the file ID, read now.
   Return true, or false after a diagnostic.  */
static bool
digest_by_reading (char const *name, struct file_id const *id, char *hex,
                   struct cp_options const *x)
{
  int fd = open (name, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      error (0, errno, _("cannot open %s for reading"), quoteaf (name));
      return false;
    }
  struct stat now;
  bool ok = (fstat (fd, &now) == 0 && now.st_dev == id->dev
             && now.st_ino == id->ino);
  if (!ok)
    error (0, 0, _("%s was replaced before it could be hashed"),
           quoteaf (name));
  struct xfer_file f = { fd, name, &now, true, false };
  enum xfer_readback how;
  struct xfer_hash_read r = { 0, -1, HASH_READ_SIZE, x->hash_algo, false };
  ok = ok && xfer_hash_back (&f, &r, hex, &how);
  close (fd);
  return ok;
}

void
copy_hash_linked (char const *name, struct stat const *st,
                  struct cp_options const *x)
{
  if (!x->print_hash || !S_ISREG (st->st_mode))
    return;
  FILE *held = x->hashing->held;
  if (held)
    {
      hold_record (held, 'K', st->st_dev, st->st_ino, name, "");
      return;
    }
  struct hash_ledger *l = x->hashing->ledger;
  if (!l)
    return;
  pthread_mutex_lock (&l->lock);
  add_line (&l->links, st, name, NULL);
  pthread_mutex_unlock (&l->lock);
}

void
copy_hash_renamed (char const *old, struct stat const *st, char const *new,
                   struct cp_options const *x)
{
  if (!x->print_hash)
    return;
  FILE *held = x->hashing->held;
  if (held)
    {
      hold_record (held, 'R', st->st_dev, st->st_ino, old, new);
      return;
    }
  struct hash_ledger *l = x->hashing->ledger;
  if (!l || !l->defer)
    return;
  pthread_mutex_lock (&l->lock);
  if (l->n_renames == l->renames_alloc)
    l->renames = xpalloc (l->renames, &l->renames_alloc, 1, -1,
                          sizeof *l->renames);
  l->renames[l->n_renames++] = (struct ledger_rename) {
    { st->st_dev, st->st_ino }, xstrdup (old), xstrdup (new) };
  pthread_mutex_unlock (&l->lock);
}

/* The entries of one of the ledger's arrays, sorted by file and then
   by their place in the array, which is the order they were made in:
   looking a file up costs a binary search, not a pass over a ledger
   that may hold a line and a rename for every file of a tree.  */
struct file_index
{
  struct file_id const **v;
  idx_t n;
};

/* Compare two entries of an index by file, then by place.  */
static int
compare_ids (void const *a, void const *b)
{
  struct file_id const *p = *(struct file_id const *const *) a;
  struct file_id const *q = *(struct file_id const *const *) b;
  if (p->dev != q->dev)
    return p->dev < q->dev ? -1 : 1;
  if (p->ino != q->ino)
    return p->ino < q->ino ? -1 : 1;
  return p < q ? -1 : p > q;
}

/* Index the N entries of SIZE bytes at V, each starting with its
   file_id.  */
static struct file_index
index_by_file (void const *v, idx_t n, size_t size)
{
  struct file_index ix = { xinmalloc (n, sizeof *ix.v), n };
  for (idx_t i = 0; i < n; i++)
    ix.v[i] = (struct file_id const *) ((char const *) v + i * size);
  qsort (ix.v, n, sizeof *ix.v, compare_ids);
  return ix;
}

/* The place in IX of the first entry of the file ID, or where one would
   be.  */
static idx_t
first_of (struct file_index const *ix, struct file_id const *id)
{
  idx_t lo = 0, hi = ix->n;
  while (lo < hi)
    {
      idx_t mid = lo + (hi - lo) / 2;
      struct file_id const *m = ix->v[mid];
      if (m->dev < id->dev || (m->dev == id->dev && m->ino < id->ino))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Whether the entry at place I of IX is of the file ID.  */
static bool
is_of (struct file_index const *ix, idx_t i, struct file_id const *id)
{
  return (i < ix->n && ix->v[i]->dev == id->dev
          && ix->v[i]->ino == id->ino);
}

/* The name LINE's file has once the command is over, after the
   RENAMES (indexed) that moved it, in the order they were made; or
   NULL if that name no longer leads to it.  */
static char const *
final_name (struct ledger_line const *line, struct file_index const *renames)
{
  char const *name = line->name;
  for (idx_t i = first_of (renames, &line->id); is_of (renames, i, &line->id);
       i++)
    {
      struct ledger_rename const *r
        = (struct ledger_rename const *) renames->v[i];
      if (STREQ (r->old, name))
        name = r->new;
    }
  struct stat st;
  return (lstat (name, &st) == 0 && st.st_dev == line->id.dev
          && st.st_ino == line->id.ino) ? name : NULL;
}

/* The digest of the latest copy of the file ID among the LINES
   (indexed), or NULL.  */
static char const *
digest_of (struct file_id const *id, struct file_index const *lines)
{
  idx_t i = first_of (lines, id);
  if (!is_of (lines, i, id))
    return NULL;
  while (is_of (lines, i + 1, id))
    i++;
  return ((struct ledger_line const *) lines->v[i])->hex;
}

/* Compare two held lines by the names their files have at the end,
   then by the order they were held in.  */
static int
compare_final (void const *a, void const *b)
{
  struct ledger_line const *p = *(struct ledger_line const *const *) a;
  struct ledger_line const *q = *(struct ledger_line const *const *) b;
  int cmp = strcmp (p->name, q->name);
  return cmp ? cmp : (p < q ? -1 : p > q);
}

/* Print L's held lines, in the order they were held, each under the
   name its file has now, and only the last of those that name one
   file: where trees merge, a later copy is made over an earlier one.
   A line whose file no name leads to any more is left out.  */
static void
write_final_lines (struct hash_ledger *l, struct file_index const *renames,
                   struct cp_options const *x)
{
  /* Each line's NAME becomes its final one, or NULL.  */
  for (idx_t i = 0; i < l->lines.n; i++)
    {
      struct ledger_line *line = &l->lines.v[i];
      char const *name = final_name (line, renames);
      char *final = name ? xstrdup (name) : NULL;
      free (line->name);
      line->name = final;
    }
  struct ledger_line **by_name = xinmalloc (l->lines.n, sizeof *by_name);
  idx_t n = 0;
  for (idx_t i = 0; i < l->lines.n; i++)
    if (l->lines.v[i].name)
      by_name[n++] = &l->lines.v[i];
  qsort (by_name, n, sizeof *by_name, compare_final);
  for (idx_t i = 0; i + 1 < n; i++)
    if (STREQ (by_name[i]->name, by_name[i + 1]->name))
      {
        free (by_name[i]->name);
        by_name[i]->name = NULL;
      }
  free (by_name);
  for (idx_t i = 0; i < l->lines.n; i++)
    if (l->lines.v[i].name)
      write_line (l->lines.v[i].name, l->lines.v[i].hex, x);
}

/* Print the lines X's ledger held back, under the names their files
   have now, and those of further links, then free the ledger.  A file
   that no name leads to any more, having been replaced by a later
   copy, has no line.  */
static void
settle_ledger (struct copy_hashing *h, struct cp_options const *x)
{
  struct hash_ledger *l = h->ledger;
  if (!l)
    return;
  h->ledger = NULL;
  struct file_index renames = index_by_file (l->renames, l->n_renames,
                                             sizeof *l->renames);
  if (l->defer)
    write_final_lines (l, &renames, x);
  struct file_index lines = index_by_file (l->lines.v, l->lines.n,
                                           sizeof *l->lines.v);
  for (idx_t i = 0; i < l->links.n; i++)
    {
      struct ledger_line *link = &l->links.v[i];
      char const *name = final_name (link, &renames);
      char const *hex = digest_of (&link->id, &lines);
      char read_hex[XFER_HASH_HEX_MAX];
      /* A copy another rank of mpicp made sent its line there; only
         a regular file has its links noted, and final_name found the
         file still under its name.  */
      if (name && !hex
          && digest_by_reading (name, &link->id, read_hex, x))
        hex = read_hex;
      if (name && hex)
        write_line (name, hex, x);
      free (link->name);
    }
  free (renames.v);
  free (lines.v);
  for (idx_t i = 0; i < l->lines.n; i++)
    {
      free (l->lines.v[i].name);
      free (l->lines.v[i].hex);
    }
  for (idx_t i = 0; i < l->n_renames; i++)
    {
      free (l->renames[i].old);
      free (l->renames[i].new);
    }
  free (l->lines.v);
  free (l->links.v);
  free (l->renames);
  pthread_mutex_destroy (&l->lock);
  free (l);
}

/* Start keeping H's records in memory.  */
static void
hold_records (struct copy_hashing *h)
{
  h->held = open_memstream (&h->held_text, &h->held_len);
  if (!h->held)
    xalloc_die ();
}

void
copy_hash_hold (struct cp_options *x)
{
  x->hashing = hashing_new ();
  hold_records (x->hashing);
}

void
copy_hash_take (struct cp_options const *x, char **text, size_t *len)
{
  *text = NULL;
  *len = 0;
  struct copy_hashing *h = x->hashing;
  if (!h || !h->held)
    return;
  if (fclose (h->held) != 0)
    xalloc_die ();
  *text = h->held_text;
  *len = h->held_len;
  hold_records (h);
}

/* The string at *P, before END, and move *P past it; NULL if the
   records are cut short.  */
static char const *
take_string (char const **p, char const *end)
{
  char const *str = *p;
  char const *nul = memchr (str, '\0', end - str);
  if (!nul)
    return NULL;
  *p = nul + 1;
  return str;
}

void
copy_hash_put (struct cp_options const *x, char const *text, size_t len)
{
  FILE *held = x->hashing ? x->hashing->held : NULL;
  if (held)
    {
      if (len && fwrite (text, 1, len, held) != len)
        xalloc_die ();
      return;
    }
  char const *p = text, *end = text + len;
  while (p < end)
    {
      uintmax_t dev, ino;
      char kind;
      char const *head = take_string (&p, end);
      char const *a = head ? take_string (&p, end) : NULL;
      char const *b = a ? take_string (&p, end) : NULL;
      if (!b || sscanf (head, "%c%ju %ju", &kind, &dev, &ino) != 3)
        error (EXIT_FAILURE, 0, _("malformed hash records from a rank"));
      struct stat st = { .st_dev = dev, .st_ino = ino, .st_mode = S_IFREG };
      if (kind == 'L')
        print_hash (a, dev, ino, b, x->preserve_links, x);
      else if (kind == 'R')
        copy_hash_renamed (a, &st, b, x);
      else
        copy_hash_linked (a, &st, x);
    }
}

/* Whether the walk may link further names to the copy of IN, as X
   keeps hard links.  */
static bool
may_be_linked (struct xfer_file const *in, struct cp_options const *x)
{
  return x->preserve_links && 1 < in->st->st_nlink;
}

enum
{
  /* Files larger than this are read back as soon as they are copied.  */
  LATER_MAX_SIZE = 8 * 1024 * 1024,
  /* A batch is checked once it holds this many files or bytes, which
     bounds the memory it takes and the data left dirty.  */
  BATCH_FILES = 4096,
  BATCH_BYTES = 512 * 1024 * 1024,
  /* Threads that read a batch back: a direct read cannot be read
     ahead, so several at once keep the disk busy.  */
  READERS = 4,
  /* The buffer each reads a file through.  */
  READ_SIZE = 256 * 1024
};

/* Whether the copy OUT, whose data was just copied as REPORT says, is
   to be read back later with others, as X allows: it is small.  */
static bool
check_later_suits (struct xfer_file const *out,
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
take_batch (struct verify_batches *v, struct batch *b, bool all)
{
  pthread_mutex_lock (&v->filling_lock);
  bool take = (v->filling.n != 0
               && (all || BATCH_FILES <= v->filling.n
                   || BATCH_BYTES <= v->filling.bytes));
  if (take)
    {
      *b = v->filling;
      v->filling = (struct batch) { NULL, 0, 0, 0 };
    }
  pthread_mutex_unlock (&v->filling_lock);
  return take;
}

/* Whether ST is the file L noted.  */
static bool
is_noted (struct stat const *st, struct later const *l)
{
  return st->st_dev == l->dev && st->st_ino == l->ino;
}

/* Write to storage what the file systems of B's copies hold, with one
   syncfs each, so that reading them back finds their data there
   rather than waiting for each one's write-back in turn.  Where there
   is no syncfs, each read-back syncs its own file.  */
static void
sync_batch (struct batch const *b)
{
#if HAVE_SYNCFS
  enum { SYNCED_MAX = 8 };
  dev_t synced[SYNCED_MAX];
  int n_synced = 0;
  for (idx_t i = 0; i < b->n && n_synced < SYNCED_MAX; i++)
    {
      struct later const *l = &b->v[i];
      bool seen = false;
      for (int k = 0; k < n_synced; k++)
        seen |= synced[k] == l->dev;
      if (seen)
        continue;
      int fd = open (l->dst, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0)
        continue;
      /* A failure leaves the read-back to sync the file itself.  */
      if (syncfs (fd) == 0)
        synced[n_synced++] = l->dev;
      close (fd);
    }
#endif
}

/* Read L's copy back from storage as xfer_hash_back does and compare
   it with its source's digest; say why not if it is not as copied.  It
   is looked up by name, and not opened unless it is still the file
   that was copied: a FIFO or a device put there since is left
   alone.  */
static bool
check_one (struct later const *l, struct cp_options const *x)
{
  struct stat st;
  if (stat (l->dst, &st) != 0)
    {
      error (0, errno, _("cannot stat %s"), quoteaf (l->dst));
      return false;
    }
  int fd = -1;
  if (is_noted (&st, l))
    {
      fd = open (l->dst, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0)
        {
          error (0, errno, _("cannot open %s for reading"),
                 quoteaf (l->dst));
          return false;
        }
      if (fstat (fd, &st) != 0)
        {
          error (0, errno, _("cannot fstat %s"), quoteaf (l->dst));
          close (fd);
          return false;
        }
    }
  if (!is_noted (&st, l))
    {
      error (0, 0, _("%s was replaced before it could be read back"),
             quoteaf (l->dst));
      if (0 <= fd)
        close (fd);
      return false;
    }

  struct xfer_file f = { fd, l->dst, &st, true };
  char got[XFER_HASH_HEX_MAX];
  enum xfer_readback how;
  struct xfer_hash_read r = { 0, -1, READ_SIZE, x->hash_algo, true,
                              x->xfer.sink };
  bool ok = xfer_hash_back (&f, &r, got, &how);
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
  return ok;
}

/* What the readers of one batch share.  */
struct check_run
{
  struct batch *b;
  struct cp_options const *x;
  pthread_mutex_t lock;
  idx_t next;
};

/* Check the copies of RUN's batch that no other reader took.  */
static void *
read_back_some (void *arg)
{
  struct check_run *run = arg;
  for (;;)
    {
      pthread_mutex_lock (&run->lock);
      idx_t i = run->next++;
      pthread_mutex_unlock (&run->lock);
      if (run->b->n <= i)
        return NULL;
      struct later *l = &run->b->v[i];
      l->ok = check_one (l, run->x);
    }
}

/* Check the copies of B, sync first, then with READERS threads; print
   the lines of those that passed, in the order they were copied, and
   free B.  Return whether all passed.  */
static bool
check_batch (struct batch *b, struct cp_options const *x)
{
  sync_batch (b);
  struct check_run run = { b, x, PTHREAD_MUTEX_INITIALIZER, 0 };
  pthread_t readers[READERS - 1];
  int started = 0;
  while (started < READERS - 1 && started + 1 < b->n
         && pthread_create (&readers[started], NULL, read_back_some,
                            &run) == 0)
    started++;
  read_back_some (&run);
  for (int k = 0; k < started; k++)
    pthread_join (readers[k], NULL);

  bool ok = true;
  for (idx_t i = 0; i < b->n; i++)
    {
      struct later *l = &b->v[i];
      if (l->ok && x->print_hash)
        print_hash (l->dst, l->dev, l->ino, l->hex, l->linked, x);
      ok &= l->ok;
      free (l->dst);
      free (l->src);
      free (l->hex);
    }
  free (b->v);
  return ok;
}

/* Check the batch being filled if it is full, or if ALL whatever it
   holds.  */
static void
check_filled (bool all, struct cp_options const *x)
{
  struct verify_batches *v = &x->hashing->later;
  struct batch b;
  if (!take_batch (v, &b, all))
    return;
  pthread_mutex_lock (&v->checking_lock);
  if (!check_batch (&b, x))
    v->failed = true;
  pthread_mutex_unlock (&v->checking_lock);
}

/* Note that OUT, copied from IN whose digest is HEX, is to be read back
   later, and note in REPORT how; check the copies noted so far if they
   are enough for a batch.  A failed check counts in
   copy_verify_finish's result.  */
static void
note_for_check (struct xfer_file const *in, struct xfer_file const *out,
                   char const *hex, struct xfer_report *report,
                   struct cp_options const *x)
{
  struct later l = { xstrdup (out->name), xstrdup (in->name),
                     out->st->st_dev, out->st->st_ino, xstrdup (hex),
                     may_be_linked (in, x), false };
  report->read_back = true;
  report->readback = XFER_READBACK_LATER;

  struct verify_batches *v = &x->hashing->later;
  pthread_mutex_lock (&v->filling_lock);
  struct batch *b = &v->filling;
  if (b->n == b->alloc)
    b->v = xpalloc (b->v, &b->alloc, 1, -1, sizeof *b->v);
  b->v[b->n++] = l;
  b->bytes += report->bytes;
  pthread_mutex_unlock (&v->filling_lock);

  check_filled (false, x);
}

void
copy_verify_settle (struct stat const *st, struct cp_options const *x)
{
  if (!x->verify_later)
    return;
  struct verify_batches *v = &x->hashing->later;
  bool noted = false;
  pthread_mutex_lock (&v->filling_lock);
  for (idx_t i = 0; i < v->filling.n && !noted; i++)
    noted = is_noted (st, &v->filling.v[i]);
  pthread_mutex_unlock (&v->filling_lock);
  if (noted)
    check_filled (true, x);
}

bool
copy_verify_finish (struct cp_options const *x)
{
  if (!x->verify)
    return true;
  check_filled (true, x);
  return !x->hashing->later.failed;
}

bool
copy_hashes (struct xfer_file const *in, struct xfer_file const *out,
             struct cp_options const *x)
{
  /* Only regular files have data to hash and read back: a copy of a
     pipe's data, or one into a device, is copied as usual.  */
  return (0 <= x->hash_algo && S_ISREG (in->st->st_mode)
          && S_ISREG (out->st->st_mode));
}

bool
copy_file_data (struct xfer_file const *in, struct xfer_file const *out,
                struct xfer_report *report, char hex[XFER_HASH_HEX_MAX],
                struct cp_options const *x)
{
  struct xfer_hash h;
  xfer_hash_init (&h, x->hash_algo);
  if (!xfer_copy_hashed (in, out, &x->xfer, report, &h))
    {
      xfer_hash_discard (&h);
      return false;
    }
  if (x->verify && check_later_suits (out, report, x))
    {
      if (!source_digest (&h, in, report, hex, x))
        return false;
      note_for_check (in, out, hex, report, x);
      return true;
    }
  if (x->verify ? !verify_copy (in, out, &h, hex, report, x)
      : !source_digest (&h, in, report, hex, x))
    return false;
  if (x->print_hash)
    print_hash (out->name, out->st->st_dev, out->st->st_ino, hex,
                may_be_linked (in, x), x);
  return true;
}

bool
copy_split_checked (struct xfer_split *split, struct cp_options const *x)
{
  struct xfer_file const *in = &split->src, *out = &split->dst;
  /* The ranges checked themselves; a clone was of the whole file.  */
  if (!x->verify || !split->report.reflinked)
    return true;
  split->report.hashed = XFER_HASHED_MISSED;
  char hex[XFER_HASH_HEX_MAX];
  return verify_copy (in, out, NULL, hex, &split->report, x);
}

bool
copy_resumed_checked (struct xfer_file const *in,
                      struct xfer_file const *out,
                      struct xfer_report *report, struct cp_options const *x)
{
  if (! (x->verify || x->print_hash))
    return true;
  /* What the earlier run wrote was never hashed: both files are read
     whole, the source for its digest, the copy to check it.  */
  report->hashed = XFER_HASHED_MISSED;
  char hex[XFER_HASH_HEX_MAX];
  if (x->verify ? !verify_copy (in, out, NULL, hex, report, x)
      : !source_digest (NULL, in, report, hex, x))
    return false;
  if (x->print_hash)
    print_hash (out->name, out->st->st_dev, out->st->st_ino, hex,
                may_be_linked (in, x), x);
  return true;
}

void
copy_hash_start (struct cp_options *x, char const *hash_file,
                 struct side_bound const *bounds, idx_t n_bounds,
                 bool merges)
{
  x->hash_out = NULL;
  x->hashing = x->print_hash || x->verify ? hashing_new () : NULL;
  if (!x->print_hash)
    return;
  x->hash_out = stdout;
  if (hash_file)
    {
      struct side_file f;
      side_file_check (&f, hash_file, "--hash-file", bounds, n_bounds);
      x->hash_out = side_file_stream (&f);
    }
  /* Links are kept only with -a or --preserve=links; a copy is moved
     aside only with backups, and copied over only where trees
     merge.  */
  bool defer = x->backup_type != no_backups || merges;
  if (defer || x->preserve_links)
    {
      struct hash_ledger *l = xzalloc (sizeof *l);
      workers_lock_init (&l->lock, NULL);
      l->defer = defer;
      x->hashing->ledger = l;
    }
}

bool
copy_hash_finish (struct cp_options *x, char const *hash_file)
{
  struct copy_hashing *h = x->hashing;
  if (!h)
    return true;
  settle_ledger (h, x);
  x->hashing = NULL;
  hashing_free (h);
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
