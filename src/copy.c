/* copy.c -- copy one file or tree, the way cp does.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* For each file: look at the source and the destination, decide
   whether copying is allowed and wanted (same file, -n, -u, -i), make
   room for the copy (backup, removal), create it according to the
   source's type, then give it the attributes asked for.  */

#include <config.h>

#include "system.h"
#include "areadlink.h"
#include "copy.h"
#include "copy-attr.h"
#include "copy-remote.h"
#include "dirname.h"
#include "filenamecat.h"
#include "hash.h"
#include "same-inode.h"
#include "stat-time.h"
#include "tempname.h"
#include "walk.h"
#include "workers.h"
#include "yesno.h"

#include <pthread.h>

/* A file identified by its inode, with a name: of its copy, or the
   name it was reached by.  A tree has an entry for each directory, so
   the name is kept in the entry itself.  */
struct inode_entry
{
  ino_t ino;
  dev_t dev;
  struct fill_outcome *outcome;	/* of a copy workers still fill, or NULL */
  char name[];
};

/* The outcome of the first copy of a file with other links, which a
   worker fills after the walk has gone on.  A later name is linked to
   that copy only once it is whole, and is copied afresh if it failed,
   as without workers (and in GNU cp), where a file whose copy failed
   is not remembered.  The link map's entry and the task each hold a
   reference.  */
struct fill_outcome
{
  atomic_int state;
  atomic_int refs;
};

enum { FILL_PENDING, FILL_OK, FILL_FAILED };

/* Signalled whenever a fill_outcome stops being pending.  */
static pthread_mutex_t fill_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fill_ended = PTHREAD_COND_INITIALIZER;

/* Source inodes already copied, with the name of their copy, so that
   further links to them become links to that copy, and a directory
   reached again is not copied again.  */
static Hash_table *link_map;

/* Directories this cp created, to stop copying a directory into
   itself.  Their entries have no name.  */
static Hash_table *made_dirs;

/* The non-directory operands, by inode and name, to tell one given
   twice.  */
static Hash_table *operands;

/* The files made from non-directory operands, by inode and name, which
   a later operand must not overwrite.  */
static Hash_table *made_files;

/* With POSIXLY_CORRECT set, the symbolic links this cp made, which
   it must not write through later: POSIX says to write through a
   dangling link where a file is copied, but not through one that
   copying an earlier part of the tree put there.  Their entries have
   no name.  */
static Hash_table *made_links;

/* With --jobs, the workers that copy regular files' data and
   attributes, once the walk has opened both ends; else NULL.  All the
   rest (the walk, the tables above, every decision about a file and
   its name) stays in the main thread.  */
static struct workers *pool;

/* With mpicp on more than one rank, what hands files to the other
   ranks in place of workers; else NULL.  The walk stays here, on rank
   0, which is where mpicp stops scaling.  */
static struct copy_remote const *remote;

/* The options of the copy the other ranks take part in.  */
static struct cp_options const *remote_x;

/* Whether files are copied by others than the walk: workers or other
   ranks.  */
static bool
hands_off (void)
{
  return pool || remote;
}

/* Whether regular files, and the ranges of large ones, may be copied
   by others than the walk.  */
static bool
sends_files (void)
{
  return pool || (remote && remote->send);
}

/* Whether the hard links of non-directories are kept through the
   processes owning their devices and inodes rather than this one's
   map: where subtrees may be given away, which -L prevents (and with
   which every file would cost a question to its owner).  */
static bool
links_owned (void)
{
  return (remote && remote->first_copy
          && remote_x->dereference != CP_DEREF_ALWAYS);
}

/* The copies the operands made of directories, so far: a subtree
   given to another rank must not be copied into them.  */
static struct remote_inode *made_tops;
static size_t n_made_tops;
static idx_t made_tops_alloc;

/* The files of one directory (or of an operand) handed to workers:
   whoever ends its last piece wakes the main thread, which waits for
   them before setting the directory's own attributes.  */
struct file_group
{
  struct task_group pieces;
  pthread_mutex_t lock;
  pthread_cond_t ended_cond;
  bool ended;
  atomic_bool failed;		/* a file of the group was not copied */
  struct shared_dirs *dirs;	/* for the walk's new tasks, or NULL */
  struct dir_finish *finish;	/* the directory's attributes, if they
                                   are set by whoever ends the group */
};

/* A directory's own attributes, to set once everything in it is
   copied, by whichever thread ends its group last: the walk has left
   it by then, so both ends are held by copies of its descriptors.
   NAMES holds the source's name, then the copy's.  */
struct dir_finish
{
  int src_fd;
  int dst_fd;
  struct stat src_st;
  bool created;
  bool set_mode;		/* whether to give the copy MODE at last */
  mode_t mode;
  struct cp_options const *x;
  size_t dst_name;		/* where in NAMES the copy's name starts */
  char names[];
};

/* How many directories' attributes wait in dir_finish objects, and
   the most that may, each holding two descriptors.  */
static atomic_ptrdiff_t finishes_held;
static ptrdiff_t finishes_max;

/* The directories holding one directory's source files and their
   copies, for workers that open and create the files themselves:
   copies of the walk's descriptors, which the walk may close or open
   again meanwhile.  Each task holds a reference, and so does the
   walk while it stays in the directory, so that at most one set per
   task plus the deepest directory's is open at once.  */
struct shared_dirs
{
  atomic_ptrdiff_t refs;
  struct walk_dir src;
  struct walk_dir dst;
};

/* What copy_internal knows about where it is in the tree.  */
struct copy_ctx
{
  char const *top_src;		/* the operands, for diagnostics */
  char const *top_dst;
  dev_t top_dev;		/* the operand's device, for -x */
  bool command_line;		/* this file is an operand */
  bool *into_self;		/* set when the operand is found in its copy */
  struct ancestor const *ancestors; /* the source directories above */
  struct walker *src_walk;	/* the open directories of each side */
  struct walker *dst_walk;
  struct name_buf *src_names;	/* the names of each side's files */
  struct name_buf *dst_names;
  struct file_group *files;	/* with workers, where files are counted */
  bool dst_dir_made;		/* the copy made the destination directory,
                                   so nothing is in it but what it puts */
};

/* A file as the copy reaches it: REL in the open directory DIR, or
   from the working directory if DIR is NULL (an operand).  NAME is
   its whole name from the operand on, for messages only: system calls
   get DIR and REL, so that no directory above is looked up again,
   whatever was put in its place, and a name longer than PATH_MAX
   still works.  REL is the end of NAME.  */
struct loc
{
  struct walk_dir *dir;
  char const *rel;
  char const *name;
};

/* The descriptor L's REL is relative to.  */
static int
at (struct loc const *l)
{
  return walk_fd (l->dir);
}

/* L as an end of an attribute copy, open as FD or -1.  */
static struct attr_file
loc_attr (struct loc const *l, int fd, bool created)
{
  return (struct attr_file) { l->name, fd, created, at (l), l->rel, NULL };
}

/* A source directory being copied, and the one it is in.  */
struct ancestor
{
  ino_t ino;
  dev_t dev;
  struct ancestor const *up;
};

/* The destination as found before copying.  */
struct dest
{
  bool exists;
  struct stat lst;		/* the entry itself */
  bool st_ok;			/* whether it resolves */
  struct stat st;		/* what it resolves to */
  int st_errno;			/* why not, if it does not */
  bool loops;			/* a link loop that -f replaces unseen */
};

static size_t
inode_hash (void const *p, size_t n_buckets)
{
  struct inode_entry const *e = p;
  return (e->ino ^ e->dev) % n_buckets;
}

static bool
inode_equal (void const *a, void const *b)
{
  struct inode_entry const *x = a;
  struct inode_entry const *y = b;
  return x->ino == y->ino && x->dev == y->dev;
}

static bool same_dir_entry (char const *a, char const *b);

/* Whether A and B are one file reached by one directory entry, as GNU
   cp tells an operand given twice.  */
static bool
inode_name_equal (void const *a, void const *b)
{
  struct inode_entry const *x = a;
  struct inode_entry const *y = b;
  return inode_equal (x, y) && same_dir_entry (x->name, y->name);
}

/* A new entry for ST, named NAME.  */
static struct inode_entry *
inode_entry_new (struct stat const *st, char const *name)
{
  size_t size = strlen (name) + 1;
  struct inode_entry *e = xmalloc (offsetof (struct inode_entry, name)
                                   + size);
  e->ino = st->st_ino;
  e->dev = st->st_dev;
  e->outcome = NULL;
  memcpy (e->name, name, size);
  return e;
}

static void
fill_outcome_release (struct fill_outcome *o)
{
  if (o && atomic_fetch_sub (&o->refs, 1) == 1)
    free (o);
}

static void
inode_entry_free (void *p)
{
  struct inode_entry *e = p;
  fill_outcome_release (e->outcome);
  free (e);
}

/* The entry for ST in TABLE, which tells files by inode alone, or
   NULL.  */
static struct inode_entry const *
inode_lookup (Hash_table const *table, struct stat const *st)
{
  struct inode_entry key = { .ino = st->st_ino, .dev = st->st_dev };
  return table ? hash_lookup (table, &key) : NULL;
}

/* The entry for ST reached as NAME in TABLE, which tells files by
   inode and name, or NULL.  */
static struct inode_entry const *
inode_name_lookup (Hash_table const *table, struct stat const *st,
                   char const *name)
{
  if (!table)
    return NULL;
  struct inode_entry *key = inode_entry_new (st, name);
  struct inode_entry const *e = hash_lookup (table, key);
  free (key);
  return e;
}

/* Add ST named NAME to *TABLE, made with EQUAL if it does not exist
   yet.  Return the entry that was already there for it, or NULL.  */
static struct inode_entry const *
inode_remember (Hash_table **table, Hash_comparator equal,
                struct stat const *st, char const *name)
{
  if (!*table)
    {
      *table = hash_initialize (0, NULL, inode_hash, equal, inode_entry_free);
      if (!*table)
        xalloc_die ();
    }
  struct inode_entry *e = inode_entry_new (st, name);
  struct inode_entry const *found;
  switch (hash_insert_if_absent (*table, e, (void const **) &found))
    {
    case -1:
      xalloc_die ();
    case 0:
      free (e);
      return found;
    default:
      return NULL;
    }
}

static void
inode_table_free (Hash_table **table)
{
  if (*table)
    hash_free (*table);
  *table = NULL;
}

static struct fill_outcome *
fill_outcome_new (void)
{
  struct fill_outcome *o = xmalloc (sizeof *o);
  atomic_init (&o->state, FILL_PENDING);
  atomic_init (&o->refs, 1);
  return o;
}

/* Remember that SRC_ST was copied to NAME, which a worker still fills
   if PENDING, whose reference the link map takes.  */
static void
remember_copy (struct stat const *src_st, char const *name,
               struct fill_outcome *pending)
{
  inode_remember (&link_map, inode_equal, src_st, name);
  if (pending)
    {
      struct inode_entry *e = (struct inode_entry *) inode_lookup (link_map,
                                                                   src_st);
      e->outcome = pending;
    }
}

/* Give the task being made the outcome *PENDING, if any: that of the
   first copy of a file with other links, which the walk makes and
   then waits for before linking another name to it.  PENDING is NULL
   where there is none to take.  */
static struct fill_outcome *
claim_outcome (struct fill_outcome **pending)
{
  struct fill_outcome *o = pending ? *pending : NULL;
  if (o)
    {
      atomic_fetch_add (&o->refs, 1);
      *pending = NULL;
    }
  return o;
}

/* Record that the copy O stands for is done, whole if OK.  */
static void
fill_outcome_end (struct fill_outcome *o, bool ok)
{
  if (!o)
    return;
  pthread_mutex_lock (&fill_lock);
  atomic_store (&o->state, ok ? FILL_OK : FILL_FAILED);
  pthread_cond_broadcast (&fill_ended);
  pthread_mutex_unlock (&fill_lock);
  fill_outcome_release (o);
}

/* The copy of an earlier name of the file SRC_ST, to link a new name
   to, or NULL.  Wait for one that a worker still fills, and forget
   one that failed, so that the new name is copied afresh.  */
static struct inode_entry const *
earlier_copy (struct stat const *src_st)
{
  struct inode_entry *e = (struct inode_entry *) inode_lookup (link_map,
                                                               src_st);
  if (!e || !e->outcome)
    return e;
  /* Other ranks' answers come to this thread, which ends the copy.  */
  if (remote)
    while (atomic_load (&e->outcome->state) == FILL_PENDING)
      remote->wait ();
  pthread_mutex_lock (&fill_lock);
  while (atomic_load (&e->outcome->state) == FILL_PENDING)
    pthread_cond_wait (&fill_ended, &fill_lock);
  pthread_mutex_unlock (&fill_lock);
  if (atomic_load (&e->outcome->state) == FILL_OK)
    return e;
  inode_entry_free (hash_remove (link_map, e));
  return NULL;
}

