/* copy-file.c -- a regular file's two ends, opened and filled.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "copy-file.h"
#include "copy-atomic.h"
#include "copy-hash.h"
#include "copy-resume.h"
#include "copy-report.h"
#include "ignore-value.h"
#include "same-inode.h"
#include "xfer-stats.h"

/* Remove DST to make room for its copy, saying so if VERBOSE.  */
bool
remove_destination (struct loc const *dst, bool verbose)
{
  if (unlinkat (loc_fd (dst), dst->rel, 0) != 0 && errno != ENOENT)
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
mode_t
new_file_mode (struct stat const *src_st, struct cp_options const *x)
{
  return (x->explicit_no_preserve_mode
          ? S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH
          : src_st->st_mode & (S_IRWXU | S_IRWXG | S_IRWXO));
}

/* Whether POSIX's rules, which write through a dangling symbolic link
   in the destination, are asked for.  */
bool
posixly_correct (void)
{
  return getenv ("POSIXLY_CORRECT") != NULL;
}

/* Is DST a symbolic link?  Where a new file could not be made because
   one is there, GNU cp takes it to lead nowhere, as it did when DST
   was looked at, or as it is taken to where DST was not looked at
   (copy_to).  */
static bool
dest_is_link (struct loc const *dst)
{
  struct stat st;
  return (fstatat (loc_fd (dst), dst->rel, &st, AT_SYMLINK_NOFOLLOW) == 0
          && S_ISLNK (st.st_mode));
}

/* Whether DST, the copy of SRC_ST, is made with the permissions it is
   to have, where GNU cp makes it with the owner's alone until the
   owner is set: where the owner it gets is already the source's (not
   with other ranks, which fill it without telling how it went).  */
static bool
makes_final_mode (struct loc const *dst, struct stat const *src_st,
                  struct copy_session const *s, struct cp_options const *x)
{
  return (x->preserve_mode && x->preserve_ownership
          && owned_as_made (s, dst, src_st) && !s->helpers.remote);
}

/* The permissions to make the copy of SRC_ST with, before the umask:
   no wider than the owner's while its owner is not yet the source's,
   unless WIDE (see makes_final_mode), and writable by the owner while
   its extended attributes are to be set.  Without WIDE, also those a copy
   that failed is left with, as GNU cp leaves it.  */
static mode_t
made_mode (struct stat const *src_st, bool wide, struct cp_options const *x)
{
  mode_t mode = new_file_mode (src_st, x);
  if (x->preserve_mode && x->preserve_ownership && !wide)
    mode &= S_IRWXU;
  return mode | xattr_write_access (x);
}

/* Set C->dst_st to the status of DST, C's copy just made (WIDE, as
   made_mode says) in a directory that gives_plain_files, where it is
   known without asking, and return true; or return false.  Its inode
   number is not known, so not where the copy is to be hashed and read
   back, nor where other ranks may fill it, which check they open that
   very file.  */
static bool
made_status (struct open_copy *c, struct loc const *dst, bool wide,
             struct copy_session const *s, struct cp_options const *x)
{
  if (! (dst->dir && dst->dir->plain_files) || 0 <= x->hash_algo
      || s->helpers.remote)
    return false;
  struct stat *st = &c->dst_st;
  memset (st, 0, sizeof *st);
  st->st_mode = S_IFREG | (made_mode (&c->src_st, wide, x) & ~x->umask);
  st->st_nlink = 1;
  st->st_dev = dst->dir->dev;
  st->st_blksize = dst->dir->file_blksize;
  st->st_uid = s->maker_uid;
  st->st_gid = s->maker_gid;
  return true;
}

/* How open_destination got its file.  */
struct dst_made
{
  bool created;			/* the copy made it */
  bool in_place;		/* and not through a dangling link */
  bool kept;			/* it was there, and is opened as it is, to
                                   be read and continued (--resume) */
  bool read_only;		/* and only to be read, as it may not be
                                   written */
};

/* Open DST for the data of SRC_ST.  EXISTS says whether DST is still
   there: it is then truncated in place, as GNU cp does, keeping its
   links, owner and permissions, or with -f replaced if it can't be
   opened.  A new file is created exclusively, so that no link planted
   there is followed, with permissions no wider than the source's and,
   while the owner is not yet set, no wider than the owner's (unless
   WIDE, as made_mode says); MADE says how it was got.  With RESUME,
   an existing file is opened as it is, to read, and to write if it
   may be.  */
static int
open_destination (struct loc const *dst, struct stat const *src_st,
                  bool exists, bool wide, bool resume, struct dst_made *made,
                  struct cp_options const *x)
{
  made->created = made->in_place = made->kept = made->read_only = false;
  if (exists)
    {
      /* What an earlier run copied is read to tell how far it got.  A
         complete copy of a read-only file needs no writing, and one
         this process may only write is copied anew.  */
      if (resume && !x->attributes_only)
        {
          int fd = openat (loc_fd (dst), dst->rel, O_RDWR | O_BINARY);
          if (fd < 0 && errno == EACCES)
            {
              fd = openat (loc_fd (dst), dst->rel, O_RDONLY | O_BINARY);
              made->read_only = true;
            }
          if (0 <= fd)
            {
              made->kept = true;
              return fd;
            }
          made->read_only = false;
        }
      int fd = openat (loc_fd (dst), dst->rel,
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

  mode_t mode = made_mode (src_st, wide, x);
  int fd = openat (loc_fd (dst), dst->rel,
                   O_WRONLY | O_CREAT | O_EXCL | O_BINARY, mode);
  if (0 <= fd)
    made->in_place = true;
  else if (errno == EEXIST && dest_is_link (dst))
    {
      /* A link planted where the copy goes is refused, unless POSIX's
         rules, which say to write through it, are asked for.  */
      if (!posixly_correct ())
        {
          error (0, 0, _("not writing through dangling symlink %s"),
                 quoteaf (dst->name));
          return -1;
        }
      fd = openat (loc_fd (dst), dst->rel, O_WRONLY | O_CREAT | O_BINARY,
                   mode);
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
  made->created = true;
  return fd;
}

/* C's destination existed and was opened as it is (--resume), only
   to be read if READ_ONLY: decide how to finish it, into C->resume, or
   empty it to be copied whole.  Return 0 if so; 1 if it is to be
   written but was opened only to read, with both ends at their start
   again; -1 after a diagnostic if it can't be done.  */
static int
prepare_resume (struct open_copy *c, bool read_only,
                struct cp_options const *x)
{
  /* A FIFO or a device is written as without --resume, and was not
     truncated either; a regular file filled from one is made anew, as
     only a regular file's copy can be told complete.  */
  if (!S_ISREG (c->dst_st.st_mode))
    return read_only;
  if (!S_ISREG (c->src_st.st_mode))
    {
      if (read_only)
        return 1;
      if (ftruncate (c->dst.fd, 0) != 0)
        {
          error (0, errno, _("failed to truncate %s"),
                 quoteaf (c->dst.name));
          return -1;
        }
      c->dst_st.st_size = 0;
      c->dst_st.st_blocks = 0;
      return 0;
    }
  struct xfer_file in = { c->src.fd, c->src.name, &c->src_st, true,
                          c->src_size_true };
  struct xfer_file out = { c->dst.fd, c->dst.name, &c->dst_st, true };
  struct resume_plan p;
  resume_decide (&in, &out, x, &p);
  if (p.verdict == RESUME_COMPLETE
      || (p.verdict == RESUME_PARTIAL && !read_only))
    {
      c->resume = xmemdup (&p, sizeof p);
      return 0;
    }
  resume_plan_free (&p);
  if (read_only)
    {
      if (lseek (c->src.fd, 0, SEEK_SET) < 0)
        {
          error (0, errno, _("cannot lseek %s"), quoteaf (c->src.name));
          return -1;
        }
      return 1;
    }
  if (!resume_start_over (&in, &out))
    return -1;
  c->dst_st.st_size = 0;
  c->dst_st.st_blocks = 0;
  return 0;
}

/* End what C's --resume plan holds, if any.  */
static void
end_resume (struct open_copy *c)
{
  if (c->resume)
    {
      resume_plan_free (c->resume);
      free (c->resume);
      c->resume = NULL;
    }
}

/* After C's data was copied (successfully if OK), copy its
   attributes, and close both ends.  Return whether all went well.  */
bool
finish_copy (struct open_copy *c, bool ok, struct cp_options const *x)
{
  if (ok)
    {
      struct attr_file out = c->dst;
      out.st = &c->dst_st;
      ok = copy_attributes (c->src, &c->src_st, out, x);
      /* --atomic syncs its temporary file whatever the file system,
         before the rename.  */
      if (ok && c->syncs && !c->atomic)
        ok = copy_sync_file (c->syncs, c->dst.fd, &c->dst_st, c->dst.name);
    }
  else if (c->made_final_mode)
    /* The copy has failed already: this is only to leave it as GNU
       does, and has nothing to add if it can't.  */
    ignore_value (fchmod (c->dst.fd,
                          made_mode (&c->src_st, false, x) & ~x->umask));

  if (c->atomic)
    {
      ok = atomic_temp_end (c->atomic, c->dst.fd, ok, c->dst.name);
      c->atomic = NULL;
    }
  else if (close (c->dst.fd) != 0)
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
   destination, and close both; say in R how the data moved.  */
bool
fill_copy (struct open_copy *c, struct cp_options const *x,
           struct copy_record *r)
{
  bool ok = true;
  bool clone_failed = false;
  /* A temporary file is removed by finish_copy when anything fails.  */
  bool removed_anyway = c->atomic != NULL;
  if (c->resume_pending)
    {
      c->resume_pending = false;
      ok = prepare_resume (c, false, x) == 0;
    }
  if (ok && !x->attributes_only)
    {
      struct xfer_file in = { c->src.fd, c->src.name, &c->src_st, true,
                              c->src_size_true };
      struct xfer_file out = { c->dst.fd, c->dst.name, &c->dst_st, true };
      struct xfer_report report;
      char hex[XFER_HASH_HEX_MAX] = "";
      ok = (c->resume ? resume_fill (&in, &out, c->resume, x, &report)
            : copy_hashes (&in, &out, x)
            ? copy_file_data (&in, &out, &report, hex, x)
            : xfer_copy (&in, &out, &x->xfer, &report));
      copy_record_data (r, &report, x->hash_algo, hex);
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
  end_resume (c);
  ok = finish_copy (c, ok, x);
  if (clone_failed && c->dst.created && !removed_anyway)
    remove_failed_clone (c->dst);
  return ok;
}

/* Whether FD, opened as NAME, is still the file WANT that the walk
   looked at; set *ST to its status.  Say why not if not.  */
bool
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
int
open_source (struct loc const *src, bool follow)
{
  return openat (loc_fd (src), src->rel,
                 O_RDONLY | O_BINARY | (follow ? 0 : O_NOFOLLOW));
}

/* Open DST, which exists, only to read it, for --resume to tell
   whether it is a complete copy, into *MADE; return -1 if it can't be,
   for the copy to be made as if it could not be kept.  */
static int
open_to_judge (struct loc const *dst, struct dst_made *made)
{
  made->created = made->in_place = false;
  int fd = openat (loc_fd (dst), dst->rel, O_RDONLY | O_BINARY);
  made->kept = made->read_only = 0 <= fd;
  return fd;
}

/* Open the file DST's data goes to, as open_destination says, or with
   --atomic the temporary file beside it, setting *ATOMIC to it (else
   to NULL), whose rename BATCH may take.  */
static int
open_copy_dst (struct loc const *dst, struct stat const *src_st,
               bool exists, bool wide, bool resume, struct dst_made *made,
               struct atomic_batch *batch, struct atomic_temp **atomic,
               struct cp_options const *x)
{
  *atomic = NULL;
  if (!atomic_replaces (x))
    return open_destination (dst, src_st, exists, wide, resume, made, x);
  /* Whatever is at DST stays until the rename replaces it.  */
  made->read_only = false;
  int fd = atomic_temp_open (dst, src_st, made_mode (src_st, wide, x),
                             resume, batch, &made->kept, atomic);
  made->created = made->in_place = !made->kept;
  return fd;
}

/* Make DST_FD, opened as MADE says (with permissions WIDE, as
   made_mode says), the end C writes to as DST.  */
static void
set_copy_dst (struct open_copy *c, struct loc const *dst, int dst_fd,
              struct dst_made const *made, bool wide)
{
  c->dst = loc_attr (dst, dst_fd, made->created);
  if (c->atomic)
    {
      /* Messages and --print-hash lines name the destination; calls
         by name reach the temporary file.  */
      c->dst.dirfd = c->atomic->dirfd;
      c->dst.rel = c->atomic->temp_rel;
    }
  c->made_final_mode = made->in_place && wide;
}

/* Open both ends of the copy of SRC to DST, which EXISTS still or
   is to be made, into *C, as session S and X say; return false after
   a diagnostic if either can't be, having closed both.  */
bool
open_copy_ends (struct file_source const *src, struct loc const *dst,
                bool exists, bool defer_resume, bool rename_now,
                struct copy_session const *s,
                struct cp_options const *x, struct open_copy *c)
{
  struct atomic_batch *batch = rename_now ? NULL : s->renames;
  int src_fd = src->fd;
  if (src_fd < 0)
    src_fd = open_source (src->loc, src->follow);
  if (src_fd < 0)
    {
      error (0, errno, _("cannot open %s for reading"),
             quoteaf (src->loc->name));
      return false;
    }

  if (src->fd_checked)
    c->src_st = *src->st;
  else if (!still_same_file (src_fd, src->loc->name, &c->src_st, src->st))
    goto close_src;

  bool wide = makes_final_mode (dst, &c->src_st, s, x);
  struct dst_made made;
  c->atomic = NULL;
  /* With --atomic --resume, a complete copy is kept where it is, and
     any other made aside, continuing what an interrupted run left
     there.  */
  bool judge_final = atomic_replaces (x) && x->resume && exists;
  int dst_fd = -1;
  if (judge_final)
    dst_fd = open_to_judge (dst, &made);
  if (dst_fd < 0)
    {
      judge_final = false;
      dst_fd = open_copy_dst (dst, &c->src_st, exists, wide, x->resume,
                              &made, batch, &c->atomic, x);
    }
  if (dst_fd < 0)
    goto close_src;
  c->src = loc_attr (src->loc, src_fd, false);
  set_copy_dst (c, dst, dst_fd, &made, wide);
  c->resume = NULL;
  c->resume_pending = false;
  c->syncs = s->syncs;
  c->src_size_true = (src->loc->dir && src->loc->dir->sizes_true
                      && c->src_st.st_dev == src->loc->dir->dev);

  if (! (made.in_place && made_status (c, dst, wide, s, x))
      && fstat (dst_fd, &c->dst_st) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (dst->name));
      goto close_dst;
    }
  if (s->syncs)
    copy_sync_start (s->syncs, dst_fd, &c->dst_st, dst->name);
  /* A file opened only to read may have to be opened again by its
     name, which only this thread is sure to reach.  */
  if (made.kept && defer_resume && !made.read_only)
    {
      c->resume_pending = true;
      return true;
    }
  int resumed = made.kept ? prepare_resume (c, made.read_only, x) : 0;
  if (resumed < 0)
    goto close_dst;
  if (0 < resumed)
    {
      /* To be written after all: as without --resume, which fails or
         (-f) replaces the file; or with --atomic aside, where what an
         interrupted run left is continued.  Only read, it has nothing
         to lose.  */
      close (dst_fd);
      dst_fd = open_copy_dst (dst, &c->src_st, exists, wide, judge_final,
                              &made, batch, &c->atomic, x);
      if (dst_fd < 0)
        goto close_src;
      set_copy_dst (c, dst, dst_fd, &made, wide);
      if (fstat (dst_fd, &c->dst_st) != 0)
        {
          error (0, errno, _("cannot fstat %s"), quoteaf (dst->name));
          goto close_dst;
        }
      if (made.kept)
        {
          if (defer_resume)
            {
              c->resume_pending = true;
              return true;
            }
          if (prepare_resume (c, false, x) != 0)
            goto close_dst;
        }
    }
  return true;

 close_dst:
  end_resume (c);
  if (c->atomic)
    {
      atomic_temp_end (c->atomic, dst_fd, false, dst->name);
      c->atomic = NULL;
    }
  else if (close (dst_fd) != 0)
    error (0, errno, _("failed to close %s"), quoteaf (dst->name));
 close_src:
  if (close (src_fd) != 0)
    error (0, errno, _("failed to close %s"), quoteaf (src->loc->name));
  return false;
}

bool
owned_as_made (struct copy_session const *s, struct loc const *dst,
               struct stat const *st)
{
  return (dst->dir && dst->dir->plain_files
          && st->st_uid == s->maker_uid && st->st_gid == s->maker_gid);
}
