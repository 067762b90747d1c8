/* walk.c -- walking a tree: its directories held open, its names.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Each directory is opened relative to the one it is in, and its
   entries relative to it, so that a directory replaced by a symbolic
   link while it is copied leads nowhere else.  A tree may be deeper
   than the process may hold descriptors: then the directories highest
   up give theirs back, and each gets one again on the way back up, by
   opening ".." of the directory below it and checking that this is
   the very directory (device and inode) that was opened before.  A
   directory moved elsewhere meanwhile is thus never mistaken for it;
   its copy stops there with an error.  */

#include <config.h>

#include <sys/resource.h>

#include "system.h"
#include "filenamecat.h"
#include "savedir.h"
#include "walk.h"

void
walker_init (struct walker *w, size_t max_open)
{
  w->oldest = NULL;
  w->n_open = 0;
  w->max_open = max_open ? max_open : 1;
}

size_t
walker_default_max (void)
{
  /* Leave room for the files being copied, standard streams and
     libraries; each of the two walkers gets a quarter of the rest.  */
  enum { RESERVED = 32, CEILING = 256 };
  struct rlimit rl;
  if (getrlimit (RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return CEILING;
  if (rl.rlim_cur <= RESERVED + 4)
    return 1;
  rlim_t n = (rl.rlim_cur - RESERVED) / 4;
  return n < CEILING ? n : CEILING;
}

int
walk_open_dir (int dirfd, char const *rel, bool follow, bool search_ok,
               bool *search_only)
{
  int flags = (O_DIRECTORY | O_NOCTTY | O_CLOEXEC
               | (follow ? 0 : O_NOFOLLOW));
  *search_only = false;
  int fd = openat (dirfd, rel, O_RDONLY | flags);
#ifdef O_PATH
  if (fd < 0 && errno == EACCES && search_ok)
    {
      fd = openat (dirfd, rel, O_PATH | flags);
      *search_only = 0 <= fd;
    }
#endif
  return fd;
}

/* D is the directory highest up holding a descriptor: let it go.  */
static void
release_oldest (struct walker *w)
{
  struct walk_dir *d = w->oldest;
  /* Closing a directory only read from can't lose anything.  */
  close (d->fd);
  d->fd = -1;
  w->oldest = d->down;
  w->n_open--;
}

bool
walk_open (struct walker *w, struct walk_dir *up, char const *rel,
           unsigned int how, struct walk_dir *d, struct stat *st)
{
  bool search_only;
  int fd = walk_open_dir (walk_fd (up), rel, how & WALK_FOLLOW,
                          how & WALK_SEARCH_OK, &search_only);
  if (fd < 0)
    return false;
  if (fstat (fd, st) != 0)
    {
      int e = errno;
      close (fd);
      errno = e;
      return false;
    }
  *d = (struct walk_dir) { fd, search_only, rel, st->st_dev, st->st_ino,
                           up, NULL };
  if (!up)
    return true;
  up->down = d;
  if (!w->oldest)
    w->oldest = d;
  w->n_open++;
  while (w->max_open < w->n_open)
    release_oldest (w);
  return true;
}

/* Give UP, the directory D is in, a descriptor again: the one of
   D's "..", if that is still UP.  */
static bool
reacquire (struct walker *w, struct walk_dir *up, struct walk_dir const *d)
{
  bool search_only;
  int fd = walk_open_dir (d->fd, "..", true, true, &search_only);
  if (fd < 0)
    return false;
  struct stat st;
  int e = (fstat (fd, &st) != 0 ? errno
           : st.st_dev != up->dev || st.st_ino != up->ino ? ESTALE : 0);
  if (e)
    {
      close (fd);
      errno = e;
      return false;
    }
  up->fd = fd;
  up->search_only = search_only;
  w->oldest = up;
  w->n_open++;
  return true;
}

bool
walk_hold_up (struct walker *w, struct walk_dir *d)
{
  return !d->up || 0 <= d->up->fd || reacquire (w, d->up, d);
}

void
walk_close (struct walker *w, struct walk_dir *d)
{
  if (0 <= d->fd)
    {
      /* Closing a directory only read from can't lose anything.  */
      close (d->fd);
      if (d->up)
        w->n_open--;
    }
  d->fd = -1;
  if (d->up)
    {
      d->up->down = NULL;
      if (w->oldest == d)
        w->oldest = NULL;
    }
}

/* Make room in NB for a name of SIZE bytes at the level LV, keeping
   the names above in the buffer they are in until LV is left.  */
static void
name_reserve (struct name_buf *nb, struct name_level *lv, size_t size)
{
  if (size <= nb->size)
    return;
  size_t new_size = MAX (size, 2 * nb->size);
  char *buf = xmalloc (new_size);
  if (lv->prefix)
    memcpy (buf, nb->buf, lv->prefix);
  if (lv->replaced)
    free (nb->buf);
  else
    {
      lv->replaced = true;
      lv->outer = nb->buf;
      lv->outer_size = nb->size;
    }
  nb->buf = buf;
  nb->size = new_size;
}

void
name_enter (struct name_buf *nb, struct name_level *lv, char const *dir,
            char const *dir_rel)
{
  lv->replaced = false;
  if (dir == nb->buf)
    {
      lv->prefix = dir_rel - dir + strlen (dir_rel);
      name_reserve (nb, lv, lv->prefix + 2);
      nb->buf[lv->prefix++] = '/';
    }
  else
    {
      char *prefix = file_name_concat (dir, "", NULL);
      lv->prefix = 0;
      name_reserve (nb, lv, strlen (prefix) + 1);
      lv->prefix = strlen (prefix);
      memcpy (nb->buf, prefix, lv->prefix);
      free (prefix);
    }
}

char *
name_entry (struct name_buf *nb, struct name_level *lv, char const *name,
            char const **rel)
{
  size_t size = strlen (name) + 1;
  name_reserve (nb, lv, lv->prefix + size);
  memcpy (nb->buf + lv->prefix, name, size);
  *rel = nb->buf + lv->prefix;
  return nb->buf;
}

void
name_leave (struct name_buf *nb, struct name_level *lv, char const *dir)
{
  if (lv->replaced)
    {
      free (nb->buf);
      nb->buf = lv->outer;
      nb->size = lv->outer_size;
    }
  if (dir == nb->buf)
    nb->buf[lv->prefix - 1] = '\0';
}

#if HAVE_GETDENTS64 && D_INO_IN_DIRENT
/* An entry of a directory as read, to be sorted.  */
struct entry
{
  ino_t ino;
  size_t name;			/* where its name is in the names read */
  unsigned char type;		/* its d_type */
};

static int
compare_inodes (void const *a, void const *b)
{
  struct entry const *ea = a;
  struct entry const *eb = b;
  return _GL_CMP (ea->ino, eb->ino);
}

/* Read the names in the directory open as FD, from its start, in the
   order savedir's SAVEDIR_SORT_FASTREAD gives them (by inode number,
   sorted as it sorts them, so that equal numbers come out as in GNU
   cp), and set *TYPES to their types (DT_REG...), one byte each; or
   return NULL with errno set.  Reading its descriptor
   directly saves the copy of it that a directory stream would take,
   and three calls more to set one up: five calls in all for each
   directory of a tree.  */
static char *
read_names_by_inode (int fd, unsigned char **types)
{
  enum { BUF_SIZE = 32 * 1024 };
  char *buf = ximalloc (BUF_SIZE);
  char *names = NULL;
  idx_t names_size = 0, used = 0;
  struct entry *entries = NULL;
  idx_t n_alloc = 0, n = 0;
  for (;;)
    {
      ssize_t got = getdents64 (fd, buf, BUF_SIZE);
      if (got <= 0)
        {
          if (got < 0)
            {
              int e = errno;
              free (buf);
              free (names);
              free (entries);
              *types = NULL;
              errno = e;
              return NULL;
            }
          break;
        }
      for (ssize_t off = 0; off < got; )
        {
          struct dirent64 const *d = (struct dirent64 const *) (buf + off);
          off += d->d_reclen;
          /* As readdir, skip what Linux may leave with no inode.  */
          char const *name = d->d_name;
          if (d->d_ino == 0
              || name[name[0] != '.' ? 0 : name[1] != '.' ? 1 : 2] == '\0')
            continue;
          idx_t size = strlen (name) + 1;
          if (names_size - used < size)
            names = xpalloc (names, &names_size, size - (names_size - used),
                             -1, 1);
          memcpy (names + used, name, size);
          if (n == n_alloc)
            entries = xpalloc (entries, &n_alloc, 1, -1, sizeof *entries);
          entries[n++] = (struct entry) { d->d_ino, used, d->d_type };
          used += size;
        }
    }
  free (buf);
  if (n)
    qsort (entries, n, sizeof *entries, compare_inodes);
  char *sorted = ximalloc (used + 1);
  char *p = sorted;
  *types = ximalloc (n + 1);
  for (idx_t i = 0; i < n; i++)
    {
      p = stpcpy (p, names + entries[i].name) + 1;
      (*types)[i] = entries[i].type;
    }
  *p = '\0';
  free (names);
  free (entries);
  return sorted;
}
#endif

char *
read_names (struct walk_dir const *sdir, unsigned char **types)
{
#if HAVE_GETDENTS64 && D_INO_IN_DIRENT
  return read_names_by_inode (sdir->fd, types);
#else
  *types = NULL;
  /* closedir closes the descriptor it reads, which SDIR keeps.  */
  int fd = fcntl (sdir->fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0)
    return NULL;
  DIR *dirp = fdopendir (fd);
  if (!dirp)
    {
      int e = errno;
      close (fd);
      errno = e;
      return NULL;
    }
  char *names = streamsavedir (dirp, SAVEDIR_SORT_FASTREAD);
  int e = errno;
  if (closedir (dirp) != 0 && names)
    {
      e = errno;
      free (names);
      names = NULL;
    }
  errno = e;
  return names;
#endif
}

/* Every level of a tree costs the recursion a few kilobytes of stack,
   more in a hardened or instrumented build, and a tree copied through
   open directories may be far deeper than names could reach.  So the
   soft stack limit is raised to STACK_WANTED where the hard limit lets
   it, and a level that would come within STACK_MARGIN of the limit is
   refused with a message rather than overflowing it.  Where the limit
   is infinite, the room the kernel leaves between the stack and the
   mappings below it is at least STACK_WANTED too.  */
enum { STACK_WANTED = 64 * 1024 * 1024, STACK_MARGIN = 1024 * 1024 };

/* The stack of the thread that walks the tree: where prepare_stack
   found its top, and how far it may grow from there.  One for the
   process, as the stack limit it raises is.  */
static struct
{
  uintptr_t top;
  uintmax_t room;
} stack;

void
prepare_stack (void)
{
  if (stack.top)
    return;
  char here;
  stack.top = (uintptr_t) &here;
  stack.room = STACK_WANTED;
  struct rlimit rl;
  if (getrlimit (RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY
      || STACK_WANTED <= rl.rlim_cur)
    return;
  rlim_t want = (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < STACK_WANTED
                 ? rl.rlim_max : STACK_WANTED);
  struct rlimit raised = { want, rl.rlim_max };
  stack.room = setrlimit (RLIMIT_STACK, &raised) == 0 ? want : rl.rlim_cur;
}

bool
stack_allows_level (char const *name)
{
  char here;
  uintptr_t now = (uintptr_t) &here;
  uintmax_t used = stack.top < now ? now - stack.top : stack.top - now;
  if (used + STACK_MARGIN <= stack.room)
    return true;
  error (0, 0, _("cannot copy %s: directories nested too deeply"),
         quoteaf (name));
  return false;
}