void
copy_start_jobs (int jobs)
{
  /* Waiting tasks hold descriptors (two each at most), which the
     walkers must not run short of, and keep reads in flight (see
     prefetch_source): a queue of 64 beyond the pool, or a quarter of
     what a walker may hold, if less.  */
  if (1 < jobs)
    {
      pool = workers_start (jobs, jobs + MIN (64, walker_default_max () / 4));
      /* A quarter of what the walkers may hold, as the walkers take
         half of what the files being copied leave.  */
      finishes_max = walker_default_max () / 2;
    }
}

void
copy_use_remote (struct copy_remote const *r, struct cp_options const *x)
{
  remote = r;
  remote_x = x;
  finishes_max = walker_default_max () / 2;
}

static bool finish_directory_now (struct dir_finish *f);

/* FG, which the walk left, has ended: set its directory's attributes
   and free it, making a failure its parent's.  */
static void
file_group_finish (struct file_group *fg)
{
  bool ok = finish_directory_now (fg->finish) && !atomic_load (&fg->failed);
  if (!ok)
    atomic_store (&((struct file_group *) fg->pieces.parent)->failed, true);
  pthread_cond_destroy (&fg->ended_cond);
  pthread_mutex_destroy (&fg->lock);
  free (fg);
}

static void
file_group_ended (struct task_group *g)
{
  struct file_group *fg = (struct file_group *) g;
  if (fg->finish)
    {
      file_group_finish (fg);
      return;
    }
  pthread_mutex_lock (&fg->lock);
  fg->ended = true;
  pthread_cond_signal (&fg->ended_cond);
  pthread_mutex_unlock (&fg->lock);
}

/* A new group of files, of one piece: the main thread's; itself a
   piece of PARENT, if not null, which thus ends after it.  */
static struct file_group *
file_group_new (struct file_group *parent)
{
  struct file_group *fg = xmalloc (sizeof *fg);
  task_group_init (&fg->pieces, parent ? &parent->pieces : NULL,
                   file_group_ended);
  int err = pthread_mutex_init (&fg->lock, NULL);
  if (err)
    error (EXIT_FAILURE, err, _("cannot make a lock"));
  err = pthread_cond_init (&fg->ended_cond, NULL);
  if (err)
    error (EXIT_FAILURE, err, _("cannot make a condition variable"));
  fg->ended = false;
  atomic_init (&fg->failed, false);
  fg->dirs = NULL;
  fg->finish = NULL;
  return fg;
}

/* Drop a reference to DIRS, closing them with the last.  */
static void
shared_dirs_release (struct shared_dirs *dirs)
{
  if (atomic_fetch_sub_explicit (&dirs->refs, 1, memory_order_acq_rel) != 1)
    return;
  /* Closing a directory only looked up in can't lose anything.  */
  close (dirs->src.fd);
  close (dirs->dst.fd);
  free (dirs);
}

/* The walk leaves the directory of FG's files, for one below it or
   for good: its tasks alone keep their directories open now.  */
static void
file_group_leave_dirs (struct file_group *fg)
{
  if (fg && fg->dirs)
    {
      shared_dirs_release (fg->dirs);
      fg->dirs = NULL;
    }
}

/* Allocate BASE bytes, a struct up to its flexible array of names,
   followed by copies of the names SRC and DST; set *DST_AT to where
   DST starts in that array.  */
static void *
alloc_with_names (size_t base, char const *src, char const *dst,
                  size_t *dst_at)
{
  size_t src_size = strlen (src) + 1;
  size_t dst_size = strlen (dst) + 1;
  char *p = xmalloc (base + src_size + dst_size);
  memcpy (p + base, src, src_size);
  memcpy (p + base + src_size, dst, dst_size);
  *dst_at = src_size;
  return p;
}

/* Set *SFD and *DFD to new descriptors of SDIR and DDIR, which a
   worker can keep after the walk has closed its own; return false if
   there are none to be had.  */
static bool
dup_dirs (struct walk_dir const *sdir, struct walk_dir const *ddir,
          int *sfd, int *dfd)
{
  *sfd = fcntl (sdir->fd, F_DUPFD_CLOEXEC, 0);
  if (*sfd < 0)
    return false;
  *dfd = fcntl (ddir->fd, F_DUPFD_CLOEXEC, 0);
  if (*dfd < 0)
    {
      close (*sfd);
      return false;
    }
  return true;
}

/* A new reference to the directories SDIR and DDIR, whose files FG
   counts, for a task; NULL if they can't be held twice.  */
static struct shared_dirs *
file_group_dirs (struct file_group *fg, struct walk_dir const *sdir,
                 struct walk_dir const *ddir)
{
  if (!fg->dirs)
    {
      int sfd, dfd;
      if (!dup_dirs (sdir, ddir, &sfd, &dfd))
        return NULL;
      struct shared_dirs *dirs = xzalloc (sizeof *dirs);
      atomic_init (&dirs->refs, 1);
      dirs->src.fd = sfd;
      dirs->dst.fd = dfd;
      fg->dirs = dirs;
    }
  atomic_fetch_add_explicit (&fg->dirs->refs, 1, memory_order_relaxed);
  return fg->dirs;
}

/* End the main thread's piece of FG, wait until every file handed to
   workers in it is done, and free it; return whether all were
   copied.  */
static bool
file_group_wait (struct file_group *fg)
{
  file_group_leave_dirs (fg);
  task_group_release (&fg->pieces);
  /* Other ranks' answers come to this thread, which has nothing else
     to do until they have.  */
  if (remote)
    while (!fg->ended)
      remote->wait ();
  pthread_mutex_lock (&fg->lock);
  while (!fg->ended)
    pthread_cond_wait (&fg->ended_cond, &fg->lock);
  pthread_mutex_unlock (&fg->lock);
  pthread_cond_destroy (&fg->ended_cond);
  pthread_mutex_destroy (&fg->lock);
  bool ok = !atomic_load (&fg->failed);
  free (fg);
  return ok;
}

void
copy_finish (void)
{
  if (pool)
    workers_finish (pool);
  pool = NULL;
  inode_table_free (&link_map);
  inode_table_free (&made_dirs);
  inode_table_free (&made_links);
  inode_table_free (&operands);
  inode_table_free (&made_files);
  free (made_tops);
  made_tops = NULL;
  n_made_tops = made_tops_alloc = 0;
}

static bool
follows_links (struct copy_ctx const *ctx, struct cp_options const *x)
{
  return (x->dereference == CP_DEREF_ALWAYS
          || (x->dereference == CP_DEREF_COMMAND_LINE && ctx->command_line));
}

/* Whether the non-directory SRC_ST is copied by reading its data, as
   opposed to recreating it (links, FIFOs, devices) or linking to it.  */
static bool
copies_data (struct stat const *src_st, struct cp_options const *x)
{
  if (x->hard_link || x->symbolic_link || S_ISLNK (src_st->st_mode))
    return false;
  return (S_ISREG (src_st->st_mode) || !x->recursive || x->copy_contents);
}

static void
print_verbose (char const *src, char const *dst, char const *backup)
{
  printf ("%s -> %s", quoteaf_n (0, src), quoteaf_n (1, dst));
  if (backup)
    printf (_(" (backup: %s)"), quoteaf_n (2, backup));
  putchar ('\n');
}

/* Look up DST into *D.  Return false after a diagnostic if it can't
   be told whether DST exists.  */
static bool
stat_destination (struct loc const *dst, struct dest *d)
{
  d->exists = d->st_ok = d->loops = false;
  d->st_errno = 0;
  if (fstatat (at (dst), dst->rel, &d->lst, AT_SYMLINK_NOFOLLOW) != 0)
    {
      if (errno == ENOENT)
        return true;
      error (0, errno, _("cannot stat %s"), quoteaf (dst->name));
      return false;
    }
  d->exists = true;
  if (S_ISLNK (d->lst.st_mode))
    {
      d->st_ok = fstatat (at (dst), dst->rel, &d->st, 0) == 0;
      if (!d->st_ok)
        d->st_errno = errno;
    }
  else
    {
      d->st = d->lst;
      d->st_ok = true;
    }
  return true;
}

/* Set *ST to the device and inode of the directory L is in: of the
   one held open, or for an operand of the one its name leads to.  */
static bool
parent_status (struct loc const *l, struct stat *st)
{
  if (l->dir)
    {
      st->st_dev = l->dir->dev;
      st->st_ino = l->dir->ino;
      return true;
    }
  char *dir = dir_name (l->rel);
  bool ok = stat (dir, st) == 0;
  free (dir);
  return ok;
}

/* Do A and B stand for the same directory entry?  */
static bool
same_entry (struct loc const *a, struct loc const *b)
{
  char *a_base = base_name (a->rel);
  char *b_base = base_name (b->rel);
  bool same = STREQ (a_base, b_base);
  free (a_base);
  free (b_base);
  if (same)
    {
      struct stat a_st, b_st;
      same = (!parent_status (a, &a_st) || !parent_status (b, &b_st)
              || SAME_INODE (a_st, b_st));
    }
  return same;
}

/* Do the names A and B stand for the same directory entry, their
   directories compared as they are rather than as what links among
   them lead to?  This is how GNU cp tells a name given twice.  */
static bool
same_dir_entry (char const *a, char const *b)
{
  char const *a_base = last_component (a);
  char const *b_base = last_component (b);
  size_t len = base_len (a_base);
  if (! (len == base_len (b_base) && memcmp (a_base, b_base, len) == 0))
    return false;
  char *a_dir = dir_name (a);
  char *b_dir = dir_name (b);
  struct stat a_st, b_st;
  bool same = (lstat (a_dir, &a_st) == 0 && lstat (b_dir, &b_st) == 0
               && SAME_INODE (a_st, b_st));
  free (a_dir);
  free (b_dir);
  return same;
}

/* GNU cp 9.10 follows a link for --keep-directory-symlink only
   together with --copy-contents, and not where the link is to be
   moved aside or removed, nor where links are made instead of
   copies.  */
bool
follows_dest_dir_links (struct cp_options const *x)
{
  return (x->keep_directory_symlink && x->copy_contents
          && !x->hard_link && !x->symbolic_link
          && x->backup_type == no_backups && !x->remove_destination);
}

/* Whether the copy of SRC_ST replaces a destination symbolic link
   rather than writing through it.  Only a regular file's data is
   written through a link, and a directory copied into one by
   --keep-directory-symlink; a link about to be moved aside or removed
   is not written through either.  */
static bool
replaces_dest_link (struct stat const *src_st, struct cp_options const *x)
{
  if (S_ISDIR (src_st->st_mode))
    return !follows_dest_dir_links (x);
  return (!copies_data (src_st, x)
          || x->backup_type != no_backups || x->remove_destination);
}

/* Whether copying SRC (SRC_ST, followed or not as this copy follows
   it) over the existing DST (DST_ST: the entry, or what it leads to,
   as replaces_dest_link says) can go ahead without destroying the
   data it would read, as GNU cp decides it.  Set *DONE if there is
   nothing left to do: the hard link asked for is already there.  */
static bool
copy_onto_ok (struct loc const *src, struct stat const *src_st,
              struct loc const *dst, struct stat const *dst_st,
              struct cp_options const *x, bool *done)
{
  bool same = SAME_INODE (*src_st, *dst_st);
  bool entries_only = x->dereference == CP_DEREF_NEVER;
  bool backups = x->backup_type != no_backups;
  struct stat src_lst, dst_lst;
  struct stat const *src_ent = src_st;
  struct stat const *dst_ent = dst_st;
  bool same_ent = same;

  *done = false;
  if (same && x->hard_link)
    {
      *done = true;
      return true;
    }

  if (entries_only)
    {
      /* Either of two distinct links may replace the other.  */
      if (S_ISLNK (src_st->st_mode) && S_ISLNK (dst_st->st_mode))
        {
          if (same_entry (src, dst))
            return false;
          *done = same && !backups;
          return true;
        }
    }
  else
    {
      if (!same)
        return true;
      if (fstatat (at (src), src->rel, &src_lst, AT_SYMLINK_NOFOLLOW) != 0
          || fstatat (at (dst), dst->rel, &dst_lst, AT_SYMLINK_NOFOLLOW) != 0)
        return true;
      src_ent = &src_lst;
      dst_ent = &dst_lst;
      same_ent = SAME_INODE (src_lst, dst_lst);
      /* Two links to one file: the destination link goes first.  */
      if (S_ISLNK (src_lst.st_mode) && S_ISLNK (dst_lst.st_mode)
          && x->remove_destination)
        return true;
    }

