/* copy-atomic.c -- cp --atomic: a file's copy made aside, then renamed.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "copy-atomic.h"
#include "copy-sync.h"
#include "dirname.h"
#include "hash.h"
#include "same-inode.h"
#include "stat-time.h"

#include <inttypes.h>
#include <pthread.h>

/* What ends the name of every temporary file of --atomic.  */
static char const temp_suffix[] = ".cpdd-part";

bool
atomic_replaces (struct cp_options const *x)
{
  return x->atomic && !x->attributes_only;
}

/* FNV-1a, 64 bits: a name is short, and what matters is that the same
   name always gives the same hash, on every host and in every
   version, which a hash of the C library or of gnulib does not
   promise.  */
static uint_fast64_t
name_hash (char const *name)
{
  uint_fast64_t h = 0xcbf29ce484222325u;
  for (unsigned char const *p = (unsigned char const *) name; *p; p++)
    h = ((h ^ *p) * 0x100000001b3u) & 0xffffffffffffffffu;
  return h;
}

char *
atomic_temp_name (char const *base, bool shortened)
{
  enum { NAME_LIMIT = 255 };	/* Linux's NAME_MAX, whatever the host's */
  size_t len = strlen (base);
  if (!shortened && 1 + len + sizeof temp_suffix - 1 <= NAME_LIMIT)
    {
      char *name = xmalloc (1 + len + sizeof temp_suffix);
      name[0] = '.';
      memcpy (name + 1, base, len);
      memcpy (name + 1 + len, temp_suffix, sizeof temp_suffix);
      return name;
    }
  char *name = xmalloc (1 + 16 + sizeof temp_suffix);
  sprintf (name, ".%016" PRIxFAST64 "%s", name_hash (base), temp_suffix);
  return name;
}

/* Set T's names for the temporary file of DST, the short form if
   SHORTENED (see atomic_temp_name), freeing any it had.  DST's REL is
   the end of its NAME, so the temporary's is the end of its whole
   name too, as other ranks of mpicp need.  */
static void
set_temp_names (struct atomic_temp *t, struct loc const *dst, bool shortened)
{
  char const *base = last_component (dst->rel);
  size_t dir_len = base - dst->name;
  char *name = atomic_temp_name (base, shortened);
  size_t name_size = strlen (name) + 1;
  free (t->temp_name);
  t->temp_name = xmalloc (dir_len + name_size);
  memcpy (t->temp_name, dst->name, dir_len);
  memcpy (t->temp_name + dir_len, name, name_size);
  free (name);
  t->temp_rel = t->temp_name + (dst->rel - dst->name);
}

/* A file is already where T's temporary file of SRC_ST is to be made:
   one an interrupted run left, most likely, which the run that made it
   could not remove (SIGKILL, a crash).  With RESUME, open a regular
   file there to be read and continued, and return its descriptor.
   Else remove it, to make the copy afresh, and return -2.  Return -1
   after a diagnostic if it can be neither, or if it is the source
   itself.  */
