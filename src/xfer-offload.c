/* xfer-offload.c -- copies the kernel does: FICLONE, copy_file_range,
   sendfile.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Two methods, of the engine (see doc/HACKING): the clone,
   which the chooser tries first on whole files as --reflink asks, and
   the offload of a range.  The kernel moves the data, so only the ends'
   offsets and the accounting call (xfer-output.c) are touched
   here.  They call no other method and not the chooser, which falls back
   to the read/write loop where the kernel cannot offload.  */

#include <config.h>

#if HAVE_FICLONE
# include <linux/fs.h>
# include <sys/ioctl.h>
#endif
#if HAVE_SENDFILE && HAVE_SYS_SENDFILE_H
# include <sys/sendfile.h>
#endif

#include "system.h"
#include "xfer-method.h"
#include "xfer-output.h"
#include "xfer-io.h"

#if HAVE_FICLONE
/* The error with which clones from C's source's file system to its
   destination's were refused, or 0.  */
static int
clone_refusal (struct xfer_ctx const *c)
{
  return xfer_clone_refusal (c->in.st->st_dev, c->out.st->st_dev);
}

/* Remember that a clone of C's files failed with ERR, if that says the
   file systems cannot clone.  Only errors that belong to a file
   system's kind are kept: EXDEV also comes from two mounts of one file
   system, and EINVAL or EPERM from one file.  */
static void
note_clone_refusal (struct xfer_ctx const *c, int err)
{
  if (err == EOPNOTSUPP || err == ENOTTY || err == ENOSYS
#if ENOTSUP != EOPNOTSUPP
      || err == ENOTSUP
#endif
      )
    xfer_note_clone_refusal (c->in.st->st_dev, c->out.st->st_dev, err);
}
#endif

/* Make the destination share the source's extents.  Return true on
   success; otherwise false with errno set.  */
static bool
ficlone (struct xfer_ctx const *c)
{
#if HAVE_FICLONE
  /* --reflink=always asks each file: the refusal is then an error, and
     one of a share that spans file systems (SMB) may be this file's
     alone.  */
  int err = (c->opts->reflink == XFER_REFLINK_ALWAYS ? 0
             : clone_refusal (c));
  if (err == 0)
    {
      if (ioctl (c->out.fd, FICLONE, c->in.fd) == 0)
        return true;
      err = errno;
      note_clone_refusal (c, err);
    }
  errno = err;
  return false;
#else
  errno = EOPNOTSUPP;
  return false;
#endif
}

/* Whether C copies whole files: a clone cannot start past an end's
   start (dd's skip= and seek=).  Other files than regular ones are
   left to the kernel to refuse, as GNU cp does, and so is an end that
   cannot seek.  */
static bool
whole_files (struct xfer_ctx const *c)
{
  return c->in.pos <= 0 && c->out.pos <= 0;
}

/* Whether C's options ask for a clone: --reflink=always whatever the
   files, an automatic one of whole files only, and not under
   --sparse=never, as the destination is to have no holes.  */
static bool
clone_suits (struct xfer_ctx const *c, off_t len _GL_UNUSED)
{
  enum xfer_reflink want = c->opts->reflink;
  return (want == XFER_REFLINK_ALWAYS
          || (want == XFER_REFLINK_AUTO
              && c->opts->sparse != XFER_SPARSE_NEVER && whole_files (c)));
}

/* Whether a clone's failure with errno E says more than that the
   files cannot share extents: the storage failed or is full, which a
   copy of the data another way would meet too, or hide.  GNU cp then
   fails even under --reflink=auto.  */
static bool
clone_error_is_final (int e)
{
  return e == EIO || e == ENOMEM || e == ENOSPC || e == EDQUOT;
}

/* Clone the whole file, whatever *LEN_PTR says.  XFER_STEP_UNSUITED
   means that the data is to be copied another way; XFER_STEP_FAILED
   that --reflink=always could not clone, or that the clone met an
   error no other copy would get past.  */
static enum xfer_step
reflink (struct xfer_ctx *c, off_t *len_ptr _GL_UNUSED)
{
  struct xfer_report *r = c->report;
  bool whole = whole_files (c);
  if (whole && ficlone (c))
    {
      r->reflink = XFER_ATTEMPT_YES;
      r->reflinked = true;
      r->method = XFER_METHOD_OFFLOAD;
      r->detection = XFER_DETECT_UNKNOWN;
      xfer_account_unseen (c, c->in.st->st_size);
      return XFER_STEP_DONE;
    }
  r->reflink = XFER_ATTEMPT_UNSUPPORTED;
  int e = whole ? errno : EINVAL;
  if (c->opts->reflink == XFER_REFLINK_ALWAYS || clone_error_is_final (e))
    {
      error (0, e, _("failed to clone %s from %s"),
             quoteaf_n (0, c->out.name), quoteaf_n (1, c->in.name));
      r->detection = XFER_DETECT_UNKNOWN;
      return XFER_STEP_FAILED;
    }
  return XFER_STEP_UNSUITED;
}