  /* Removing one of a file's names first leaves it under the other.  */
  if (same_ent && x->remove_destination && !S_ISLNK (src_ent->st_mode)
      && 1 < src_ent->st_nlink && !same_entry (src, dst))
    return true;

  if (backups)
    {
      if (same_ent)
        return !same_entry (src, dst);
      /* Moving the file aside would leave the source link, which
         leads to it, dangling before it is read.  */
      return (entries_only || !S_ISLNK (src_ent->st_mode)
              || S_ISLNK (dst_ent->st_mode));
    }

  if (!S_ISLNK (src_ent->st_mode) && !S_ISLNK (dst_ent->st_mode))
    {
      if (!SAME_INODE (*src_ent, *dst_ent))
        return true;
      if (x->hard_link)
        {
          *done = true;
          return true;
        }
    }

  /* A destination link is replaced by the new link, or removed.  */
  if ((x->symbolic_link || x->remove_destination)
      && S_ISLNK (dst_ent->st_mode))
    return true;

  if (entries_only)
    {
      struct stat src_to = *src_ent;
      struct stat dst_to = *dst_ent;
      if ((S_ISLNK (src_ent->st_mode)
           && fstatat (at (src), src->rel, &src_to, 0) != 0)
          || (S_ISLNK (dst_ent->st_mode)
              && fstatat (at (dst), dst->rel, &dst_to, 0) != 0))
        return true;
      if (!SAME_INODE (src_to, dst_to))
        return true;
      if (x->hard_link)
        {
          *done = !S_ISLNK (dst_ent->st_mode);
          return true;
        }
    }
  return false;
}

/* Rename the existing DST out of the way as its backup.  Return the
   backup's whole name, or NULL after a diagnostic.  */
static char *
make_backup (struct loc const *src, struct stat const *src_st,
             struct loc const *dst, struct cp_options const *x)
{
  char *rel = find_backup_file_name (at (dst), dst->rel, x->backup_type);
  struct stat st;
  char *backup = NULL;
  if (fstatat (at (dst), rel, &st, AT_SYMLINK_NOFOLLOW) == 0
      && SAME_INODE (st, *src_st))
    error (0, 0, _("backing up %s might destroy source;  %s not copied"),
           quoteaf_n (0, dst->name), quoteaf_n (1, src->name));
  else if (renameat (at (dst), dst->rel, at (dst), rel) != 0)
    error (0, errno, _("cannot backup %s"), quoteaf (dst->name));
  else
    {
      size_t dir_len = dst->rel - dst->name;
      size_t rel_size = strlen (rel) + 1;
      backup = xmalloc (dir_len + rel_size);
      memcpy (backup, dst->name, dir_len);
      memcpy (backup + dir_len, rel, rel_size);
    }
  free (rel);
  return backup;
}

/* The copy to DST failed: put its BACKUP, named as make_backup named
   it, back in its place, saying so if VERBOSE.  */
static void
restore_backup (char const *backup, struct loc const *dst, bool verbose)
{
  char const *rel = backup + (dst->rel - dst->name);
  if (renameat (at (dst), rel, at (dst), dst->rel) != 0)
    error (0, errno, _("cannot un-backup %s"), quoteaf (dst->name));
  else if (verbose)
    printf (_("%s -> %s (unbackup)\n"), quoteaf_n (0, backup),
            quoteaf_n (1, dst->name));
}

/* Remove DST to make room for its copy, saying so if VERBOSE.  */
static bool
remove_destination (struct loc const *dst, bool verbose)
{
  if (unlinkat (at (dst), dst->rel, 0) != 0 && errno != ENOENT)
    {
      error (0, errno, _("cannot remove %s"), quoteaf (dst->name));
      return false;
    }
  if (verbose)
    printf (_("removed %s\n"), quoteaf (dst->name));
  return true;
}

/* The permissions to create a non-directory copy of SRC_ST with, before
   the umask: the source's, or with --no-preserve=mode the default.  */
static mode_t
new_file_mode (struct stat const *src_st, struct cp_options const *x)
{
  return (x->explicit_no_preserve_mode
          ? S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH
          : src_st->st_mode & (S_IRWXU | S_IRWXG | S_IRWXO));
}

/* Whether POSIX's rules, which write through a dangling symbolic link
   in the destination, are asked for.  */
static bool
posixly_correct (void)
{
  return getenv ("POSIXLY_CORRECT") != NULL;
}

/* Is DST a symbolic link that leads nowhere?  */
static bool
dangling_link (struct loc const *dst)
{
  struct stat st;
  return (fstatat (at (dst), dst->rel, &st, AT_SYMLINK_NOFOLLOW) == 0
          && S_ISLNK (st.st_mode)
          && fstatat (at (dst), dst->rel, &st, 0) != 0 && errno == ENOENT);
}

/* Open DST for the data of SRC_ST.  EXISTS says whether DST is still
   there: it is then truncated in place, as GNU cp does, keeping its
   links, owner and permissions, or with -f replaced if it can't be
   opened.  A new file is created exclusively, so that no link planted
   there is followed, with permissions no wider than the source's and,
   while the owner is not yet set, no wider than the owner's.  */
static int
open_destination (struct loc const *dst, struct stat const *src_st,
                  bool exists, bool *created, struct cp_options const *x)
{
  *created = false;
  if (exists)
    {
      int fd = openat (at (dst), dst->rel,
                       (O_WRONLY | O_BINARY
                        | (x->attributes_only ? 0 : O_TRUNC)));
      if (0 <= fd)
        return fd;
      /* A name that leads nowhere since it was looked at, a link left
         dangling or a file a network file system's stale cache still
         showed, is dealt with as a new file's name is, below.  */
      if (errno != ENOENT)
        {
          if (!x->force)
            {
              error (0, errno, _("cannot create regular file %s"),
                     quoteaf (dst->name));
              return -1;
            }
          if (!remove_destination (dst, x->verbose))
            return -1;
        }
    }

  mode_t mode = new_file_mode (src_st, x);
  if (x->preserve_mode && x->preserve_ownership)
    mode &= S_IRWXU;
  mode |= xattr_write_access (x);
  int fd = openat (at (dst), dst->rel,
                   O_WRONLY | O_CREAT | O_EXCL | O_BINARY, mode);
  if (fd < 0 && errno == EEXIST && dangling_link (dst))
    {
      /* A link planted where the copy goes is refused, unless POSIX's
         rules, which say to write through it, are asked for.  */
      if (!posixly_correct ())
        {
          error (0, 0, _("not writing through dangling symlink %s"),
                 quoteaf (dst->name));
          return -1;
        }
      fd = openat (at (dst), dst->rel, O_WRONLY | O_CREAT | O_BINARY, mode);
    }
  if (fd < 0)
    {
      int e = errno;
      size_t len = strlen (dst->rel);
      if (e == EISDIR && len && dst->rel[len - 1] == '/')
        e = ENOTDIR;
      error (0, e, _("cannot create regular file %s"), quoteaf (dst->name));
      return -1;
    }
  *created = true;
  return fd;
}

/* A regular file whose both ends are open, to fill.  */
struct open_copy
{
  struct attr_file src;
  struct attr_file dst;
  struct stat src_st;
  struct stat dst_st;
};

/* After C's data was copied (successfully if OK), copy its
   attributes, and close both ends.  Return whether all went well.  */
static bool
finish_copy (struct open_copy *c, bool ok, struct cp_options const *x)
{
  if (ok)
    {
      struct attr_file out = c->dst;
      out.st = &c->dst_st;
      ok = copy_attributes (c->src, &c->src_st, out, x);
    }

  if (close (c->dst.fd) != 0)
    {
      error (0, errno, _("failed to close %s"), quoteaf (c->dst.name));
      ok = false;
    }
  if (close (c->src.fd) != 0)
    {
      error (0, errno, _("failed to close %s"), quoteaf (c->src.name));
      ok = false;
    }
  return ok;
}

/* --reflink=always could not clone the source into DST, a file the
   copy created: remove it, as GNU cp does, rather than leave an empty
   file where no copy was made.  */
static void
remove_failed_clone (struct attr_file dst)
{
  if (unlinkat (dst.dirfd, dst.rel, 0) != 0 && errno != ENOENT)
    error (0, errno, _("cannot remove %s"), quoteaf (dst.name));
}

/* Copy the data, then the attributes, of C's source to its
   destination, and close both.  */
static bool
fill_copy (struct open_copy *c, struct cp_options const *x)
{
  bool ok = true;
  bool clone_failed = false;
  if (!x->attributes_only)
    {
      struct xfer_file in = { c->src.fd, c->src.name, &c->src_st, true };
      struct xfer_file out = { c->dst.fd, c->dst.name, &c->dst_st, true };
      struct xfer_report report;
      ok = xfer_copy (&in, &out, &x->xfer, &report);
      clone_failed = (!ok && x->xfer.reflink == XFER_REFLINK_ALWAYS
                      && !report.reflinked);
      if (x->debug)
        {
          /* Whole, among the other workers' reports.  */
          flockfile (stdout);
          xfer_print_debug (stdout, &report);
          funlockfile (stdout);
        }
    }
  ok = finish_copy (c, ok, x);
  if (clone_failed && c->dst.created)
    remove_failed_clone (c->dst);
  return ok;
}

/* A file for a worker to fill, and the group it ends a piece of.  Its
   ends are reached only by descriptor, as the directories they are in
   may be closed before it runs; the names are its own copies.  */
struct copy_task
{
  struct open_copy c;
  struct file_group *group;
  struct cp_options const *x;
  char *src_name;
  char *dst_name;
  struct fill_outcome *outcome;	/* to report to, or NULL */
};

static void
run_copy_task (void *arg)
{
  struct copy_task *t = arg;
  struct file_group *group = t->group;
  bool ok = fill_copy (&t->c, t->x);
  if (!ok)
    atomic_store (&group->failed, true);
  fill_outcome_end (t->outcome, ok);
  free (t->src_name);
  free (t->dst_name);
  free (t);
  task_group_release (&group->pieces);
}

/* The attribute end named NAME, a copy of another file's, open as FD.  */
static struct attr_file
task_end (char *name, int fd, bool created)
{
  return (struct attr_file) { name, fd, created, -1, last_component (name) };
}

/* Make T the task of filling C, a piece of GROUP, with names of its
   own.  */
static void
copy_task_init (struct copy_task *t, struct open_copy const *c,
                struct file_group *group, struct cp_options const *x)
{
  t->src_name = xstrdup (c->src.name);
  t->dst_name = xstrdup (c->dst.name);
  t->c = *c;
  t->c.src = task_end (t->src_name, c->src.fd, false);
  t->c.dst = task_end (t->dst_name, c->dst.fd, c->dst.created);
  t->group = group;
  t->x = x;
  t->outcome = NULL;
}

/* Have a worker fill C, as one piece of GROUP, taking the outcome
   *PENDING to report to, if any.  */
static void
hand_over (struct open_copy const *c, struct file_group *group,
           struct fill_outcome **pending, struct cp_options const *x)
{
  struct copy_task *t = xmalloc (sizeof *t);
  copy_task_init (t, c, group, x);
  t->outcome = claim_outcome (pending);
  task_group_hold (&group->pieces);
  workers_submit (pool, run_copy_task, t);
}

/* A large file whose ranges workers copy at once: when the last is
   done, its attributes are set and both ends closed, as fill_copy
   does for a file copied in one go.  */
struct chunked_copy
{
  struct task_group ranges;	/* its parent: the file's group */
  struct xfer_split split;
  struct copy_task t;
};

static void
run_range_task (void *arg)
{
  struct chunked_copy *f = arg;
  xfer_copy_ranges (&f->split);
  task_group_release (&f->ranges);
}

static void
chunked_copy_done (struct task_group *g)
{
  struct chunked_copy *f = (struct chunked_copy *) g;
  struct copy_task *t = &f->t;
  bool ok = xfer_split_end (&f->split);
  if (t->x->debug)
    {
      flockfile (stdout);
      xfer_print_debug (stdout, &f->split.report);
      funlockfile (stdout);
    }
  ok = finish_copy (&t->c, ok, t->x);
  if (!ok)
    atomic_store (&t->group->failed, true);
  fill_outcome_end (t->outcome, ok);
  free (t->src_name);
  free (t->dst_name);
  free (f);
}

/* Have other ranks copy the ranges of F, whose ends are SRC (reached
   by following links if FOLLOW) and DST, each a piece of F's; a range
   that none takes (on a rank given a subtree, none has asked for work)
   is copied here, after those before it.  */
