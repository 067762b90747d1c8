/* xfer-count.c -- the bytes a copy is to move, counted beside it.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The front end's layer (see doc/HACKING), calling only the utilities.
   Counting inside the copy's own walk would know the total only when
   the walk has read its last directory, near the end of the copy; a
   walk ahead of it, before the first byte moves, would delay the copy
   by as long as the walk takes.  This thread walks beside the copy
   instead: it reads directories and looks at sizes, which the copy
   does too, so on a cold tree it mostly warms the caches the copy is
   about to read, and on a hot one it costs a second CPU a look per
   file.  */

#include <config.h>

#include <dirent.h>
#include <signal.h>
#include <stdckdint.h>

#include "system.h"
#include "hash.h"
#include "xfer-count.h"

/* A directory deeper than this is not counted: a link followed (-L)
   may lead back up, and a copy that deep is its own trouble.  */
enum { COUNT_MAX_DEPTH = 512 };

/* One count's walk, in its thread.  */
struct walk
{
  struct xfer_count *c;
  intmax_t bytes;		/* counted, not yet told */
  bool lower_bound;		/* something could not be sized */
  Hash_table *seen;		/* files of several names, if copied once */
  Hash_table *operands;		/* the operands, each copied once */
};

/* A file with several names, counted once.  */
struct seen_file
{
  dev_t dev;
  ino_t ino;
};

static size_t
seen_hash (void const *p, size_t n)
{
  struct seen_file const *f = p;
  return (f->ino ^ f->dev) % n;
}

static bool
seen_same (void const *a, void const *b)
{
  struct seen_file const *f = a, *g = b;
  return f->ino == g->ino && f->dev == g->dev;
}

/* Tell the count what W has counted since it last did.  */
static void
publish (struct walk *w)
{
  struct xfer_count *c = w->c;
  pthread_mutex_lock (&c->lock);
  if (ckd_add (&c->bytes, c->bytes, w->bytes))
    c->bytes = INTMAX_MAX;
  c->lower_bound |= w->lower_bound;
  pthread_mutex_unlock (&c->lock);
  w->bytes = 0;
}

/* Whether the file of status ST is in *T, which is made when first
   needed; put it there if not.  */
static bool
in_table (Hash_table **t, struct stat const *st)
{
  if (!*t)
    {
      *t = hash_initialize (64, NULL, seen_hash, seen_same, free);
      if (!*t)
        xalloc_die ();
    }
  struct seen_file *f = xmalloc (sizeof *f);
  *f = (struct seen_file) { st->st_dev, st->st_ino };
  int r = hash_insert_if_absent (*t, f, NULL);
  if (r < 0)
    xalloc_die ();
  if (r == 0)
    free (f);
  return r == 0;
}

/* Whether the file of status ST was counted before under another name,
   where its copy is made once and linked to.  */
static bool
seen_before (struct walk *w, struct stat const *st)
{
  return w->c->plan.links_once && 2 <= st->st_nlink
         && in_table (&w->seen, st);
}

/* Count the data of a file of status ST that is not a directory.  */
static void
count_file (struct walk *w, struct stat const *st)
{
  if (S_ISREG (st->st_mode))
    {
      if (!seen_before (w, st) && ckd_add (&w->bytes, w->bytes, st->st_size))
        w->bytes = INTMAX_MAX;
    }
  else if (!S_ISLNK (st->st_mode) && !S_ISDIR (st->st_mode)
           && w->c->plan.special_contents)
    w->lower_bound = true;
}

static void count_dir (struct walk *w, int dirfd, char const *name,
                       dev_t dev, int depth);

/* Count the entry NAME of the directory DIRFD, of type TYPE as readdir
   says, in a tree on device DEV, DEPTH directories down.  A copy does
   not need a look at a link it copies as a link, nor at a directory
   it goes into without caring where it is.  */
static void
count_entry (struct walk *w, int dirfd, char const *name, unsigned char type,
             dev_t dev, int depth)
{
  struct xfer_plan const *p = &w->c->plan;
  if (type == DT_LNK && !p->follow_all)
    return;
  if (type == DT_DIR && !p->one_file_system)
    {
      count_dir (w, dirfd, name, dev, depth + 1);
      return;
    }
  struct stat st;
  if (fstatat (dirfd, name, &st, p->follow_all ? 0 : AT_SYMLINK_NOFOLLOW) != 0)
    return;
  if (!S_ISDIR (st.st_mode))
    count_file (w, &st);
  else if (!p->one_file_system || st.st_dev == dev)
    count_dir (w, dirfd, name, dev, depth + 1);
}

