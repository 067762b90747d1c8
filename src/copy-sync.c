/* copy-sync.c -- what a file system is; cp --fsync's syncs.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Syncing each file of a tree costs a wait for the disk per file,
   which is most of the copy's time for small files; one syncfs per
   file system at the end writes the same in one go.  Linux's syncfs
   is sure to reach only what the kernel holds, though: a FUSE daemon
   is not asked to write anything, nor is a network file system's
   server sure to be, so there the files and directories are synced
   one by one, each after its last change, as only then does a file
   system promise to keep that change.  */

#include <config.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>

#include "system.h"
#include "copy-sync.h"

#if HAVE_SYS_VFS_H && HAVE_FSTATFS
# include <sys/vfs.h>
#endif

#if HAVE_SYS_VFS_H && HAVE_FSTATFS
/* What a file system of type TYPE (statfs's f_type) is to the copy.  */
static unsigned int
kind_of_type (unsigned long type)
{
  switch (type)
    {
    case 0x6969:		/* NFS */
    case 0x517B:		/* SMB */
    case 0xFF534D42:		/* CIFS */
    case 0xFE534D42:		/* SMB2 */
    case 0x65735546:		/* FUSE */
    case 0x00C36400:		/* Ceph */
    case 0x0BD00BD0:		/* Lustre */
    case 0x47504653:		/* GPFS */
    case 0x01021997:		/* 9P */
    case 0x5346414F:		/* AFS */
      return FS_FAR;
    case 0x01021994:		/* tmpfs */
      return FS_MEMORY | FS_PLAIN;
    case 0x858458F6:		/* ramfs */
      return FS_MEMORY;
    case 0xEF53:		/* ext2, ext3, ext4 */
    case 0x58465342:		/* XFS */
    case 0x9123683E:		/* Btrfs */
      return FS_PLAIN;
    default:
      return 0;
    }
}
#endif

unsigned int
file_system_kind (int fd, dev_t dev)
{
  /* The last answer, per thread, as a walk stays on one file system
     for long: a memo of the system's, not state of a copy.  */
  static _Thread_local struct
  {
    bool known;
    dev_t dev;
    unsigned int kind;
  } last;
  if (last.known && dev == last.dev)
    return last.kind;
  unsigned int kind = 0;
#if HAVE_SYS_VFS_H && HAVE_FSTATFS
  struct statfs fs;
  if (fstatfs (fd, &fs) != 0)
    return kind;
  kind = kind_of_type (fs.f_type);
#endif
  last.known = true;
  last.dev = dev;
  last.kind = kind;
  return kind;
}

/* A file system to sync at the end: a descriptor on it, and the name
   of the file that was opened as that descriptor, for messages.  */
struct fs_to_sync
{
  dev_t dev;
  int fd;
  char *name;
};

struct copy_syncs
{
  pthread_mutex_t lock;
  struct fs_to_sync *v;
  idx_t n;
  idx_t alloc;
  atomic_bool each;		/* something was synced on its own */
};

struct copy_syncs *
copy_syncs_new (void)
{
  struct copy_syncs *s = xzalloc (sizeof *s);
  pthread_mutex_init (&s->lock, NULL);
  atomic_init (&s->each, false);
  return s;
}

/* Whether the file system of FD, on device DEV, is synced whole at the
   end rather than file by file.  */
static bool
synced_whole (int fd, dev_t dev)
{
#if HAVE_SYNCFS
  return (file_system_kind (fd, dev) & FS_PLAIN) != 0;
#else
  (void) fd;
  (void) dev;
  return false;
#endif
}

/* Whether S has the file system of device DEV to sync, with its
   lock held.  */
static bool
has_file_system (struct copy_syncs const *s, dev_t dev)
{
  for (idx_t i = 0; i < s->n; i++)
    if (s->v[i].dev == dev)
      return true;
  return false;
}

/* Note the file system of FD, on device DEV, named NAME, to sync at
   S's end; return false if it can't be kept for that.  */
static bool
note_file_system (struct copy_syncs *s, int fd, dev_t dev, char const *name)
{
  bool kept = true;
  pthread_mutex_lock (&s->lock);
  if (!has_file_system (s, dev))
    {
      int keep = fcntl (fd, F_DUPFD_CLOEXEC, 0);
      if (keep < 0)
        kept = false;
      else
        {
          if (s->n == s->alloc)
            s->v = xpalloc (s->v, &s->alloc, 1, -1, sizeof *s->v);
          s->v[s->n++] = (struct fs_to_sync) { dev, keep, xstrdup (name) };
        }
    }
  pthread_mutex_unlock (&s->lock);
  return kept;
}