static void
send_ranges (struct chunked_copy *f, struct loc const *src, bool follow,
             struct loc const *dst)
{
  for (intmax_t i = 0; i < f->split.ranges; i++)
    {
      struct remote_file rf = { src->dir, dst->dir, src->name, src->rel,
                                dst->name, dst->rel, &f->t.c.src_st, follow,
                                f, &f->split, i, &f->t.c.dst_st };
      task_group_hold (&f->ranges);
      if (!remote->send (&rf))
        {
          xfer_copy_one_range (&f->split, i);
          task_group_release (&f->ranges);
        }
    }
}

/* If C's source, SRC (reached by following links if FOLLOW) to DST, is
   large enough, have workers or other ranks copy it in ranges, as a
   piece of GROUP, taking the outcome *PENDING to report to, if any,
   and return true; else return false, having done nothing.  */
static bool
hand_over_chunks (struct open_copy const *c, struct loc const *src,
                  bool follow, struct loc const *dst,
                  struct file_group *group, struct fill_outcome **pending,
                  struct cp_options const *x)
{
  if (x->attributes_only)
    return false;
  off_t chunk = xfer_chunk_size ();
  if (c->src_st.st_size < chunk)
    return false;

  struct chunked_copy *f = xmalloc (sizeof *f);
  struct copy_task *t = &f->t;
  copy_task_init (t, c, group, x);
  struct xfer_file in = { c->src.fd, t->src_name, &t->c.src_st, true };
  struct xfer_file out = { c->dst.fd, t->dst_name, &t->c.dst_st, true };
  if (!xfer_split_start (&f->split, &in, &out, &x->xfer, chunk))
    {
      free (t->src_name);
      free (t->dst_name);
      free (f);
      return false;
    }

  /* A task per worker, each copying ranges until none is left; or a
     message per range, which the ranks take as they are free.  */
  t->outcome = claim_outcome (pending);
  task_group_init (&f->ranges, &group->pieces, chunked_copy_done);
  if (remote)
    send_ranges (f, src, follow, dst);
  else
    for (intmax_t i = 0; i < MIN (f->split.ranges, x->jobs); i++)
      {
        task_group_hold (&f->ranges);
        workers_submit (pool, run_range_task, f);
      }
  task_group_release (&f->ranges);
  return true;
}

/* Whether FD, opened as NAME, is still the file WANT that the walk
   looked at; set *ST to its status.  Say why not if not.  */
static bool
still_same_file (int fd, char const *name, struct stat *st,
                 struct stat const *want)
{
  if (fstat (fd, st) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (name));
      return false;
    }
  if (!SAME_INODE (*st, *want))
    {
      error (0, 0, _("skipping file %s, as it was replaced while being copied"),
             quoteaf (name));
      return false;
    }
  return true;
}

/* Open SRC to read it, following a symbolic link if FOLLOW.  */
static int
open_source (struct loc const *src, bool follow)
{
  return openat (at (src), src->rel,
                 O_RDONLY | O_BINARY | (follow ? 0 : O_NOFOLLOW));
}

/* Copy the data and attributes of the file SRC (status SRC_ST, reached
   by following links if FOLLOW, and already open as SRC_FD unless that
   is negative) to DST.  With workers and a GROUP, workers copy a large
   file in ranges once both ends are open, and any other one too unless
   HERE says this thread is to: a worker's, or another rank's, copying
   a file handed over whole, where the walk's passes false; a failure
   of theirs is GROUP's.  The task that copies the data takes the
   outcome *PENDING, if any, which only the walk has: a file handed
   over whole has no other name copied meanwhile.  */
static _GL_ATTRIBUTE_NOINLINE bool
copy_data_file (struct loc const *src, struct stat const *src_st,
                bool follow, int src_fd, struct loc const *dst, bool exists,
                struct file_group *group, bool here,
                struct fill_outcome **pending, struct cp_options const *x)
{
  if (src_fd < 0)
    src_fd = open_source (src, follow);
  if (src_fd < 0)
    {
      error (0, errno, _("cannot open %s for reading"), quoteaf (src->name));
      return false;
    }

  struct open_copy c;
  if (!still_same_file (src_fd, src->name, &c.src_st, src_st))
    goto close_src;

  bool created;
  int dst_fd = open_destination (dst, &c.src_st, exists, &created, x);
  if (dst_fd < 0)
    goto close_src;
  c.src = loc_attr (src, src_fd, false);
  c.dst = loc_attr (dst, dst_fd, created);

  if (fstat (dst_fd, &c.dst_st) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (dst->name));
      if (close (dst_fd) != 0)
        error (0, errno, _("failed to close %s"), quoteaf (dst->name));
      goto close_src;
    }
  /* A new file that --reflink=always fails to clone into is removed
     by its name, in a directory that only this thread is sure to hold
     open until then; a clone is quick anyway.  */
  bool removed_if_unclonable = (created
                                && x->xfer.reflink == XFER_REFLINK_ALWAYS);
  if (group && sends_files () && !removed_if_unclonable)
    {
      if (hand_over_chunks (&c, src, follow, dst, group, pending, x))
        return true;
      if (pool && !here)
        {
          hand_over (&c, group, pending, x);
          return true;
        }
    }
  return fill_copy (&c, x);

 close_src:
  if (close (src_fd) != 0)
    error (0, errno, _("failed to close %s"), quoteaf (src->name));
  return false;
}

/* A regular file for a worker to copy whole, from opening its source
   to closing both ends, into a directory the copy made, where nothing
   can be in its way.  NAMES holds the source's name, then the
   copy's.  */
struct new_file_task
{
  struct shared_dirs *dirs;
  struct file_group *group;
  struct cp_options const *x;
  struct stat src_st;		/* as the walk saw it */
  bool follow;
  int src_fd;			/* the source, if the walk opened it */
  size_t src_rel;		/* where in its name each end's own */
  size_t dst_rel;		/* name starts */
  size_t dst_name;		/* where in NAMES the copy's name starts */
  char names[];
};

/* Copy the regular file SRC (status SRC_ST as the walk saw it, open
   as SRC_FD unless that is negative) to DST, a new name in a directory
   the copy made, from opening the source to closing both ends: what a
   worker or another rank does with a file handed over whole.  With
   workers and a GROUP, a large file is copied by them in ranges.  */
static bool
copy_new_file (struct loc const *src, struct stat const *src_st, bool follow,
               int src_fd, struct loc const *dst, struct file_group *group,
               struct cp_options const *x)
{
  return copy_data_file (src, src_st, follow, src_fd, dst, false, group, true,
                         NULL, x);
}

static void
run_new_file_task (void *arg)
{
  struct new_file_task *t = arg;
  struct file_group *group = t->group;
  char const *dst_name = t->names + t->dst_name;
  struct loc src = { &t->dirs->src, t->names + t->src_rel, t->names };
  struct loc dst = { &t->dirs->dst, dst_name + t->dst_rel, dst_name };
  if (!copy_new_file (&src, &t->src_st, t->follow, t->src_fd, &dst, group,
                      t->x))
    atomic_store (&group->failed, true);
  shared_dirs_release (t->dirs);
  free (t);
  task_group_release (&group->pieces);
}

bool
copy_remote_file (struct remote_at const *f, struct cp_options const *x)
{
  struct walk_dir sdir = { .fd = f->src_fd };
  struct walk_dir ddir = { .fd = f->dst_fd };
  struct loc src = { &sdir, f->src_rel, f->src_name };
  struct loc dst = { &ddir, f->dst_rel, f->dst_name };
  return copy_new_file (&src, &f->src_st, f->follow, -1, &dst, NULL, x);
}

/* Open F's source, or its copy if DST, for a range of it, and check
   it is the file the walk saw; return its descriptor, or -1 after a
   diagnostic.  */
static int
open_remote_end (struct remote_at const *f, bool dst)
{
  int dirfd = dst ? f->dst_fd : f->src_fd;
  char const *rel = dst ? f->dst_rel : f->src_rel;
  char const *name = dst ? f->dst_name : f->src_name;
  struct stat const *want = dst ? &f->dst_st : &f->src_st;
  int flags = (dst ? O_WRONLY : O_RDONLY) | O_BINARY | O_CLOEXEC;
  if (dst || !f->follow)
    flags |= O_NOFOLLOW;
  int fd = openat (dirfd, rel, flags);
  if (fd < 0)
    {
      error (0, errno, (dst ? _("cannot open %s for writing")
                        : _("cannot open %s for reading")), quoteaf (name));
      return -1;
    }
  struct stat st;
  if (still_same_file (fd, name, &st, want))
    return fd;
  close (fd);
  return -1;
}

bool
copy_remote_range (struct remote_at const *f, off_t chunk, intmax_t ranges,
                   int direct, intmax_t range, struct held_errors *said,
                   struct xfer_report *report, struct cp_options const *x)
{
  *said = (struct held_errors) { NULL, 0 };
  *report = (struct xfer_report) { .method = XFER_METHOD_READ };
  /* The range may be copied while this process walks a subtree, whose
     own diagnostics are held for its answer.  */
  struct error_hold_scope opening;
  error_hold_take (&opening, said);
  int src_fd = open_remote_end (f, false);
  int dst_fd = src_fd < 0 ? -1 : open_remote_end (f, true);
  error_hold_give_back (&opening);
  bool ok = 0 <= dst_fd;
  if (ok)
    {
      struct xfer_opts opts = x->xfer;
      opts.direct = direct;
      struct xfer_file in = { src_fd, f->src_name, &f->src_st, true };
      struct xfer_file out = { dst_fd, f->dst_name, &f->dst_st, true };
      struct xfer_split split;
      xfer_split_join (&split, &in, &out, &opts, chunk, ranges);
      struct held_errors more;
      ok = xfer_copy_range (&split, range, &more, report);
      *said = more;
      struct error_hold_scope closing;
      error_hold_take (&closing, said);
      if (close (dst_fd) != 0)
        {
          error (0, errno, _("failed to close %s"), quoteaf (f->dst_name));
          ok = false;
        }
      error_hold_give_back (&closing);
    }
  /* Closing a file only read from can't lose anything.  */
  if (0 <= src_fd)
    close (src_fd);
  return ok;
}

void
copy_remote_dir_ended (void *token, bool ok, struct held_errors *said)
{
  struct file_group *fg = token;
  error_print_held (said);
  if (!ok)
    atomic_store (&fg->failed, true);
  task_group_release (&fg->pieces);
}

void
copy_remote_ended (void *token, intmax_t range, bool ok,
                   struct held_errors *said, struct xfer_report const *report)
{
  if (range < 0)
    {
      struct file_group *fg = token;
      error_print_held (said);
      if (!ok)
        atomic_store (&fg->failed, true);
      task_group_release (&fg->pieces);
    }
  else
    {
      struct chunked_copy *f = token;
      xfer_split_merge (&f->split, range * f->split.chunk, ok, said, report);
      task_group_release (&f->ranges);
    }
}

/* Where a worker will copy the regular file SRC (status SRC_ST,
   reached by following links if FOLLOW) soon, open it now and ask for
   the start of its data, returning the descriptor, or -1 to leave the
   opening and its messages to the worker.  Waiting tasks keep the
   device busy this way: a worker reads one file at a time, and a copy
   of a tree whose data is not cached would otherwise have but one read
   per worker in flight (with two workers it took 0.78 of GNU cp's time
   on a cold real tree, and 0.57 with the reads asked for here).  Not
   with direct I/O or --uncached, which keep the data out of the page
   cache, nor for empty files, which have nothing to read.  */
static int
prefetch_source (struct loc const *src, struct stat const *src_st,
                 bool follow, struct cp_options const *x)
{
  enum { PREFETCH_BYTES = 512 * 1024 };
  if (src_st->st_size == 0 || x->attributes_only
      || x->xfer.direct || x->xfer.uncached)
    return -1;
  int fd = open_source (src, follow);
#if HAVE_POSIX_FADVISE
  /* Only advice: the copy reads the file whatever comes of it.  */
  if (0 <= fd)
    posix_fadvise (fd, 0, MIN (src_st->st_size, PREFETCH_BYTES),
                   POSIX_FADV_WILLNEED);
#endif
  return fd;
}

/* Have another rank copy SRC to DST as hand_over_new_file says.  */
static bool
send_new_file (struct loc const *src, struct stat const *src_st,
               bool follow, struct loc const *dst, struct file_group *fg)
{
  struct remote_file f = { src->dir, dst->dir, src->name, src->rel,
                           dst->name, dst->rel, src_st, follow, fg, NULL, -1,
                           NULL };
  task_group_hold (&fg->pieces);
  if (remote->send (&f))
    return true;
  task_group_release (&fg->pieces);
  return false;
}

/* Have a worker or another rank copy the regular file SRC (status
   SRC_ST, reached by following links if FOLLOW) to DST, a name in a
   directory this copy made, as a piece of FG.  Return false, leaving
   it to the walk, if the directories can't be shared.  */