static int
atomic_leftover_found (struct atomic_temp const *t,
                       struct stat const *src_st, bool resume)
{
  struct stat st;
  bool known = fstatat (t->dirfd, t->temp_rel, &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (known && SAME_INODE (st, *src_st))
    {
      error (0, 0, _("not removing %s, the source, as a temporary file"),
             quoteaf (t->temp_name));
      return -1;
    }
  if (resume && known && S_ISREG (st.st_mode))
    {
      int fd = openat (t->dirfd, t->temp_rel,
                       O_RDWR | O_BINARY | O_NOFOLLOW);
      if (0 <= fd)
        return fd;
    }
  if (unlinkat (t->dirfd, t->temp_rel, 0) != 0 && errno != ENOENT)
    {
      error (0, errno, _("cannot remove %s"), quoteaf (t->temp_name));
      return -1;
    }
  return -2;
}

/* Free T and its names, and close its directory.  */
static void
temp_free (struct atomic_temp *t)
{
  /* Only searched, never written through: its closing says nothing.  */
  if (t->dirfd != AT_FDCWD)
    close (t->dirfd);
  free (t->final_rel);
  free (t->temp_name);
  free (t);
}

/* A temporary file whose rename waits for the batch's syncfs: made
   as TEMP_REL in the batch's directory DIR, to be renamed FINAL_REL
   there; TEMP_NAME and FINAL_NAME are the whole names, for messages
   and for telling later copies to the same name.  */
struct pending_rename
{
  idx_t dir;
  char *temp_name;
  char const *temp_rel;
  char *final_name;
  char *final_rel;
};

/* A directory that pending renames go into, open as FD (a descriptor
   of the batch's own), which was device DEV, inode INO when the walk
   opened it, named NAME once its finish is known (else NULL).  A
   rename changes a directory's times: if RETIME, they are set to TIMES
   again after the renames, as its finish set them before.  */
struct batch_dir
{
  dev_t dev;
  ino_t ino;
  int fd;
  bool retime;
  struct timespec times[2];
  char *name;
};

/* On local file systems, cp --atomic makes the temporary files durable
   together, with one syncfs per file system, and then renames them:
   an fsync per file would wait for a commit of the file system's
   journal each.  What is renamed only after the sync is kept here.  */
struct atomic_batch
{
  pthread_mutex_t lock;		/* held by whoever adds or flushes */
  struct copy_syncs *fs;	/* the file systems to sync */
  struct pending_rename *v;
  idx_t n;
  idx_t alloc;
  struct batch_dir *dirs;
  idx_t n_dirs;
  idx_t dirs_alloc;
  idx_t dirs_max;		/* the directory descriptors it may keep */
  Hash_table *finals;		/* the FINAL_NAMEs of V */
  ptrdiff_t renamed;		/* for --debug: files renamed so */
  ptrdiff_t flushes;		/* and the syncs they waited for */
  atomic_ptrdiff_t alone;	/* files synced one by one */
};

enum
{
  /* Files whose renames a batch holds at most: they bound its
     memory.  */
  BATCH_FILES_MAX = 20000
};

static size_t
name_hasher (void const *name, size_t n_buckets)
{
  return hash_string (name, n_buckets);
}

static bool
name_equal (void const *a, void const *b)
{
  return STREQ (a, b);
}

struct atomic_batch *
atomic_batch_new (void)
{
  struct atomic_batch *b = xzalloc (sizeof *b);
  pthread_mutex_init (&b->lock, NULL);
  b->fs = copy_syncs_new ();
  /* As many descriptors as the walk may keep for one of its sides; the
     held finishes and the queued tasks take their own share.  */
  b->dirs_max = MAX (1, walker_default_max () / 2);
  b->finals = hash_initialize (0, NULL, name_hasher, name_equal, NULL);
  if (!b->finals)
    xalloc_die ();
  atomic_init (&b->alone, 0);
  return b;
}

/* Sync B's file systems and rename its temporary files into place;
   or if the sync fails, remove them.  Then set the times of the
   directories their renames changed again, and forget them all.  B's
   lock is held.  Return true, or false after a diagnostic.  */
static bool
batch_flush (struct atomic_batch *b)
{
  if (b->n == 0)
    return true;
  bool synced = copy_syncs_now (b->fs);
  bool ok = synced;
  b->flushes++;
  for (idx_t i = 0; i < b->n; i++)
    {
      struct pending_rename *r = &b->v[i];
      int dirfd = b->dirs[r->dir].fd;
      bool renamed = false;
      if (synced)
        {
          renamed = renameat (dirfd, r->temp_rel, dirfd, r->final_rel) == 0;
          if (renamed)
            b->renamed++;
          else
            {
              error (0, errno, _("cannot move %s to %s"),
                     quoteaf_n (0, r->temp_name),
                     quoteaf_n (1, r->final_name));
              ok = false;
            }
        }
      if (!renamed && unlinkat (dirfd, r->temp_rel, 0) != 0
          && errno != ENOENT)
        error (0, errno, _("cannot remove %s"), quoteaf (r->temp_name));
      free (r->temp_name);
      free (r->final_name);
      free (r->final_rel);
    }
  for (idx_t i = 0; i < b->n_dirs; i++)
    {
      struct batch_dir *d = &b->dirs[i];
      if (d->retime && futimens (d->fd, d->times) != 0)
        {
          error (0, errno, _("preserving times for %s"), quoteaf (d->name));
          ok = false;
        }
      /* Only searched and renamed in: its closing says nothing.  */
      close (d->fd);
      free (d->name);
    }
  b->n = b->n_dirs = 0;
  hash_clear (b->finals);
  return ok;
}

/* The directory of T in B, which takes T's descriptor of it or closes
   it; flush B first if B keeps as many as it may.  B's lock is held.
   Set *OK to false after a diagnostic if the flush failed.  */
static idx_t
batch_dir (struct atomic_batch *b, struct atomic_temp *t, bool *ok)
{
  for (idx_t i = b->n_dirs; 0 < i--; )
    if (b->dirs[i].dev == t->dir_dev && b->dirs[i].ino == t->dir_ino)
      {
        close (t->dirfd);
        t->dirfd = AT_FDCWD;
        return i;
      }
  if (b->dirs_max <= b->n_dirs)
    *ok = batch_flush (b);
  if (b->n_dirs == b->dirs_alloc)
    b->dirs = xpalloc (b->dirs, &b->dirs_alloc, 1, -1, sizeof *b->dirs);
  b->dirs[b->n_dirs] = (struct batch_dir) { t->dir_dev, t->dir_ino,
                                            t->dirfd };
  t->dirfd = AT_FDCWD;
  return b->n_dirs++;
}

/* The temporary file T, closed, has its data and attributes: leave
   its rename to the flush of B, and free T.  FINAL_NAME is the
   destination's whole name.  Return true, or false after a diagnostic
   if B had to be flushed and that failed.  */
static bool
batch_add (struct atomic_batch *b, struct atomic_temp *t,
           char const *final_name)
{
  bool ok = true;
  pthread_mutex_lock (&b->lock);
  idx_t dir = batch_dir (b, t, &ok);
  if (b->n == b->alloc)
    b->v = xpalloc (b->v, &b->alloc, 1, -1, sizeof *b->v);
  struct pending_rename *r = &b->v[b->n++];
  r->dir = dir;
  r->temp_name = t->temp_name;
  r->temp_rel = t->temp_rel;
  r->final_name = xstrdup (final_name);
  r->final_rel = t->final_rel;
  t->temp_name = t->final_rel = NULL;
  if (!hash_insert (b->finals, r->final_name))
    xalloc_die ();
  if (BATCH_FILES_MAX <= b->n)
    ok &= batch_flush (b);
  pthread_mutex_unlock (&b->lock);
  temp_free (t);
  return ok;
}

bool
atomic_batch_settle (struct atomic_batch *b, char const *name)
{
  if (!b)
    return true;
  pthread_mutex_lock (&b->lock);
  bool ok = !hash_lookup (b->finals, name) || batch_flush (b);
  pthread_mutex_unlock (&b->lock);
  return ok;
}

bool
atomic_batch_dir_finishing (struct atomic_batch *b, dev_t dev, ino_t ino,
                            char const *name, struct stat const *src_st,
                            bool set_mode, mode_t mode,
                            struct cp_options const *x)
{
  if (!b)
    return true;
  mode_t final = (x->preserve_mode ? src_st->st_mode
                  : set_mode ? mode : S_IRWXU);
  bool ok = true;
  pthread_mutex_lock (&b->lock);
  for (idx_t i = 0; i < b->n_dirs; i++)
    {
      struct batch_dir *d = &b->dirs[i];
      if (d->dev != dev || d->ino != ino)
        continue;
      /* A directory that its owner may not write to takes no rename
         from an unprivileged owner: its renames go first.  */
      if ((final & (S_IWUSR | S_IXUSR)) != (S_IWUSR | S_IXUSR))
        ok = batch_flush (b);
      else if (x->preserve_timestamps)
        {
          d->retime = true;
          d->times[0] = get_stat_atime (src_st);
          d->times[1] = get_stat_mtime (src_st);
          free (d->name);
          d->name = xstrdup (name);
        }
      break;
    }
  pthread_mutex_unlock (&b->lock);
  return ok;
}

bool
atomic_batch_end (struct atomic_batch *b, bool debug)
{
  pthread_mutex_lock (&b->lock);
  bool ok = batch_flush (b);
  pthread_mutex_unlock (&b->lock);
  copy_syncs_free (b->fs);
  if (debug && b->renamed)
    printf (_("atomic: renamed after syncfs: %td, batches: %td\n"),
            b->renamed, b->flushes);
  if (debug && atomic_load (&b->alone))
    printf (_("atomic: synced one by one: %td\n"), atomic_load (&b->alone));
  hash_free (b->finals);
  free (b->v);
  free (b->dirs);
  pthread_mutex_destroy (&b->lock);
  free (b);
  return ok;
}

int
atomic_temp_open (struct loc const *dst, struct stat const *src_st,
                  mode_t mode, bool resume, struct atomic_batch *batch,
                  bool *kept, struct atomic_temp **tp)
{
  *kept = false;
  /* A copy made to the same name earlier in this run has its temporary
     file where this one's goes.  */
  if (!atomic_batch_settle (batch, dst->name))
    return -1;
  size_t rel_len = strlen (dst->rel);
  if (rel_len && dst->rel[rel_len - 1] == '/')
    {
      /* As a copy in place would be, the name of a directory is
         refused for a regular file.  */
      error (0, ENOTDIR, _("cannot create regular file %s"),
             quoteaf (dst->name));
      return -1;
    }
  struct atomic_temp *t = xzalloc (sizeof *t);
  /* A worker may end the copy once the walk has left the directory,
     and the rename needs it: the copy holds a descriptor of its own.  */
  t->dirfd = AT_FDCWD;
  if (dst->dir)
    {
      t->dirfd = fcntl (loc_fd (dst), F_DUPFD_CLOEXEC, 0);
      if (t->dirfd < 0)
        {
          error (0, errno, _("cannot create regular file %s"),
                 quoteaf (dst->name));
          t->dirfd = AT_FDCWD;
          temp_free (t);
          return -1;
        }
    }
  t->final_rel = xstrdup (dst->rel);
  bool shortened = false;
  bool leftover_removed = false;
  set_temp_names (t, dst, shortened);
  int fd;
  for (;;)
    {
      fd = openat (t->dirfd, t->temp_rel,
                   O_WRONLY | O_CREAT | O_EXCL | O_BINARY, mode);
      if (0 <= fd)
        break;
      if (errno == ENAMETOOLONG && !shortened)
        set_temp_names (t, dst, shortened = true);
      else if (errno == EEXIST && !leftover_removed)
        {
          fd = atomic_leftover_found (t, src_st, resume);
          if (0 <= fd)
            {
              *kept = true;
              break;
            }
          if (fd == -1)
            {
              temp_free (t);
              return -1;
            }
          leftover_removed = true;
        }
      else
        {
          error (0, errno, _("cannot create regular file %s"),
                 quoteaf (t->temp_name));
          temp_free (t);
          return -1;
        }
    }
  /* The temporary's file system is noted for the batch's syncfs now,
     before anything is written to it.  Its directory is needed to
     rename it, and to set the directory's times again: not one that
     can only look names up (O_PATH, as the walk says, which opened
     it), nor the working directory, whose name the operands' names
     start from.  */
  if (batch && dst->dir && !dst->dir->search_only
      && copy_syncs_cover (batch->fs, fd, dst->dir->dev, t->temp_name))
    {
      t->batch = batch;
      t->dir_dev = dst->dir->dev;
      t->dir_ino = dst->dir->ino;
    }
  else if (batch)
    atomic_fetch_add (&batch->alone, 1);
  *tp = t;
  return fd;
}

bool
atomic_temp_end (struct atomic_temp *t, int fd, bool ok,
                 char const *final_name)
{
  /* The file first: a rename may reach storage before data not yet
     written there, and a crash would then leave the name on a file
     partly filled.  The attributes too (fsync, not fdatasync, which
     may leave the times and permissions behind): a file whose data is
     whole but whose time is the crash's would fool cp -u.  A batch
     syncs its whole file system before the rename instead.  */
  if (ok && !t->batch && fsync (fd) != 0)
    {
      error (0, errno, _("fsync failed for %s"), quoteaf (t->temp_name));
      ok = false;
    }
  if (close (fd) != 0)
    {
      error (0, errno, _("failed to close %s"), quoteaf (t->temp_name));
      ok = false;
    }
  if (ok && t->batch)
    return batch_add (t->batch, t, final_name);
  if (ok && renameat (t->dirfd, t->temp_rel, t->dirfd, t->final_rel) != 0)
    {
      error (0, errno, _("cannot move %s to %s"),
             quoteaf_n (0, t->temp_name), quoteaf_n (1, final_name));
      ok = false;
    }
  if (!ok && unlinkat (t->dirfd, t->temp_rel, 0) != 0 && errno != ENOENT)
    error (0, errno, _("cannot remove %s"), quoteaf (t->temp_name));
  temp_free (t);
  return ok;
}

enum atomic_backup
atomic_backup_link (struct loc const *dst, char const *rel)
{
  int dirfd = loc_fd (dst);
  for (int tries = 0; ; tries++)
    {
      if (linkat (dirfd, dst->rel, dirfd, rel, 0) == 0)
        return BACKUP_LINKED;
      /* An older backup of that name is replaced, as a rename would
         replace it; once, lest another process keep putting one
         back.  */
      if (errno == EEXIST && tries == 0
          && unlinkat (dirfd, rel, 0) == 0)
        continue;
      break;
    }
  /* Where no link can be made (a file system without hard links, a
     file with as many as it may have, a directory), the file is moved
     aside as without --atomic, its name missing until the copy's
     rename.  */
  if (renameat (dirfd, dst->rel, dirfd, rel) == 0)
    return BACKUP_RENAMED;
  error (0, errno, _("cannot backup %s"), quoteaf (dst->name));
  return BACKUP_FAILED;
}