/* Sync FD, named NAME, now.  */
static bool
sync_now (struct copy_syncs *s, int fd, char const *name)
{
  atomic_store (&s->each, true);
  if (fsync (fd) == 0)
    return true;
  error (0, errno, _("fsync failed for %s"), quoteaf (name));
  return false;
}

bool
copy_syncs_cover (struct copy_syncs *s, int fd, dev_t dev, char const *name)
{
  return synced_whole (fd, dev) && note_file_system (s, fd, dev, name);
}

void
copy_sync_start (struct copy_syncs *s, int fd, struct stat const *st,
                 char const *name)
{
  /* Short of descriptors, the file is noted or synced once done.  */
  if (S_ISREG (st->st_mode) && synced_whole (fd, st->st_dev))
    note_file_system (s, fd, st->st_dev, name);
}

bool
copy_sync_file (struct copy_syncs *s, int fd, struct stat const *st,
                char const *name)
{
  /* A device's data is not the file system's, and a pipe or a
     terminal keeps nothing.  Short of descriptors to keep, the file
     is synced on its own.  */
  if (S_ISREG (st->st_mode))
    {
      if (copy_syncs_cover (s, fd, st->st_dev, name))
        return true;
    }
  else if (!S_ISBLK (st->st_mode))
    return true;
  return sync_now (s, fd, name);
}

bool
copy_sync_dir (struct copy_syncs *s, int fd, dev_t dev, char const *name)
{
  return copy_syncs_cover (s, fd, dev, name) || sync_now (s, fd, name);
}

/* Whether S has the file system of device DEV to sync.  */
static bool
noted (struct copy_syncs *s, dev_t dev)
{
  pthread_mutex_lock (&s->lock);
  bool seen = has_file_system (s, dev);
  pthread_mutex_unlock (&s->lock);
  return seen;
}

bool
copy_sync_dir_at (struct copy_syncs *s, int dirfd, char const *rel,
                  char const *name)
{
  int fd = openat (dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    {
      /* A directory this process may not read, but write to, is
         synced with its file system all the same.  */
      int err = errno;
      struct stat st;
      if (err == EACCES && fstatat (dirfd, rel, &st, 0) == 0
          && noted (s, st.st_dev))
        return true;
      error (0, err, _("cannot open directory %s"), quoteaf (name));
      return false;
    }
  struct stat st;
  bool ok = fstat (fd, &st) == 0;
  if (!ok)
    error (0, errno, _("cannot fstat %s"), quoteaf (name));
  else
    ok = copy_sync_dir (s, fd, st.st_dev, name);
  /* Nothing was written through FD.  */
  close (fd);
  return ok;
}

bool
copy_sync_range (int fd, struct stat const *st, char const *name)
{
  if (synced_whole (fd, st->st_dev) || fdatasync (fd) == 0)
    return true;
  error (0, errno, _("fdatasync failed for %s"), quoteaf (name));
  return false;
}

bool
copy_syncs_now (struct copy_syncs *s)
{
  bool ok = true;
  pthread_mutex_lock (&s->lock);
#if HAVE_SYNCFS
  for (idx_t i = 0; i < s->n; i++)
    if (syncfs (s->v[i].fd) != 0)
      {
        error (0, errno, _("cannot sync the file system holding %s"),
               quoteaf (s->v[i].name));
        ok = false;
      }
#endif
  pthread_mutex_unlock (&s->lock);
  return ok;
}

bool
copy_syncs_end (struct copy_syncs *s, bool debug)
{
  bool ok = copy_syncs_now (s);
  if (debug && s->n)
    printf (_("sync: syncfs per file system (%td)\n"), s->n);
  if (debug && atomic_load (&s->each))
    printf (_("sync: per file and directory\n"));
  copy_syncs_free (s);
  return ok;
}

void
copy_syncs_free (struct copy_syncs *s)
{
  for (idx_t i = 0; i < s->n; i++)
    {
      /* syncfs has said what the file system could not write.  */
      close (s->v[i].fd);
      free (s->v[i].name);
    }
  free (s->v);
  pthread_mutex_destroy (&s->lock);
  free (s);
}