static _GL_ATTRIBUTE_NOINLINE bool
hand_over_new_file (struct loc const *src, struct stat const *src_st,
                    bool follow, struct loc const *dst,
                    struct file_group *fg, struct cp_options const *x)
{
  if (remote)
    return send_new_file (src, src_st, follow, dst, fg);
  struct shared_dirs *dirs = file_group_dirs (fg, src->dir, dst->dir);
  if (!dirs)
    return false;
  size_t dst_at;
  struct new_file_task *t
    = alloc_with_names (offsetof (struct new_file_task, names),
                        src->name, dst->name, &dst_at);
  t->dirs = dirs;
  t->group = fg;
  t->x = x;
  t->src_st = *src_st;
  t->follow = follow;
  t->src_fd = prefetch_source (src, src_st, follow, x);
  t->src_rel = src->rel - src->name;
  t->dst_rel = dst->rel - dst->name;
  t->dst_name = dst_at;
  task_group_hold (&fg->pieces);
  workers_submit (pool, run_new_file_task, t);
  return true;
}

/* A link to make: to TARGET, symbolic or hard (following TARGET if
   it is a symbolic link and FOLLOW); a hard link's TARGET is relative
   to the descriptor TARGET_DIR.  */
struct new_link
{
  char const *target;
  bool symbolic;
  bool follow;
  int target_dir;
  int dir;			/* what the new link's name is relative to */
};

static int make_link (struct loc const *dst, struct new_link *l,
                      bool replace);

/* Remember DST, a symbolic link just made, where POSIX's rules could
   later have a copy written through it.  */
static void
remember_made_link (struct loc const *dst)
{
  struct stat st;
  if (posixly_correct ()
      && fstatat (at (dst), dst->rel, &st, AT_SYMLINK_NOFOLLOW) == 0)
    inode_remember (&made_links, inode_equal, &st, "");
}

/* Recreate the symbolic link SRC as DST, replacing DST if REPLACE.  */
static bool
copy_symlink (struct loc const *src, struct stat const *src_st,
              struct loc const *dst, bool replace,
              struct cp_options const *x)
{
  char *target = areadlinkat (at (src), src->rel);
  if (!target)
    {
      error (0, errno, _("cannot read symbolic link %s"),
             quoteaf (src->name));
      return false;
    }
  struct new_link l = { target, true, false, AT_FDCWD, at (dst) };
  bool ok = make_link (dst, &l, replace) == 0;
  if (!ok)
    error (0, errno, _("cannot create symbolic link %s"),
           quoteaf (dst->name));
  else
    remember_made_link (dst);
  free (target);
  return ok && copy_attributes (loc_attr (src, -1, false), src_st,
                                loc_attr (dst, -1, true), x);
}

/* Recreate the FIFO, device or socket SRC as DST.  */
static bool
copy_special (struct loc const *src, struct stat const *src_st,
              struct loc const *dst, struct cp_options const *x)
{
  mode_t perms = new_file_mode (src_st, x);
  if (S_ISFIFO (src_st->st_mode))
    {
      if (mkfifoat (at (dst), dst->rel, perms) != 0)
        {
          error (0, errno, _("cannot create fifo %s"), quoteaf (dst->name));
          return false;
        }
    }
  else if (mknodat (at (dst), dst->rel, (src_st->st_mode & S_IFMT) | perms,
                    src_st->st_rdev) != 0)
    {
      error (0, errno, _("cannot create special file %s"),
             quoteaf (dst->name));
      return false;
    }
  return copy_attributes (loc_attr (src, -1, false), src_st,
                          loc_attr (dst, -1, true), x);
}

static int
make_link_at (char *name, void *arg)
{
  struct new_link const *l = arg;
  return (l->symbolic
          ? symlinkat (l->target, l->dir, name)
          : linkat (l->target_dir, l->target, l->dir, name,
                    l->follow ? AT_SYMLINK_FOLLOW : 0));
}

/* Make the link L at DST.  If DST exists and REPLACE (-f), make the
   link under a new name beside DST and rename it over DST, so that
   DST is never missing, and a target reached through DST itself is
   still there to be linked to.  Return 0, or -1 with errno set.  */
static int
make_link (struct loc const *dst, struct new_link *l, bool replace)
{
  if (make_link_at ((char *) dst->rel, l) == 0)
    return 0;
  if (! (replace && errno == EEXIST))
    return -1;

  char *dir = dir_name (dst->rel);
  char *tmp = file_name_concat (dir, "cpddXXXXXX", NULL);
  free (dir);
  int r = try_tempname (tmp, 0, l, make_link_at);
  if (r == 0)
    {
      r = renameat (l->dir, tmp, l->dir, dst->rel);
      int e = errno;
      /* rename does nothing if both are links to one file.  */
      if (unlinkat (l->dir, tmp, 0) != 0 && errno != ENOENT)
        r = -1;
      else
        errno = e;
    }
  free (tmp);
  return r;
}

/* -s: make DST a symbolic link to SRC, replacing DST if REPLACE.  A
   relative SRC is only right if DST is in the working directory.  */
static bool
make_symlink (struct loc const *src, struct loc const *dst, bool replace)
{
  if (src->name[0] != '/')
    {
      char *dir = dir_name (dst->name);
      struct stat dot, dir_st;
      bool here = (STREQ (dir, ".")
                   || (stat (".", &dot) == 0 && stat (dir, &dir_st) == 0
                       && SAME_INODE (dot, dir_st)));
      free (dir);
      if (!here)
        {
          error (0, 0,
                 _("%s: can make relative symbolic links only in current directory"),
                 quotef (dst->name));
          return false;
        }
    }
  struct new_link l = { src->name, true, false, AT_FDCWD, at (dst) };
  if (make_link (dst, &l, replace) != 0)
    {
      error (0, errno, _("cannot create symbolic link %s to %s"),
             quoteaf_n (0, dst->name), quoteaf_n (1, src->name));
      return false;
    }
  remember_made_link (dst);
  return true;
}

/* -l, or a further link under --preserve=links: make DST a hard link
   to TARGET (named TARGET_NAME), or to what it points to if FOLLOW;
   replace DST if REPLACE.  */
static bool
make_hard_link (int target_dir, char const *target, char const *target_name,
                struct loc const *dst, bool follow, bool replace)
{
  struct new_link l = { target, false, follow, target_dir, at (dst) };
  if (make_link (dst, &l, replace) != 0)
    {
      error (0, errno, _("cannot create hard link %s to %s"),
             quoteaf_n (0, dst->name), quoteaf_n (1, target_name));
      return false;
    }
  return true;
}

/* Whether the copy of SRC_ST is remembered in link_map: with
   --preserve=links, that of a file which other links may reach (as
   GNU cp tells them, not with -l, which links anyway); and that of a
   directory given as an operand, to tell it when it is reached
   again.  */
static bool
remembers_copy (struct stat const *src_st, struct copy_ctx const *ctx,
                struct cp_options const *x)
{
  /* Without following links, a directory below the operands is never
     reached again, so its copy is not remembered: a deep tree would
     keep the name of each of its directories.  */
  if (S_ISDIR (src_st->st_mode) && !ctx->command_line
      && !follows_links (ctx, x))
    return false;
  if (x->preserve_links && !x->hard_link
      && (1 < src_st->st_nlink || x->dereference == CP_DEREF_ALWAYS
          || (ctx->command_line
              && x->dereference == CP_DEREF_COMMAND_LINE)))
    return true;
  return S_ISDIR (src_st->st_mode) && ctx->command_line;
}

/* The directory SRC (SRC_ST), to be copied to DST, was copied before
   in this run: by an earlier operand, or inside one.  Say what GNU cp
   says.  Return false if that is a failure; set *SKIP unless the
   directory is to be copied again, as it is when reached through
   links that are followed.  */
static bool
dir_copied_before (struct loc const *src, struct stat const *src_st,
                   struct loc const *dst, struct copy_ctx const *ctx,
                   struct cp_options const *x, bool *skip)
{
  struct inode_entry const *earlier = inode_lookup (link_map, src_st);
  *skip = false;
  if (!earlier)
    return true;
  *skip = true;
  if (same_dir_entry (src->name, earlier->name))
    {
      error (0, 0, _("cannot copy a directory, %s, into itself, %s"),
             quoteaf_n (0, ctx->top_src), quoteaf_n (1, ctx->top_dst));
      *ctx->into_self = true;
      return false;
    }
  if (same_dir_entry (dst->name, earlier->name))
    {
      error (0, 0, _("warning: source directory %s specified more than once"),
             quoteaf (ctx->top_src));
      return true;
    }
  if (follows_links (ctx, x))
    {
      *skip = false;
      return true;
    }
  error (0, 0, _("will not create hard link %s to directory %s"),
         quoteaf_n (0, dst->name), quoteaf_n (1, earlier->name));
  return false;
}

/* Make DST a hard link to EARLIER, the copy of another link to the
   same source file, replacing DST if it EXISTS, as GNU cp says with
   -v.  */
static bool
link_to_earlier (char const *earlier, struct loc const *dst, bool exists,
                 struct cp_options const *x)
{
  if (!make_hard_link (AT_FDCWD, earlier, earlier, dst, false, exists))
    return false;
  if (exists && x->verbose)
    printf (_("removed %s\n"), quoteaf (dst->name));
  return true;
}

/* -u skipped SRC_ST as up to date at DST.  DST still counts as its
   copy, as in GNU cp: further links to SRC_ST are linked to DST, and
   if another link was copied before, DST, up to date or not, becomes
   a link to its copy.  */
static bool
remember_skipped (struct stat const *src_st, struct loc const *dst,
                  struct cp_options const *x)
{
  if (links_owned ())
    {
      char *first = remote->first_copy (src_st, dst->name);
      if (!first)
        {
          remote->first_done (src_st, true);
          return true;
        }
      bool ok = link_to_earlier (first, dst, true, x);
      free (first);
      return ok;
    }
  struct inode_entry const *earlier
    = inode_remember (&link_map, inode_equal, src_st, dst->name);
  return !earlier || link_to_earlier (earlier->name, dst, true, x);
}

/* Whether SRC (SRC_ST) is an operand given before by the same
   directory entry, remembering it if not.  */
static bool
repeated_operand (char const *src, struct stat const *src_st)
{
  return inode_remember (&operands, inode_name_equal, src_st, src) != NULL;
}

/* Whether DST, found with status DST_ST, was made from an earlier
   operand.  */
static bool
made_by_operand (char const *dst, struct stat const *dst_st)
{
  return inode_name_lookup (made_files, dst_st, dst) != NULL;
}

/* Remember DST as made from an operand.  */
static void
remember_made_file (struct loc const *dst)
{
  struct stat st;
  if (fstatat (at (dst), dst->rel, &st, AT_SYMLINK_NOFOLLOW) == 0)
    inode_remember (&made_files, inode_name_equal, &st, dst->name);
}

static bool copy_internal (struct loc const *src, struct loc const *dst,
                           struct copy_ctx const *ctx,
                           struct cp_options const *x);

/* Copy each entry of the directory SRC, open as SDIR, into DST, open
   as DDIR, which the copy has just MADE or not.  Once the operand
   turns out to be copied into itself, or a directory can't be held
   open again, nothing more of it is copied.  */
static bool
copy_entries (struct walk_dir *sdir, struct loc const *src,
              struct stat const *src_st, struct walk_dir *ddir,
              struct loc const *dst, bool made, struct file_group **files,
              struct copy_ctx const *ctx, struct cp_options const *x)
{
  *files = NULL;
  if (!stack_allows_level (src->name))
    return false;
  file_group_leave_dirs (ctx->files);
  char *names = read_names (sdir);
  if (!names)
    {
      error (0, errno, _("cannot access %s"), quoteaf (src->name));
      return false;
    }

  struct ancestor self = { src_st->st_ino, src_st->st_dev, ctx->ancestors };
  struct copy_ctx sub = *ctx;
  sub.command_line = false;
  sub.ancestors = &self;
  /* With workers, the directory's attributes wait for its files, and
     for its subdirectories' attributes: a new directory stays its
     owner's alone until what is in it is complete, as in a serial copy
     (GNU's tests/cp/parent-perm-race.sh looks while a FIFO's data is
     still being read).  The group is not on the stack, which a deep
     tree fills level by level.  */
  if (hands_off ())
    sub.files = file_group_new (ctx->files);
  sub.dst_dir_made = made;
  struct name_level s_level, d_level;
  name_enter (ctx->src_names, &s_level, src->name, src->rel);
  name_enter (ctx->dst_names, &d_level, dst->name, dst->rel);
  bool ok = true;
  for (char const *name = names; *name && !*ctx->into_self;
       name += strlen (name) + 1)
    {
      if (sdir->fd < 0 || ddir->fd < 0)
        {
          ok = false;
          break;
        }
      struct loc s_loc = { sdir };
      struct loc d_loc = { ddir };
      s_loc.name = name_entry (ctx->src_names, &s_level, name, &s_loc.rel);
      d_loc.name = name_entry (ctx->dst_names, &d_level, name, &d_loc.rel);
      ok &= copy_internal (&s_loc, &d_loc, &sub, x);
      if (remote && remote->poll)
        remote->poll ();
    }
  name_leave (ctx->src_names, &s_level, src->name);
  name_leave (ctx->dst_names, &d_level, dst->name);
  free (names);
  if (hands_off ())
    *files = sub.files;
  return ok;
}