/* Count what is in the directory NAME of DIRFD, in a tree on device
   DEV, DEPTH directories down.  What cannot be read is left to the
   copy to complain of; the count goes on without it.  */
static void
count_dir (struct walk *w, int dirfd, char const *name, dev_t dev, int depth)
{
  if (COUNT_MAX_DEPTH < depth)
    {
      w->lower_bound = true;
      return;
    }
  int flags = (O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC
               | (depth == 0 || w->c->plan.follow_all ? 0 : O_NOFOLLOW));
  int fd = openat (dirfd, name, flags);
  if (fd < 0)
    {
      /* Out of descriptors, a deep tree is counted in part.  */
      if (errno == EMFILE || errno == ENFILE)
        w->lower_bound = true;
      return;
    }
  DIR *d = fdopendir (fd);
  if (!d)
    {
      close (fd);
      return;
    }
  struct dirent *e;
  while (!atomic_load_explicit (&w->c->stop, memory_order_relaxed)
         && (e = readdir (d)))
    if (! (e->d_name[0] == '.'
           && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2]))))
      count_entry (w, fd, e->d_name, e->d_type, dev, depth);
  closedir (d);
  publish (w);
}

/* Count the operand NAME.  */
static void
count_operand (struct walk *w, char const *name)
{
  struct xfer_plan const *p = &w->c->plan;
  struct stat st;
  if ((p->follow_operands ? stat (name, &st) : lstat (name, &st)) != 0)
    return;
  /* A source named twice is copied once, with a warning.  */
  if (1 < w->c->n_files && in_table (&w->operands, &st))
    return;
  if (!S_ISDIR (st.st_mode))
    count_file (w, &st);
  else if (p->recursive)
    count_dir (w, AT_FDCWD, name, st.st_dev, 0);
  publish (w);
}

static void *
count_thread (void *arg)
{
  struct walk w = { arg, 0, false, NULL, NULL };
  struct xfer_count *c = w.c;
  for (int i = 0; i < c->n_files
       && !atomic_load_explicit (&c->stop, memory_order_relaxed); i++)
    count_operand (&w, c->files[i]);
  if (w.seen)
    hash_free (w.seen);
  if (w.operands)
    hash_free (w.operands);
  pthread_mutex_lock (&c->lock);
  c->over = true;
  pthread_mutex_unlock (&c->lock);
  return NULL;
}

/* Free what C holds.  */
static void
free_count (struct xfer_count *c)
{
  pthread_mutex_destroy (&c->lock);
  for (int i = 0; i < c->n_files; i++)
    free (c->files[i]);
  free (c->files);
}

void
xfer_count_start (struct xfer_count *c, char *const *files, int n_files,
                  struct xfer_plan const *plan)
{
  /* The copy may take slashes off the ends of its operands.  */
  char **names = xnmalloc (n_files, sizeof *names);
  for (int i = 0; i < n_files; i++)
    names[i] = xstrdup (files[i]);
  *c = (struct xfer_count) { .files = names, .n_files = n_files,
                             .plan = *plan };
  atomic_init (&c->stop, false);
  pthread_mutex_init (&c->lock, NULL);
  /* Signals are the copy's to take, in the threads that copy.  */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  c->started = pthread_create (&c->thread, NULL, count_thread, c) == 0;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (!c->started)
    free_count (c);
}

bool
xfer_count_read (struct xfer_count *c, intmax_t *bytes)
{
  if (!c->started)
    {
      *bytes = 0;
      return false;
    }
  pthread_mutex_lock (&c->lock);
  *bytes = c->bytes;
  bool total = c->over && !c->lower_bound;
  pthread_mutex_unlock (&c->lock);
  return total;
}

void
xfer_count_stop (struct xfer_count *c)
{
  if (!c->started)
    return;
  atomic_store (&c->stop, true);
  pthread_join (c->thread, NULL);
  free_count (c);
  c->started = false;
}