struct xfer_method_ops const xfer_clone_method =
  { "clone", clone_suits, reflink };

/* The most one call moves: large, to keep the system calls few, but
   small enough for the progress line to move every second or so.  */
enum { OFFLOAD_CHUNK = 1 << 30, OFFLOAD_CHUNK_PROGRESS = 64 << 20 };

/* Whether ERR from copy_file_range or sendfile means the kernel cannot
   do this copy, as opposed to an I/O error.  */
static bool
unsupported (int err)
{
  switch (err)
    {
    case ENOSYS: case EXDEV: case EINVAL: case EBADF: case ETXTBSY:
    case EPERM: case EOPNOTSUPP:
#if ENOTSUP != EOPNOTSUPP
    case ENOTSUP:
#endif
      return true;
    default:
      return false;
    }
}

/* Move at most N bytes in the kernel, from the source's offset to the
   destination's, advancing both: copy_file_range unless it refused
   this pair of files before, else sendfile.  Set C->sending if
   copy_file_range cannot do it and sendfile might; the refusal holds
   for the rest of the copy, whose later extents would meet it again
   once data has moved, when it can no longer be told from a failure.
   Return the count, 0 at end of file, -1 with errno.  */
static ssize_t
offload_step (struct xfer_ctx *c, size_t n)
{
#if HAVE_COPY_FILE_RANGE
  if (!c->sending)
    {
      ssize_t r = copy_file_range (c->in.fd, NULL, c->out.fd, NULL, n, 0);
      if (! (r < 0 && !c->moved && unsupported (errno)))
        return r;
      c->sending = true;
      c->report->offload = XFER_ATTEMPT_UNSUPPORTED;
    }
#endif
#if HAVE_SENDFILE && HAVE_SYS_SENDFILE_H
  return sendfile (c->out.fd, c->in.fd, NULL, n);
#else
  errno = ENOSYS;
  return -1;
#endif
}

/* Only the copy that chose to offload: other methods chose a buffer,
   zero detection or direct I/O, which the kernel's copy would not
   honour.  */
static bool
offload_suits (struct xfer_ctx const *c, off_t len _GL_UNUSED)
{
  return c->method == XFER_METHOD_OFFLOAD;
}

/* Have the kernel copy *LEN_PTR bytes; XFER_STEP_UNSUITED if it
   cannot offload this pair of files.  */
static enum xfer_step
offload (struct xfer_ctx *c, off_t *len_ptr)
{
  off_t len = *len_ptr;
  off_t chunk = (c->sink ? OFFLOAD_CHUNK_PROGRESS : OFFLOAD_CHUNK);

  while (len != 0)
    {
      size_t n = 0 <= len && len < chunk ? len : chunk;
      ssize_t r = offload_step (c, n);
      if (r < 0)
        {
          if (errno == EINTR)
            continue;
          if (!c->moved && unsupported (errno))
            {
              /* GNU's "copy offload" is about copy_file_range alone:
                 a sendfile refused says nothing of it.  */
              if (!c->sending)
                c->report->offload = XFER_ATTEMPT_UNSUPPORTED;
              return XFER_STEP_UNSUITED;
            }
          /* A full destination is a write error whichever call saw
             it; GNU cp words it so too.  */
          if (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)
            error (0, errno, _("error writing %s"), quoteaf (c->out.name));
          else
            error (0, errno, _("error copying %s to %s"),
                   quoteaf_n (0, c->in.name), quoteaf_n (1, c->out.name));
          return XFER_STEP_FAILED;
        }
      if (r == 0)
        {
          /* Some file systems (/proc, some FUSE) report no data to
             copy_file_range and plenty to read: let read decide.  */
          if (!c->moved)
            return XFER_STEP_UNSUITED;
          break;
        }
      c->moved = true;
      c->report->method = XFER_METHOD_OFFLOAD;
      /* GNU cp's "copy offload" is copy_file_range alone.  */
      if (!c->sending)
        c->report->offload = XFER_ATTEMPT_YES;
      c->in.pos += r;
      c->out.pos += r;
      c->out_end = MAX (c->out_end, c->out.pos);
      xfer_account_unseen (c, r);
      if (0 <= len)
        len -= r;
    }
  return XFER_STEP_DONE;
}

struct xfer_method_ops const xfer_offload_method =
  { "offload", offload_suits, offload };