/* Make sure the directories SRC and DST are in hold descriptors again,
   now that SDIR and DDIR, their copy's own, are the deepest.  */
static bool
hold_parents (struct walk_dir *sdir, struct loc const *src,
              struct walk_dir *ddir, struct loc const *dst,
              struct copy_ctx const *ctx)
{
  struct
  {
    struct walker *w;
    struct walk_dir *d;
    struct loc const *l;
  } const sides[2] = { { ctx->src_walk, sdir, src },
                       { ctx->dst_walk, ddir, dst } };
  bool ok = true;
  for (int i = 0; i < 2; i++)
    if (0 <= sides[i].d->fd && !walk_hold_up (sides[i].w, sides[i].d))
      {
        char *parent = dir_name (sides[i].l->name);
        error (0, errno, _("cannot return to directory %s"),
               quoteaf (parent));
        free (parent);
        ok = false;
      }
  return ok;
}

/* Open the directory SRC (status SRC_ST) as SDIR to read it, unless
   -x keeps cp out of it; return whether it is to be read.  Set *OK to
   false after a diagnostic if it can't be, or turns out to be another
   directory than the one looked at.  */
static bool
open_source_dir (struct loc const *src, struct stat const *src_st,
                 struct walk_dir *sdir, struct copy_ctx const *ctx,
                 struct cp_options const *x, bool *ok)
{
  sdir->fd = -1;
  if (x->one_file_system && !ctx->command_line
      && src_st->st_dev != ctx->top_dev)
    return false;
  struct stat st;
  if (!walk_open (ctx->src_walk, src->dir, src->rel, follows_links (ctx, x),
                  false, sdir, &st))
    {
      error (0, errno, _("cannot access %s"), quoteaf (src->name));
      *ok = false;
      return false;
    }
  if (!SAME_INODE (st, *src_st))
    {
      error (0, 0, _("skipping file %s, as it was replaced while being copied"),
             quoteaf (src->name));
      walk_close (ctx->src_walk, sdir);
      *ok = false;
      return false;
    }
  return true;
}

/* Change the permissions of the directory DST, open as DDIR, to MODE:
   by its entry in the directory it is in if DDIR can only look names
   up.  */
static int
chmod_dir (struct walk_dir *ddir, struct loc const *dst, mode_t mode,
           struct copy_ctx const *ctx)
{
  if (!ddir->search_only)
    return fchmod (ddir->fd, mode);
  if (!walk_hold_up (ctx->dst_walk, ddir))
    return -1;
  return fchmodat (at (dst), dst->rel, mode, AT_SYMLINK_NOFOLLOW);
}

/* DST as an end of an attribute copy, open as DIR.  */
static struct attr_file
dir_attr (struct walk_dir const *dir, struct loc const *l, bool created)
{
  return loc_attr (l, 0 <= dir->fd && !dir->search_only ? dir->fd : -1,
                   created);
}

/* The permissions a new directory, the copy of SRC_ST made as
   DST_ST, gets at last: the source's (or with --no-preserve=mode the
   default ones) less the umask, and its sticky bit but not its set-ID
   bits, while keeping a set-group-ID bit inherited from its parent.
   With --no-preserve=mode, GNU cp 9.10 sets the default permissions
   and an inherited set-group-ID bit together, which clears the sticky
   bit.  */
static mode_t
new_dir_mode (struct stat const *src_st, struct stat const *dst_st,
              struct cp_options const *x)
{
  mode_t perms = (x->explicit_no_preserve_mode
                  ? S_IRWXU | S_IRWXG | S_IRWXO
                  : src_st->st_mode & (S_IRWXU | S_IRWXG | S_IRWXO));
  mode_t inherited = dst_st->st_mode & S_ISGID;
  mode_t sticky = src_st->st_mode & S_ISVTX;
  if (x->explicit_no_preserve_mode && inherited)
    sticky = 0;
  return (perms & ~x->umask) | sticky | inherited;
}

/* Set the attributes F keeps for a directory the walk has left, close
   its descriptors and free it.  Return false if that failed.  */
static bool
finish_directory_now (struct dir_finish *f)
{
  char const *src_name = f->names;
  char const *dst_name = f->names + f->dst_name;
  bool ok = copy_attributes (task_end ((char *) src_name, f->src_fd, false),
                             &f->src_st,
                             task_end ((char *) dst_name, f->dst_fd,
                                       f->created),
                             f->x);
  /* After the extended attributes, which an unprivileged owner can
     set only while the directory is writable.  */
  if (f->set_mode && fchmod (f->dst_fd, f->mode) != 0)
    {
      error (0, errno, _("setting permissions for %s"), quoteaf (dst_name));
      ok = false;
    }
  /* Closing a directory whose changes are made can't lose them.  */
  close (f->src_fd);
  close (f->dst_fd);
  free (f);
  atomic_fetch_sub (&finishes_held, 1);
  return ok;
}

/* Leave the attributes of the directory DST, the copy of SRC (status
   SRC_ST, open as SDIR) open as DDIR, to whoever ends FG, the group of
   its files, and end the walk's piece of FG.  Return false, with
   nothing done, if the directories can't be held for it.  */
static bool
defer_finish (struct file_group *fg, struct walk_dir const *sdir,
              struct loc const *src, struct stat const *src_st,
              struct walk_dir const *ddir, struct loc const *dst,
              bool created, bool set_mode, mode_t mode,
              struct cp_options const *x)
{
  if (sdir->fd < 0 || ddir->fd < 0 || ddir->search_only)
    return false;
  if (finishes_max <= atomic_fetch_add (&finishes_held, 1))
    goto unheld;
  int sfd, dfd;
  if (!dup_dirs (sdir, ddir, &sfd, &dfd))
    goto unheld;
  size_t dst_at;
  struct dir_finish *f = alloc_with_names (offsetof (struct dir_finish, names),
                                           src->name, dst->name, &dst_at);
  f->src_fd = sfd;
  f->dst_fd = dfd;
  f->src_st = *src_st;
  f->created = created;
  f->set_mode = set_mode;
  f->mode = mode;
  f->x = x;
  f->dst_name = dst_at;
  fg->finish = f;
  file_group_leave_dirs (fg);
  task_group_release (&fg->pieces);
  return true;

 unheld:
  atomic_fetch_sub (&finishes_held, 1);
  return false;
}

/* Give the directory DST (open as DDIR), the copy of SRC (status
   SRC_ST, open as SDIR if it could be), made as DST_ST unless it
   EXISTS already, its attributes once the files of FG, if any, are
   copied: with workers, leave them to whoever ends FG where it can,
   else wait for FG here.  */
static _GL_ATTRIBUTE_NOINLINE bool
finish_directory (struct file_group *fg, struct walk_dir const *sdir,
                  struct loc const *src, struct stat const *src_st,
                  struct walk_dir *ddir, struct loc const *dst, bool exists,
                  struct stat const *dst_st, struct copy_ctx const *ctx,
                  struct cp_options const *x)
{
  bool set_mode = !exists && !x->preserve_mode;
  mode_t mode = set_mode ? new_dir_mode (src_st, dst_st, x) : 0;
  if (fg && defer_finish (fg, sdir, src, src_st, ddir, dst, !exists,
                          set_mode, mode, x))
    return true;
  bool ok = fg ? file_group_wait (fg) : true;
  ok &= copy_attributes (0 <= sdir->fd ? loc_attr (src, sdir->fd, false)
                         : loc_attr (src, -1, false), src_st,
                         dir_attr (ddir, dst, !exists), x);
  if (set_mode && chmod_dir (ddir, dst, mode, ctx) != 0)
    {
      error (0, errno, _("setting permissions for %s"), quoteaf (dst->name));
      ok = false;
    }
  return ok;
}

/* Copy what is in the directory SRC (status SRC_ST) into DST, open as
   DDIR, which EXISTS already or was made as DST_ST, then give DST its
   attributes, and close DDIR.  */
static bool
copy_dir_below (struct loc const *src, struct stat const *src_st,
                struct loc const *dst, struct walk_dir *ddir, bool exists,
                struct stat const *dst_st, struct copy_ctx const *ctx,
                struct cp_options const *x)
{
  bool ok = true;
  struct walk_dir sdir;
  struct file_group *files = NULL;
  if (open_source_dir (src, src_st, &sdir, ctx, x, &ok))
    ok = copy_entries (&sdir, src, src_st, ddir, dst, !exists, &files,
                       ctx, x);
  ok &= hold_parents (&sdir, src, ddir, dst, ctx);
  ok &= finish_directory (files, &sdir, src, src_st, ddir, dst, exists,
                          dst_st, ctx, x);
  if (0 <= sdir.fd)
    walk_close (ctx->src_walk, &sdir);
  walk_close (ctx->dst_walk, ddir);
  return ok;
}

/* Remember ST, the copy an operand made of a directory.  */
static void
remember_made_top (struct stat const *st)
{
  if (n_made_tops == made_tops_alloc)
    made_tops = xpalloc (made_tops, &made_tops_alloc, 1, -1,
                         sizeof *made_tops);
  made_tops[n_made_tops++] = (struct remote_inode) { st->st_dev, st->st_ino };
}

/* If another rank asks for work, give it what is below the directory
   SRC (status SRC_ST), to copy into DST, just made as DST_ST, as a
   piece of the group of files DST is in, and return true.  Not the
   operands, which the walk keeps, nor where a subtree's copy could
   depend on what another part of the tree makes: directories reached
   through links (-L), and hard links kept unless owners keep them
   across processes.  */
static bool
give_dir (struct loc const *src, struct stat const *src_st,
          struct loc const *dst, struct stat const *dst_st,
          struct copy_ctx const *ctx, struct cp_options const *x)
{
  if (!remote || !remote->give || !ctx->files || ctx->command_line
      || x->dereference == CP_DEREF_ALWAYS
      || (x->preserve_links && !x->hard_link && !links_owned ()))
    return false;
  struct remote_dir d = { src->dir, dst->dir, src->name, src->rel,
                          dst->name, dst->rel, src_st, dst_st, ctx->files,
                          ctx->top_src, ctx->top_dst, ctx->top_dev,
                          made_tops, n_made_tops };
  task_group_hold (&ctx->files->pieces);
  if (remote->give (&d))
    return true;
  task_group_release (&ctx->files->pieces);
  return false;
}

/* Copy the directory SRC (status SRC_ST) to DST, which EXISTS already
   as a directory or is made here.  A new directory is accessible only
   to its owner until its contents are in place.  */
static bool
copy_directory (struct loc const *src, struct stat const *src_st,
                struct loc const *dst, bool exists,
                struct copy_ctx const *ctx, struct cp_options const *x)
{
  for (struct ancestor const *a = ctx->ancestors; a; a = a->up)
    if (a->ino == src_st->st_ino && a->dev == src_st->st_dev)
      {
        error (0, 0, _("cannot copy cyclic symbolic link %s"),
               quoteaf (src->name));
        return false;
      }
  if (inode_lookup (made_dirs, src_st))
    {
      error (0, 0, _("cannot copy a directory, %s, into itself, %s"),
             quoteaf_n (0, ctx->top_src), quoteaf_n (1, ctx->top_dst));
      *ctx->into_self = true;
      return false;
    }

  if (!exists && mkdirat (at (dst), dst->rel, S_IRWXU) != 0)
    {
      error (0, errno, _("cannot create directory %s"), quoteaf (dst->name));
      return false;
    }
  /* An operand may name a directory through a symbolic link; below
     it, a link can only have been swapped in since it was looked at,
     unless --keep-directory-symlink has the copy go through it.  */
  struct walk_dir ddir;
  struct stat dst_st;
  if (!walk_open (ctx->dst_walk, dst->dir, dst->rel,
                  ctx->command_line || follows_dest_dir_links (x),
                  true, &ddir, &dst_st))
    {
      if (exists)
        error (0, errno, _("cannot access %s"), quoteaf (dst->name));
      else
        error (0, errno, _("cannot stat %s"), quoteaf (dst->name));
      return false;
    }
  if (!exists)
    {
      inode_remember (&made_dirs, inode_equal, &dst_st, "");
      if ((dst_st.st_mode & S_IRWXU) != S_IRWXU
          && chmod_dir (&ddir, dst, dst_st.st_mode | S_IRWXU, ctx) != 0)
        {
          error (0, errno, _("setting permissions for %s"),
                 quoteaf (dst->name));
          walk_close (ctx->dst_walk, &ddir);
          return false;
        }
      if (x->verbose)
        print_verbose (src->name, dst->name, NULL);
    }

