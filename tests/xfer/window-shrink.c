/* window-shrink -- the mmap window reader, with its file truncated.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Usage: window-shrink HOW FILE [OUT]
   Opens FILE (at least three pages long, all zeros) with a two-page
   window reader, takes the first window, truncates FILE to one byte
   through another descriptor, so that the window's second page is
   past the end of file, and then touches the mapping as HOW says:
     read   xfer_window_read the rest of the window
     write  xfer_window_write the window to OUT
     zero   xfer_window_is_zero on the window
     next   ask for the next window
   Each must print "error reading FILE" and exit 1, not die of SIGBUS.
   Exits 0 only if the reader wrongly succeeded.  */

#include <config.h>

#include "system.h"
#include "xfer-window.h"

void usage (int status);
void
usage (int status)
{
  fprintf (stderr, "Usage: %s read|write|zero|next FILE [OUT]\n",
           program_name);
  exit (status);
}

int
main (int argc, char **argv)
{
  set_program_name (argv[0]);
  if (argc < 3)
    usage (EXIT_FAILURE);
  char const *how = argv[1];
  char const *name = argv[2];

  int fd = open (name, O_RDONLY);
  int trunc_fd = open (name, O_WRONLY);
  if (fd < 0 || trunc_fd < 0)
    error (EXIT_FAILURE, errno, "%s", quoteaf (name));
  idx_t page = getpagesize ();
  struct xfer_window *w = xfer_window_open (fd, name, 2 * page);
  if (!w)
    error (EXIT_FAILURE, errno, "%s", quoteaf (name));

  char buf[16];
  char const *data = NULL;
  ssize_t n;
  if (STREQ (how, "read"))
    n = xfer_window_read (w, buf, 1);
  else
    n = xfer_window_next (w, &data);
  if (n != (STREQ (how, "read") ? 1 : 2 * page))
    error (EXIT_FAILURE, 0, "the first window is wrong: %zd", n);

  if (ftruncate (trunc_fd, 1) != 0)
    error (EXIT_FAILURE, errno, "ftruncate");

  bool ok;
  if (STREQ (how, "read"))
    {
      char *rest = xmalloc (2 * page);
      ok = xfer_window_read (w, rest, 2 * page) == 2 * page - 1;
      free (rest);
    }
  else if (STREQ (how, "write"))
    {
      if (argc < 4)
        usage (EXIT_FAILURE);
      int out = open (argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (out < 0)
        error (EXIT_FAILURE, errno, "%s", quoteaf (argv[3]));
      /* Skip the first byte, which is still in the file.  */
      ok = xfer_window_write (w, data + 1, n - 1, out, argv[3]);
    }
  else if (STREQ (how, "zero"))
    ok = xfer_window_is_zero (w, data + 1, n - 1) != XFER_ZEROS_UNREAD;
  else if (STREQ (how, "next"))
    ok = 0 <= xfer_window_next (w, &data);
  else
    usage (EXIT_FAILURE);

  ok &= xfer_window_close (w);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
