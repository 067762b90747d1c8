/* copy.c -- copy one file, the way cp does.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "copy.h"
#include "fcntl-safer.h"
#include "same-inode.h"

/* Open DST_NAME for writing the copy of a file whose status is SRC_ST.
   An existing file is truncated in place, as GNU cp does, so that its
   links, owner and permissions stay as they were.  A new file starts
   with the source's permission bits less the umask, never wider.  */
static int
open_destination (char const *dst_name, struct stat const *src_st,
                  bool *created)
{
  int fd = open (dst_name, O_WRONLY | O_TRUNC | O_BINARY);
  *created = false;
  if (0 <= fd || errno != ENOENT)
    return fd;
  fd = open (dst_name, O_WRONLY | O_CREAT | O_EXCL | O_BINARY,
             src_st->st_mode & (S_IRWXU | S_IRWXG | S_IRWXO));
  *created = 0 <= fd;
  return fd;
}

static void
print_debug (struct xfer_report const *r)
{
  printf ("copy method: %s, buffer size: %jd, direct: %s%s\n",
          xfer_method_name (r->method), (intmax_t) r->buffer_size,
          (r->direct == XFER_DIRECT_BOTH ? "both"
           : r->direct == XFER_DIRECT_IN ? "in"
           : r->direct == XFER_DIRECT_OUT ? "out" : "no"),
          r->reflinked ? ", reflinked" : "");
}

static bool
copy_regular (char const *src_name, char const *dst_name,
              struct stat const *src_st, struct cp_options const *x)
{
  int src_fd = open (src_name, O_RDONLY | O_BINARY);
  if (src_fd < 0)
    {
      error (0, errno, _("cannot open %s for reading"), quoteaf (src_name));
      return false;
    }

  bool ok = true;
  struct stat src_fst;
  if (fstat (src_fd, &src_fst) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (src_name));
      ok = false;
      goto close_src;
    }

  bool created;
  int dst_fd = open_destination (dst_name, &src_fst, &created);
  if (dst_fd < 0)
    {
      error (0, errno, _("cannot create regular file %s"),
             quoteaf (dst_name));
      ok = false;
      goto close_src;
    }

  struct stat dst_st;
  if (fstat (dst_fd, &dst_st) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (dst_name));
      ok = false;
    }
  else
    {
      struct xfer_file src = { src_fd, src_name, &src_fst };
      struct xfer_file dst = { dst_fd, dst_name, &dst_st };
      struct xfer_report report;
      ok = xfer_copy (&src, &dst, &x->xfer, &report);
      if (x->debug)
        print_debug (&report);
    }

  if (close (dst_fd) != 0)
    {
      error (0, errno, _("failed to close %s"), quoteaf (dst_name));
      ok = false;
    }

 close_src:
  if (close (src_fd) != 0)
    {
      error (0, errno, _("failed to close %s"), quoteaf (src_name));
      ok = false;
    }
  return ok;
}

bool
copy (char const *src_name, char const *dst_name, struct cp_options const *x)
{
  struct stat src_st, dst_st;

  if (stat (src_name, &src_st) != 0)
    {
      error (0, errno, _("cannot stat %s"), quoteaf (src_name));
      return false;
    }
  if (S_ISDIR (src_st.st_mode))
    {
      error (0, 0, _("-r not specified; omitting directory %s"),
             quoteaf (src_name));
      return false;
    }

  if (stat (dst_name, &dst_st) == 0)
    {
      if (SAME_INODE (src_st, dst_st))
        {
          error (0, 0, _("%s and %s are the same file"),
                 quoteaf_n (0, src_name), quoteaf_n (1, dst_name));
          return false;
        }
      if (S_ISDIR (dst_st.st_mode))
        {
          error (0, 0, _("cannot overwrite directory %s with non-directory"),
                 quoteaf (dst_name));
          return false;
        }
    }
  else if (errno != ENOENT)
    {
      error (0, errno, _("cannot stat %s"), quoteaf (dst_name));
      return false;
    }

  if (!copy_regular (src_name, dst_name, &src_st, x))
    return false;
  if (x->verbose)
    printf ("%s -> %s\n", quoteaf_n (0, src_name), quoteaf_n (1, dst_name));
  return true;
}