  if (remembers_copy (src_st, ctx, x))
    inode_remember (&link_map, inode_equal, src_st, dst->name);
  if (!exists && ctx->command_line)
    remember_made_top (&dst_st);

  if (!exists && give_dir (src, src_st, dst, &dst_st, ctx, x))
    {
      walk_close (ctx->dst_walk, &ddir);
      return true;
    }
  return copy_dir_below (src, src_st, dst, &ddir, exists, &dst_st, ctx, x);
}

/* Make the copy of the non-directory SRC (status SRC_ST) at DST, whose
   former file (if any) is still there when EXISTS.  If EARLIER, it is
   the copy of another link to the same file, to link DST to.  A task
   that fills the copy, a piece of GROUP, takes the outcome *PENDING,
   if any, to report to.  */
static bool
make_copy (struct loc const *src, struct stat const *src_st, bool follow,
           struct loc const *dst, bool exists, char const *earlier,
           struct file_group *group, struct fill_outcome **pending,
           struct cp_options const *x)
{
  if (earlier)
    return link_to_earlier (earlier, dst, exists, x);
  if (x->symbolic_link)
    return (make_symlink (src, dst, exists && x->force)
            && copy_link_attributes (loc_attr (src, -1, false), src_st,
                                     loc_attr (dst, -1, true), x));
  /* A destination the user agreed to replace is replaced.  */
  if (x->hard_link)
    return make_hard_link (at (src), src->rel, src->name, dst, follow,
                           exists && (x->force || x->interactive == CP_ASK));
  if (copies_data (src_st, x))
    return copy_data_file (src, src_st, follow, -1, dst, exists, group,
                           false, pending, x);
  /* Only --attributes-only leaves DST there: -f still replaces it.  */
  if (S_ISLNK (src_st->st_mode))
    return copy_symlink (src, src_st, dst, exists && x->force, x);
  return copy_special (src, src_st, dst, x);
}

/* Write MODE's permission bits as ls -l does, in BUF of 10 bytes.  */
static void
permission_string (mode_t mode, char *buf)
{
  static char const rwx[] = "rwxrwxrwx";
  for (int i = 0; i < 9; i++)
    buf[i] = mode & (S_IRUSR >> i) ? rwx[i] : '-';
  if (mode & S_ISUID)
    buf[2] = buf[2] == 'x' ? 's' : 'S';
  if (mode & S_ISGID)
    buf[5] = buf[5] == 'x' ? 's' : 'S';
  if (mode & S_ISVTX)
    buf[8] = buf[8] == 'x' ? 't' : 'T';
  buf[9] = '\0';
}

/* -i: ask whether to overwrite DST (status DST_ST), mentioning its
   permissions if we could not write it.  Return the answer.  */
static bool
ask_overwrite (struct loc const *dst, struct stat const *dst_st,
               struct cp_options const *x)
{
  if (!S_ISLNK (dst_st->st_mode)
      && faccessat (at (dst), dst->rel, W_OK, AT_EACCESS) != 0)
    {
      char perms[10];
      unsigned int mode = dst_st->st_mode & (S_ISUID | S_ISGID | S_ISVTX
                                             | S_IRWXU | S_IRWXG | S_IRWXO);
      permission_string (mode, perms);
      if (x->force || x->remove_destination)
        fprintf (stderr, _("%s: replace %s, overriding mode %04o (%s)? "),
                 program_name, quoteaf (dst->name), mode, perms);
      else
        fprintf (stderr, _("%s: unwritable %s (mode %04o, %s); try anyway? "),
                 program_name, quoteaf (dst->name), mode, perms);
    }
  else
    fprintf (stderr, _("%s: overwrite %s? "), program_name,
             quoteaf (dst->name));
  return yesno ();
}

/* Is SRC_ST newer than DST_ST, as -u asks?  */
static bool
newer_than (struct stat const *src_st, struct stat const *dst_st)
{
  struct timespec st = get_stat_mtime (src_st);
  struct timespec dt = get_stat_mtime (dst_st);
  return (dt.tv_sec < st.tv_sec
          || (dt.tv_sec == st.tv_sec && dt.tv_nsec < st.tv_nsec));
}

/* Whether X keeps every destination that exists (-n, --update=none
   or --update=none-fail), without even looking at what it is.  */
static bool
keeps_every_destination (struct cp_options const *x)
{
  return x->update == CP_UPDATE_NONE || x->update == CP_UPDATE_NONE_FAIL;
}

/* How an existing destination is dealt with.  */
enum overwrite
{
  OVERWRITE,			/* replace it */
  KEEP,				/* leave it, which is no error */
  KEEP_UP_TO_DATE,		/* leave it, as -u finds it up to date */
  KEEP_DECLINED,		/* leave it as -i was told: an error */
  KEEP_REFUSED			/* leave it, an error already reported */
};

/* Whether the existing DST is to be replaced at all: -n keeps it;
   then --update=none keeps it, --update=none-fail keeps it and says
   so, --update=older keeps it unless SRC_ST is newer than DST_ST; then
   -i asks about it, a no being a failure.  DST_ST is what the copy
   finds there: the link itself if it replaces a link, else what the
   link leads to.  As in GNU cp, this comes before any complaint about
   what DST is, so a file kept is no such error.  */
static enum overwrite
wants_overwrite (struct stat const *src_st, struct loc const *dst,
                 struct stat const *dst_st, struct cp_options const *x)
{
  if (x->update == CP_UPDATE_NONE)
    return KEEP;
  if (x->update == CP_UPDATE_NONE_FAIL)
    {
      error (0, 0, _("not replacing %s"), quoteaf (dst->name));
      return KEEP_REFUSED;
    }
  if (x->update == CP_UPDATE_OLDER && !newer_than (src_st, dst_st))
    return KEEP_UP_TO_DATE;
  if (x->interactive == CP_ASK && !ask_overwrite (dst, dst_st, x))
    return KEEP_DECLINED;
  return OVERWRITE;
}

/* Leave the existing DST (status DST_ST) as WHY says, not replacing it
   with SRC_ST; return whether that is no error.  --debug names each
   file so kept, but for those already reported.  */
static bool
keep_destination (enum overwrite why, struct stat const *src_st,
                  struct loc const *dst, struct stat const *dst_st,
                  struct cp_options const *x)
{
  bool ok = why == KEEP || why == KEEP_UP_TO_DATE;
  if (why == KEEP_UP_TO_DATE && !S_ISDIR (dst_st->st_mode))
    ok = remember_skipped (src_st, dst, x);
  if (x->debug && why != KEEP_REFUSED)
    printf (_("skipped %s\n"), quoteaf (dst->name));
  return ok;
}

/* Whether DST, the entry DST_LST, was made by this cp from an earlier
   operand; if so, say why SRC is not copied to it.  A regular file
   would be written through such a link (THROUGH_LINK): to wherever an
   earlier source said, which is refused even where POSIX would have
   a planted link followed.  */
static bool
refuse_just_created (char const *src, char const *dst,
                     struct stat const *dst_lst, bool through_link,
                     struct cp_options const *x)
{
  /* Only numbered backups keep both copies of two operands with one
     name.  */
  if (x->backup_type == numbered_backups || !made_by_operand (dst, dst_lst))
    return false;
  if (through_link)
    error (0, 0, _("will not copy %s through just-created symlink %s"),
           quoteaf_n (0, src), quoteaf_n (1, dst));
  else
    error (0, 0, _("will not overwrite just-created %s with %s"),
           quoteaf_n (0, dst), quoteaf_n (1, src));
  return true;
}

/* Make room at DST for the non-directory SRC (status SRC_ST): move it
   aside as its backup, or unlink it if UNLINK_FIRST, or if REPLACE,
   quietly where -f replaces it with a link.  Set *BACKUP to the
   backup's name if one was made; set *EXISTS to whether DST is still
   there.  */
static bool
make_room (struct loc const *src, struct stat const *src_st,
           struct loc const *dst, bool unlink_first, bool replace,
           char **backup, bool *exists, struct cp_options const *x)
{
  *backup = NULL;
  *exists = true;
  if (x->backup_type != no_backups)
    {
      *backup = make_backup (src, src_st, dst, x);
      *exists = false;
      return *backup != NULL;
    }
  if (unlink_first || replace)
    {
      bool quiet = !unlink_first && (x->hard_link || x->symbolic_link);
      *exists = false;
      return remove_destination (dst, x->verbose && !quiet);
    }
  return true;
}

/* The copy goes through the destination link D (DST): make D say
   what the link leads to.  A link leading nowhere is no destination
   yet (opening it refuses to write through it); with -f, a loop of
   links is replaced without a further look, as GNU cp does.  Return
   false after a diagnostic if the link can't be followed otherwise.  */
static bool
resolve_dest_link (struct loc const *dst, struct dest *d,
                   struct cp_options const *x)
{
  if (d->st_ok)
    return true;
  if (d->st_errno == ENOENT)
    d->exists = false;
  else if (d->st_errno == ELOOP && x->force)
    d->loops = true;
  else
    {
      error (0, d->st_errno, _("cannot stat %s"), quoteaf (dst->name));
      return false;
    }
  return true;
}

/* Make room at DST, where a non-directory is, for the directory SRC
   (status SRC_ST).  Only a backup does, as in GNU cp 9.10: it moves
   the non-directory aside, and the directory is made in its place.
   Return the backup's name, to be freed; or, if there is to be no
   backup or it can't be made, say why not and return NULL.  */
static char *
make_room_for_dir (struct loc const *src, struct stat const *src_st,
                   struct loc const *dst, struct cp_options const *x)
{
  if (x->backup_type == no_backups)
    {
      error (0, 0, _("cannot overwrite non-directory %s with directory %s"),
             quoteaf_n (0, dst->name), quoteaf_n (1, src->name));
      return NULL;
    }
  return make_backup (src, src_st, dst, x);
}

/* Is there nothing at DST, not even a dangling link?  */
static bool
nothing_at (struct loc const *dst)
{
  struct stat st;
  return (fstatat (at (dst), dst->rel, &st, AT_SYMLINK_NOFOLLOW) != 0
          && errno == ENOENT);
}

/* Whether a worker can copy the file SRC_ST whole, opening its source
   and creating its copy: a regular file whose copy goes where this
   copy made the directory and so nothing EXISTS, and whose copy no
   later name links to (TRACK_LINKS), which needs it to exist at once.
   Copying only attributes is left to the walk, and so, with other
   ranks, is a file large enough to split: the walk makes its copy,
   then sends its ranges.  */
static bool
hands_over_whole (struct stat const *src_st, bool exists, bool track_links,
                  struct copy_ctx const *ctx, struct cp_options const *x)
{
  return (sends_files () && ctx->files && ctx->dst_dir_made && !exists
          && !track_links && S_ISREG (src_st->st_mode)
          && copies_data (src_st, x) && !x->attributes_only
          && ! (remote && xfer_chunk_size () <= src_st->st_size));
}

