/* system.c -- small helpers every cpdd program uses.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"

#include <stdarg.h>

void
cpdd_error (int status, int errnum, char const *format, ...)
{
  /* Standard error's lock is recursive: every write below happens
     while it is held, and no other thread's comes in between.  */
  flockfile (stderr);
  fflush (stdout);
  if (error_print_progname)
    error_print_progname ();
  else
    fprintf (stderr, "%s: ", program_name);
  va_list args;
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  if (errnum)
    {
      char buf[256];
      fprintf (stderr, ": %s", strerror_r (errnum, buf, sizeof buf));
    }
  putc ('\n', stderr);
  error_message_count++;
  funlockfile (stderr);
  if (status)
    exit (status);
}

/* The buffers of one thread's quoteaf_n, one per N.  Those of a
   worker thread are not freed when it ends: a command starts its
   workers once.  */
struct quote_slot
{
  char *buf;
  size_t size;
};
enum { QUOTE_SLOTS = 3 };
static _Thread_local struct quote_slot quote_slots[QUOTE_SLOTS];
static _Thread_local struct quoting_options *quote_options;

char const *
quoteaf_n (int n, char const *arg)
{
  if (!quote_options)
    {
      quote_options = clone_quoting_options (NULL);
      set_quoting_style (quote_options, shell_escape_always_quoting_style);
    }
  struct quote_slot *slot = &quote_slots[n];
  for (;;)
    {
      size_t len = quotearg_buffer (slot->buf, slot->size, arg, SIZE_MAX,
                                    quote_options);
      if (len < slot->size)
        return slot->buf;
      free (slot->buf);
      slot->size = len + 1;
      slot->buf = xmalloc (slot->size);
    }
}

void
emit_ancillary_info (char const *program)
{
  printf (_("\nFull documentation: info '(%s) %s invocation'\n"),
          PACKAGE, program);
}

void
emit_version (char const *program)
{
  printf ("%s (%s) %s\n", program, PACKAGE_NAME, PACKAGE_VERSION);
  fputs (_("\
Copyright (C) 2026 The cpdd authors.\n\
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n\
This is free software: you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n\
\n\
Written by the cpdd authors.\n\
"), stdout);
}
