/* copy-scout.c -- reading a source tree's directories ahead of the walk
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The walk reads each directory when it gets there, and on a disk
   whose cache is cold it waits for every one of them in turn, while
   the workers wait for data the walk has not found yet.  A scout
   thread reads them first: it opens each directory and lists it, as
   the walk will, so that the blocks of the directory and the inodes
   of what is in it are cached or on their way when the walk comes.
   Cold, from ext4, it cut cp -a --jobs=2 of a real tree (14,000 files
   in 1,400 directories) from 0.66 to 0.54 s, and of 100,000 small
   files in 6,500 directories from 4.2 to 3.9 s.

   The scout only reads.  It stays a bounded number of directories
   ahead, so that what it reads is still cached when the walk comes
   and its descriptors stay few; whatever goes wrong for it is the
   walk's to find and report, so it says nothing.  */

#include <config.h>

#include "system.h"
#include "copy-scout.h"
#include "walk.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

/* How many directories the scout reads ahead of the walk, and how deep
   below the top it goes at most: it holds a descriptor per level, and
   takes no more of them than an eighth of what a walker may hold.  */
enum { SCOUT_LEAD = 64, SCOUT_DEPTH = 32 };

/* How the scout opens a directory: only to list it.  */
#define SCOUT_OPEN_FLAGS (O_RDONLY | O_DIRECTORY | O_NOCTTY | O_NONBLOCK \
                          | O_CLOEXEC)

struct copy_scout
{
  pthread_t thread;
  int fd;			/* the top directory, the scout's own */
  dev_t dev;			/* its file system, the only one read */
  int depth;			/* how many levels below it to read */
  atomic_ptrdiff_t read;	/* directories the scout has read */
  atomic_ptrdiff_t walked;	/* and the walk */
  atomic_bool cached;		/* the walk finds the data cached */
  atomic_bool stop;
  atomic_bool waiting;		/* the scout waits for the walk */
  pthread_mutex_t lock;
  pthread_cond_t moved;		/* the walk moved on, or stop is set */
};

/* How far SC is ahead of the walk, in directories.  */
static ptrdiff_t
scout_lead (struct copy_scout const *sc)
{
  return atomic_load (&sc->read) - atomic_load (&sc->walked);
}

/* Whether SC may read on: it is less than SCOUT_LEAD directories
   ahead (or, after a wait, half of it: so that the walk wakes it once
   in so many directories, not at each), and the walk waits for the
   disk.  Where the walk finds the data cached, the directories are
   most likely cached too, and reading them again would only cost the
   processors: the scout waits until the walk misses the cache.  */
static bool
scout_may_go (struct copy_scout const *sc, ptrdiff_t lead)
{
  return scout_lead (sc) < lead && !atomic_load (&sc->cached);
}

/* Wait until SC may read on; return false if it is to stop
   instead.  */
static bool
scout_may_read (struct copy_scout *sc)
{
  if (scout_may_go (sc, SCOUT_LEAD))
    return !atomic_load (&sc->stop);
  pthread_mutex_lock (&sc->lock);
  atomic_store (&sc->waiting, true);
  while (!scout_may_go (sc, SCOUT_LEAD / 2) && !atomic_load (&sc->stop))
    pthread_cond_wait (&sc->moved, &sc->lock);
  atomic_store (&sc->waiting, false);
  pthread_mutex_unlock (&sc->lock);
  return !atomic_load (&sc->stop);
}

/* Whether TYPES, of a directory's entries, says entry I is a
   directory.  */
static bool
lists_directory (unsigned char const *types, idx_t i)
{
#ifdef DT_DIR
  return types[i] == DT_DIR;
#else
  return false;
#endif
}

/* Whether the directory open as FD is on SC's file system.  Not
   another one mounted in the tree: with -x the walk never goes there,
   and one that hangs (a server gone) would hold the scout, and the end
   of the copy, which waits for the scout.  */