/* Copy SRC to DST; CTX says where in the tree they are.  */
static bool
copy_internal (struct loc const *src, struct loc const *dst,
               struct copy_ctx const *ctx, struct cp_options const *x)
{
  bool follow = follows_links (ctx, x);
  struct stat src_st;
  if (fstatat (at (src), src->rel, &src_st,
               follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0)
    {
      error (0, errno, _("cannot stat %s"), quoteaf (src->name));
      return false;
    }
  bool is_dir = S_ISDIR (src_st.st_mode);
  if (is_dir && !x->recursive)
    {
      error (0, 0, _("-r not specified; omitting directory %s"),
             quoteaf (src->name));
      return false;
    }

  /* GNU cp copies a file given twice once, unless it makes backups.  */
  if (ctx->command_line && !is_dir && x->backup_type == no_backups
      && repeated_operand (src->name, &src_st))
    {
      error (0, 0, _("warning: source file %s specified more than once"),
             quoteaf (src->name));
      return true;
    }

  /* As GNU cp does, a directory the copy made is not searched for
     what it cannot hold yet: every file is then made exclusively, so
     one that appeared there all the same is an error, not a
     destination.  */
  struct dest d = { .exists = false };
  if (!ctx->dst_dir_made && !stat_destination (dst, &d))
    return false;

  /* A regular file is copied through a destination link, so what the
     link leads to is the destination, and so is a directory with
     --keep-directory-symlink (replaces_dest_link).  Anything else
     replaces the link itself, whatever it leads to.  */
  bool had_entry = d.exists;
  bool through_link = (d.exists && S_ISLNK (d.lst.st_mode)
                       && !replaces_dest_link (&src_st, x));
  if (through_link && !resolve_dest_link (dst, &d, x))
    return false;
  struct stat const *dst_found = through_link && !d.loops ? &d.st : &d.lst;
  bool known = d.exists && !d.loops;

  if (known)
    {
      bool done = false;
      if (!keeps_every_destination (x)
          && !copy_onto_ok (src, &src_st, dst, dst_found, x, &done))
        {
          error (0, 0, _("%s and %s are the same file"),
                 quoteaf_n (0, src->name), quoteaf_n (1, dst->name));
          return false;
        }
      if (done)
        return true;
    }

  /* A directory is copied through a destination link only for
     --keep-directory-symlink; a loop of links that -f has not looked
     through is then left for making the directory to fail on, as in
     GNU cp.  */
  bool ok;
  if (is_dir)
    {
      bool exists = known;
      char *backup = NULL;
      if (known && !S_ISDIR (dst_found->st_mode))
        {
          backup = make_room_for_dir (src, &src_st, dst, x);
          if (!backup)
            return false;
          exists = false;
        }
      bool skip;
      ok = dir_copied_before (src, &src_st, dst, ctx, x, &skip);
      if (!skip)
        ok = copy_directory (src, &src_st, dst, exists, ctx, x);
      /* A directory that could not even be made leaves the file it
         was to replace where it was, as in GNU cp.  */
      if (!ok && backup && nothing_at (dst))
        restore_backup (backup, dst, x->verbose);
      free (backup);
      return ok;
    }

  /* With backups, GNU cp 9.10 does not refuse to put a non-directory
     where a directory is, but neither moves the directory aside nor
     removes it: the file is made as if the directory were not there,
     which fails as making such a file there fails.  */
  bool onto_dir = known && S_ISDIR (dst_found->st_mode);
  if (known)
    {
      enum overwrite what = wants_overwrite (&src_st, dst, dst_found, x);
      if (what != OVERWRITE)
        return keep_destination (what, &src_st, dst, dst_found, x);
      if (onto_dir && x->backup_type == no_backups)
        {
          error (0, 0, _("cannot overwrite directory %s with non-directory %s"),
                 quoteaf_n (0, dst->name), quoteaf_n (1, src->name));
          return false;
        }
    }
  /* Even a link leading nowhere, and so no destination yet, is
     refused if an earlier operand's copy made it.  */
  if (had_entry && ctx->command_line
      && refuse_just_created (src->name, dst->name, &d.lst, through_link, x))
    return false;
  /* Deeper in the tree, GNU cp 9.10 writes through such a dangling link
     when POSIXLY_CORRECT is set, out of the destination to wherever it
     leads; cpdd refuses, as for an operand.  */
  if (through_link && !d.exists && inode_lookup (made_links, &d.lst))
    {
      error (0, 0, _("will not copy %s through just-created symlink %s"),
             quoteaf_n (0, src->name), quoteaf_n (1, dst->name));
      return false;
    }

  bool track_links = remembers_copy (&src_st, ctx, x);
  struct inode_entry const *earlier = NULL;
  /* With links owned elsewhere, the owner says which name comes
     first.  */
  char *first = NULL;
  bool owned = track_links && links_owned ();
  if (owned)
    first = remote->first_copy (&src_st, dst->name);
  else if (track_links)
    earlier = earlier_copy (&src_st);
  char const *earlier_name = earlier ? earlier->name : first;

  bool exists = d.exists;
  char *backup = NULL;
  struct fill_outcome *handed = NULL;
  ok = true;
  if (exists && !onto_dir)
    {
      /* GNU cp unlinks the destination, and says so, rather than
         write into a file that has other links it would keep with
         --preserve=links, or give a link or special file copied as
         itself the destination's name; but not to copy attributes
         only, which keeps the destination's data and links.  */
      bool recreate = !x->attributes_only;
      bool unlink_first = (x->remove_destination
                           || (recreate && x->preserve_links
                               && 1 < dst_found->st_nlink)
                           || (recreate && x->dereference == CP_DEREF_NEVER
                               && !S_ISREG (src_st.st_mode)));
      bool replace = (!earlier_name && recreate && !x->hard_link
                      && !x->symbolic_link && !copies_data (&src_st, x));
      ok = make_room (src, &src_st, dst, unlink_first, replace, &backup,
                      &exists, x);
    }

  /* As in GNU cp, a file is named before it is copied, so that what
     goes wrong while copying it comes after its name.  */
  if (ok && x->verbose)
    print_verbose (src->name, dst->name, backup);

  if (ok)
    {
      /* A backup is put back at once if the copy fails, so that copy
         is not left to a worker.  */
      if (hands_over_whole (&src_st, exists, track_links, ctx, x)
          && hand_over_new_file (src, &src_st, follow, dst, ctx->files, x))
        ok = true;
      else
        {
          /* A first copy that the owner of its links knows of is made
             here whole, not in ranges sent to other ranks: a rank
             walking a subtree takes ranges only while its walk waits
             for answers, not while it waits for this very copy to
             end, to link another name to it.  */
          struct fill_outcome *pending = NULL;
          if (hands_off () && track_links && !earlier_name && !owned)
            handed = pending = fill_outcome_new ();
          ok = make_copy (src, &src_st, follow, dst, exists, earlier_name,
                          backup || owned ? NULL : ctx->files, &pending, x);
          if (!ok && backup)
            restore_backup (backup, dst, x->verbose);
          /* Unless a task took it, the copy is over, whole or failed.  */
          if (pending)
            {
              fill_outcome_release (handed);
              handed = NULL;
            }
        }
    }
  if (owned && !first)
    remote->first_done (&src_st, ok);
  if (ok)
    {
      if (track_links && !earlier_name && !owned)
        remember_copy (&src_st, dst->name, handed);
      if (ctx->command_line)
        remember_made_file (dst);
    }
  else
    fill_outcome_release (handed);
  free (first);
  free (backup);
  return ok;
}

bool
copy (char const *src_name, char const *dst_name, struct cp_options const *x)
{
  bool into_self = false;
  prepare_stack ();
  size_t max_open = walker_default_max ();
  struct walker src_walk, dst_walk;
  walker_init (&src_walk, max_open);
  walker_init (&dst_walk, max_open);
  struct name_buf src_names = { NULL, 0 };
  struct name_buf dst_names = { NULL, 0 };
  struct copy_ctx ctx = { src_name, dst_name, 0, true, &into_self, NULL,
                          &src_walk, &dst_walk, &src_names, &dst_names,
                          hands_off () ? file_group_new (NULL) : NULL };
  struct stat st;
  if (x->one_file_system && stat (src_name, &st) == 0)
    ctx.top_dev = st.st_dev;
  struct loc src = { NULL, src_name, src_name };
  struct loc dst = { NULL, dst_name, dst_name };
  bool ok = copy_internal (&src, &dst, &ctx, x);
  if (hands_off ())
    ok &= file_group_wait (ctx.files);
  free (src_names.buf);
  free (dst_names.buf);
  return ok;
}

/* The directories from an operand down to the one a subtree is in, as
   a process given the subtree opens them, and their names.  */
struct remote_chain
{
  struct walk_dir *dirs;
  size_t n;
  char *names;
};

/* Close C's directories in W, the deepest first.  */
static void
close_chain (struct walker *w, struct remote_chain *c)
{
  while (c->n)
    walk_close (w, &c->dirs[--c->n]);
  free (c->dirs);
  free (c->names);
}

/* Open in W, from the working directory, the directories P names, to
   reach the entry whose whole name is NAME (for messages), which is
   in the last of them; search-only ones will do if SEARCH_OK.  Return
   false after a diagnostic if one can't be opened, or the last is not
   the directory the walk had open.  */
static bool
open_chain (struct walker *w, struct remote_path const *p, char const *name,
            bool search_ok, bool follow_below, struct remote_chain *c)
{
  size_t n = 1;
  for (char const *q = p->path; *q; q++)
    n += *q == '/';
  n += *p->path != '\0';
  c->dirs = xinmalloc (n, sizeof *c->dirs);
  c->n = 0;
  c->names = xstrdup (p->path);
  char *next = c->names;
  char const *rel = p->root;
  struct stat st;
  bool ok;
  for (;;)
    {
      struct walk_dir *up = c->n ? &c->dirs[c->n - 1] : NULL;
      /* The operand may be a link to a directory, which the walk
         followed; below it, links are followed only if FOLLOW_BELOW
         says the walk did.  */
      ok = walk_open (w, up, rel, !up || follow_below, search_ok,
                      &c->dirs[c->n], &st);
      if (!ok)
        break;
      c->n++;
      if (!*next)
        break;
      char *slash = strchr (next, '/');
      rel = next;
      next = slash ? slash + 1 : next + strlen (next);
      if (slash)
        *slash = '\0';
    }
  int err = errno;
  char *dir = dir_name (name);
  ok = copy_remote_same_dir (dir, ok, err, &st, p->dir_dev, p->dir_ino);
  free (dir);
  if (!ok)
    close_chain (w, c);
  return ok;
}

bool
copy_remote_same_dir (char const *dir, bool opened, int err,
                      struct stat const *st, dev_t dev, ino_t ino)
{
  if (!opened)
    {
      error (0, err, _("cannot access %s"), quoteaf (dir));
      return false;
    }
  if (st->st_dev != dev || st->st_ino != ino)
    {
      error (0, 0, _("skipping file %s, as it was replaced while being copied"),
             quoteaf (dir));
      return false;
    }
  return true;
}

/* Open the new directory D names at the destination, in the last
   directory of C, as DDIR, with status *ST; return false after a
   diagnostic if it can't be, or is not the one the walk made.  */
static bool
open_given_dir (struct walker *w, struct remote_chain *c,
                struct remote_dir const *d, struct walk_dir *ddir,
                struct stat *st)
{
  if (!walk_open (w, &c->dirs[c->n - 1], d->dst_rel, false, true, ddir, st))
    {
      error (0, errno, _("cannot stat %s"), quoteaf (d->dst_name));
      return false;
    }
  if (SAME_INODE (*st, *d->dst_st))
    return true;
  error (0, 0, _("skipping file %s, as it was replaced while being copied"),
         quoteaf (d->dst_name));
  walk_close (w, ddir);
  return false;
}

bool
copy_remote_dir (struct remote_dir const *d, struct remote_path const *src,
                 struct remote_path const *dst, struct cp_options const *x)
{
  prepare_stack ();
  for (size_t i = 0; i < d->made_len; i++)
    {
      struct stat st = { .st_dev = d->made[i].dev, .st_ino = d->made[i].ino };
      inode_remember (&made_dirs, inode_equal, &st, "");
    }
  inode_remember (&made_dirs, inode_equal, d->dst_st, "");
  size_t max_open = walker_default_max ();
  struct walker src_walk, dst_walk;
  walker_init (&src_walk, max_open);
  walker_init (&dst_walk, max_open);
  struct remote_chain sc, dc;
  if (!open_chain (&src_walk, src, d->src_name, false, false, &sc))
    return false;
  struct walk_dir ddir;
  struct stat dst_st;
  bool ok = open_chain (&dst_walk, dst, d->dst_name, true,
                        follows_dest_dir_links (x), &dc);
  if (ok && !open_given_dir (&dst_walk, &dc, d, &ddir, &dst_st))
    {
      close_chain (&dst_walk, &dc);
      ok = false;
    }
  if (ok)
    {
      bool into_self = false;
      struct name_buf src_names = { NULL, 0 };
      struct name_buf dst_names = { NULL, 0 };
      struct copy_ctx ctx = { d->top_src, d->top_dst, d->top_dev, false,
                              &into_self, NULL, &src_walk, &dst_walk,
                              &src_names, &dst_names,
                              file_group_new (NULL), true };
      struct loc s = { &sc.dirs[sc.n - 1], d->src_rel, d->src_name };
      struct loc t = { &dc.dirs[dc.n - 1], d->dst_rel, d->dst_name };
      ok = copy_dir_below (&s, d->src_st, &t, &ddir, false, &dst_st, &ctx,
                           x);
      ok &= file_group_wait (ctx.files);
      free (src_names.buf);
      free (dst_names.buf);
      close_chain (&dst_walk, &dc);
    }
  close_chain (&src_walk, &sc);
  return ok;
}
