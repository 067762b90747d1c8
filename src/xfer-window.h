/* xfer-window.h -- windowed mmap input.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The I/O layer (see doc/HACKING): windowed mmap input, for cp's
   mmap method and dd's iflag=mmap.  The reader maps the file in
   windows and survives the file shrinking under it: every access to
   the mapping it makes, or makes for the caller, turns the SIGBUS
   such an access raises into an "error reading" diagnostic.  The
   caller must therefore touch a window only through xfer_window_read,
   xfer_window_write, xfer_window_is_zero and xfer_window_hash.  */

#ifndef CPDD_XFER_WINDOW_H
#define CPDD_XFER_WINDOW_H

#include <stdbool.h>
#include <sys/types.h>

#include "idx.h"
#include "xfer-hash.h"
#include "xfer-io.h"

/* A file being read in windows; only xfer-window.c sees inside.  */
struct xfer_window;

/* Start reading FD, whose name is NAME, from its current offset to its
   end, in windows of WINDOW bytes (rounded up to the page size; 0
   means 8 MiB).  Return NULL with errno set if FD cannot be mapped (not
   a regular file, or one the system cannot map); print nothing then,
   so the caller can fall back to read.  */
struct xfer_window *xfer_window_open (int fd, char const *name,
                                      idx_t window);

/* Map the next window.  Set *DATA to its start and return its length;
   return 0 at end of file, or -1 after printing a diagnostic.  A window
   stays valid until the next call or xfer_window_close.  */
ssize_t xfer_window_next (struct xfer_window *w, char const **data);

/* Copy up to SIZE bytes from the input to BUF, mapping windows as
   needed, as read would.  Return the count, 0 at end of file, or -1
   after printing a diagnostic.  */
ssize_t xfer_window_read (struct xfer_window *w, void *buf, idx_t size);

/* Write the SIZE bytes at DATA, which lie in the current window, to
   FD named NAME.  Return true, or false after printing a diagnostic
   ("error reading" if the input shrank, "error writing" otherwise).  */
bool xfer_window_write (struct xfer_window *w, char const *data, idx_t size,
                        int fd, char const *name);

/* What a look for zeros in a window found.  */
enum xfer_zeros
{
  XFER_ZEROS_UNREAD,		/* the input shrank: a diagnostic was printed */
  XFER_ZEROS_NO,		/* some byte is not zero */
  XFER_ZEROS_ALL
};

/* Whether the SIZE bytes at DATA, in the current window, are all
   zero.  */
enum xfer_zeros xfer_window_is_zero (struct xfer_window *w,
                                     char const *data, idx_t size);

/* Add the SIZE bytes at DATA, in the current window, to HASH.  Return
   true, or false after printing a diagnostic (the input shrank).  */
bool xfer_window_hash (struct xfer_window *w, char const *data, idx_t size,
                       struct xfer_hash *hash);

/* The window size in use.  */
idx_t xfer_window_size (struct xfer_window const *w);

/* Unmap, restore the SIGBUS action, and leave the file offset just past
   the data handed out.  Return false after printing a diagnostic.  */
bool xfer_window_close (struct xfer_window *w);

/* Like xfer_window_open, but stop after LEN bytes if 0 <= LEN.  */
struct xfer_window *xfer_window_open_range (int fd, char const *name,
                                            idx_t window, off_t len);

/* Write the N bytes at DATA in W's current window to E.  Return the
   count written; less than N means failure, with errno set, EFAULT
   meaning the window could not be read (the input shrank).  */
idx_t xfer_window_put (struct xfer_window *w, struct xfer_end *e,
                       char const *data, idx_t n);

/* Print the "error reading" diagnostic for W's file.  */
void xfer_window_read_error (struct xfer_window const *w);

#endif /* CPDD_XFER_WINDOW_H */