static bool
on_top_file_system (struct copy_scout const *sc, int fd)
{
  struct stat st;
  return fstat (fd, &st) == 0 && st.st_dev == sc->dev;
}

/* Read the directory open as FD, DEPTH levels below the top, and those
   below it, in the walk's order.  */
static void
scout_dir (struct copy_scout *sc, int fd, int depth)
{
  if (!scout_may_read (sc))
    return;
  struct walk_dir d = { .fd = fd };
  unsigned char *types;
  char *names = read_names (&d, &types);
  atomic_fetch_add (&sc->read, 1);
  if (!names)
    return;
  /* Without the entries' types, telling directories apart would take a
     look at every name, which the walk makes anyway.  */
  if (types && depth < sc->depth)
    {
      idx_t i = 0;
      for (char const *name = names; *name && !atomic_load (&sc->stop);
           name += strlen (name) + 1, i++)
        {
          if (!lists_directory (types, i))
            continue;
          int sub = openat (fd, name, SCOUT_OPEN_FLAGS | O_NOFOLLOW);
          if (sub < 0)
            continue;
          if (on_top_file_system (sc, sub))
            scout_dir (sc, sub, depth + 1);
          /* Closing a directory only read from can't lose anything.  */
          close (sub);
        }
    }
  free (names);
  free (types);
}

static void *
scout_main (void *arg)
{
  struct copy_scout *sc = arg;
  scout_dir (sc, sc->fd, 0);
  return NULL;
}

struct copy_scout *
copy_scout_start (int dirfd)
{
  int depth = MIN (SCOUT_DEPTH, walker_default_max () / 8);
  if (depth <= 0)
    return NULL;
  struct copy_scout *sc = xzalloc (sizeof *sc);
  sc->depth = depth;
  /* Opened anew, not duplicated: a duplicate would share the walk's
     offset in the directory, and each would read what the other has
     not.  */
  sc->fd = openat (dirfd, ".", SCOUT_OPEN_FLAGS);
  struct stat st;
  if (sc->fd < 0 || fstat (sc->fd, &st) != 0)
    {
      if (0 <= sc->fd)
        close (sc->fd);
      free (sc);
      return NULL;
    }
  sc->dev = st.st_dev;
  atomic_init (&sc->read, 0);
  atomic_init (&sc->walked, 0);
  atomic_init (&sc->cached, false);
  atomic_init (&sc->stop, false);
  atomic_init (&sc->waiting, false);
  pthread_mutex_init (&sc->lock, NULL);
  pthread_cond_init (&sc->moved, NULL);
  /* Signals are for the threads that copy, which act on them.  */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  int err = pthread_create (&sc->thread, NULL, scout_main, sc);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (err != 0)
    {
      pthread_cond_destroy (&sc->moved);
      pthread_mutex_destroy (&sc->lock);
      close (sc->fd);
      free (sc);
      return NULL;
    }
  return sc;
}

/* Wake SC's thread if it waits.  */
static void
scout_wake (struct copy_scout *sc)
{
  pthread_mutex_lock (&sc->lock);
  pthread_cond_signal (&sc->moved);
  pthread_mutex_unlock (&sc->lock);
}

void
copy_scout_step (struct copy_scout *sc, bool cached)
{
  if (!sc)
    return;
  atomic_fetch_add (&sc->walked, 1);
  atomic_store (&sc->cached, cached);
  if (atomic_load (&sc->waiting) && scout_may_go (sc, SCOUT_LEAD / 2))
    scout_wake (sc);
}

void
copy_scout_stop (struct copy_scout *sc)
{
  if (!sc)
    return;
  atomic_store (&sc->stop, true);
  scout_wake (sc);
  pthread_join (sc->thread, NULL);
  pthread_cond_destroy (&sc->moved);
  pthread_mutex_destroy (&sc->lock);
  close (sc->fd);
  free (sc);
}
