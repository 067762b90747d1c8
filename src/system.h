/* system.h -- common includes and small helpers for cpdd programs.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.  */

#ifndef CPDD_SYSTEM_H
#define CPDD_SYSTEM_H

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "error.h"
#include "exitfail.h"
#include "idx.h"
#include "intprops.h"
#include "minmax.h"
#include "progname.h"
#include "quote.h"
#include "quotearg.h"
#include "xalloc.h"

/* error () as glibc's, but written whole: glibc's writes the program
   name, the message and the error's text one after another, which
   cp's workers, reporting at once, would interleave.  */
void cpdd_error (int status, int errnum, char const *format, ...)
  _GL_ATTRIBUTE_FORMAT ((__printf__, 3, 4));
#define error(...) cpdd_error (__VA_ARGS__)

/* Set the program's name from ARGV0, as set_program_name does, and
   have every diagnostic, gnulib's own among them (argmatch, xalloc_die,
   close_stdout), start with its last component, as GNU coreutils
   9.10's do.  */
void cpdd_set_program_name (char const *argv0);

/* Write the "NAME: " a diagnostic starts with.  As in GNU coreutils
   9.10, NAME is the last component of the name the program was run
   by, where usage lines and prompts show that name whole.  */
void print_error_progname (void);

/* Diagnostics held back instead of printed: each a line without the
   program's name, one after another in TEXT.  */
struct held_errors
{
  char *text;
  idx_t len;
};

/* A hold taken for a while: where the diagnostics were held before,
   and where they are held now.  */
struct error_hold_scope
{
  struct held_errors *outer;
  struct held_errors *held;
};

/* Hold the diagnostics this thread makes (without exiting: they have
   status 0) in H, which starts empty, until error_hold_give_back (S)
   puts back the hold found now.  One part of a job run in several
   threads can so report as the whole job would: once, and only the
   part that counts; it need not know whether a larger part holds
   them too.  Scopes nest; each is given back before the one it is
   in.  */
void error_hold_take (struct error_hold_scope *s, struct held_errors *h);

/* Put back the hold that error_hold_take found when it started S.  */
void error_hold_give_back (struct error_hold_scope *s);

/* Print the diagnostics held in H, as error () would have, and empty
   H.  */
void error_print_held (struct held_errors *h);

/* The first diagnostic made while a note is taken, kept to say why a
   file was not copied (cp --report): its text as printed, without the
   program's name, and ERRNUM, the error's number or 0.  TEXT is
   NULL while none was made, else to be freed.  */
struct error_note
{
  char *text;
  int errnum;
};

/* A note taken for a while, and the one taken before it.  */
struct error_note_scope
{
  struct error_note *outer;
  struct error_note *note;
};

/* Keep in N, which starts empty, the first diagnostic this thread
   makes until error_note_give_back (S); the diagnostic is printed or
   held as ever.  Scopes nest: an inner one keeps what is made in it
   from the outer one, so that each file of a tree has its own reason
   and a directory only what was said of itself.  */
void error_note_take (struct error_note_scope *s, struct error_note *n);

/* Put back the note that error_note_take found when it started S.  */
void error_note_give_back (struct error_note_scope *s);

/* cpdd is not translated; keep the markers so messages stay greppable
   and a later gettext hookup is mechanical.  */
#define _(msgid) (msgid)
#define N_(msgid) msgid

/* How GNU coreutils quotes a file name in a diagnostic: always quoted,
   shell-escaped where needed, so the message can be pasted back.  The
   result stays valid until the calling thread quotes again with the
   same N, which is 0, 1 or 2 (quoteaf uses 0): cp's workers report
   errors while the walk goes on, so unlike quotearg's buffers these
   belong to one thread.  */
char const *quoteaf_n (int n, char const *arg);

static inline char const *
quoteaf (char const *arg)
{
  return quoteaf_n (0, arg);
}

/* Quote a file name only where the shell would need it, as GNU does
   where the name starts a message ("dd: in: ...").  */
static inline char const *
quotef (char const *arg)
{
  return quotearg_n_style_colon (0, shell_escape_quoting_style, arg);
}

#define STREQ(a, b) (strcmp (a, b) == 0)

/* Report a usage error in the GNU way and exit.  */
_Noreturn void usage (int status);

/* The "Try 'PROG --help'" line that follows a usage diagnostic.  */
static inline void
emit_try_help (void)
{
  fprintf (stderr, _("Try '%s --help' for more information.\n"),
           program_name);
}

/* The closing lines of --help, naming where the manual is.  */
void emit_ancillary_info (char const *program);

/* Print --version output for PROGRAM, in GNU format.  */
void emit_version (char const *program);

#endif /* CPDD_SYSTEM_H */
