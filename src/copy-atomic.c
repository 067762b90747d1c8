/* copy-atomic.c -- cp --atomic: a file's copy made aside, then renamed.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "copy-atomic.h"
#include "dirname.h"
#include "same-inode.h"

#include <inttypes.h>

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

int
atomic_temp_open (struct loc const *dst, struct stat const *src_st,
                  mode_t mode, bool resume, bool *kept,
                  struct atomic_temp **tp)
{
  *kept = false;
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
     whole but whose time is the crash's would fool cp -u.  */
  if (ok && fsync (fd) != 0)
    {
      error (0, errno, _("fsync failed for %s"), quoteaf (t->temp_name));
      ok = false;
    }
  if (close (fd) != 0)
    {
      error (0, errno, _("failed to close %s"), quoteaf (t->temp_name));
      ok = false;
    }
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
