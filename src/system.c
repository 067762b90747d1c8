/* system.c -- small helpers every cpdd program uses.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"

#include <pthread.h>
#include <stdarg.h>

#include "dirname.h"

/* The message of ERRNUM, perhaps in BUF of SIZE bytes: strerror_r
   returns it with glibc, and only fills BUF where it is POSIX's (musl),
   and unlike strerror it is safe in any thread.  */
static char const *
error_string (int errnum, char *buf, size_t size)
{
#if STRERROR_R_CHAR_P
  return strerror_r (errnum, buf, size);
#else
  if (strerror_r (errnum, buf, size) != 0)
    snprintf (buf, size, "Unknown error %d", errnum);
  return buf;
#endif
}

/* The buffers of one thread's quoteaf_n, one per N.  Those of a
   worker thread are not freed when it ends: a command starts its
   workers once.  Each starts in a buffer of its own that is never
   freed, so that a name quoted again into a slot, as libattr does for
   a message's two names, leaves the first pointer valid: it then
   shows the later name, as with quotearg's.  */
enum { QUOTE_INITIAL_SIZE = 256 };
struct quote_slot
{
  char *buf;
  size_t size;
  char initial[QUOTE_INITIAL_SIZE];
};
enum { QUOTE_SLOTS = 3 };

/* What belongs to the calling thread alone, so that cp's workers
   report and quote while the walk goes on, without a lock: where its
   diagnostics are held (NULL: print them), where the first is noted
   (NULL: nowhere), and its quoting buffers.  */
static _Thread_local struct
{
  struct held_errors *held;
  struct error_note *note;
  struct quote_slot quote[QUOTE_SLOTS];
} this_thread;

/* Quoting's options, the same for every thread, and the key whose
   destructor frees a thread's grown buffers when it ends: set up once
   for the process.  */
static struct
{
  pthread_once_t once;
  pthread_key_t key;
  struct quoting_options *options;
} quoting = { .once = PTHREAD_ONCE_INIT };

void
error_hold_take (struct error_hold_scope *s, struct held_errors *h)
{
  s->outer = this_thread.held;
  s->held = h;
  this_thread.held = h;
}

void
error_hold_give_back (struct error_hold_scope *s)
{
  /* A scope given back out of turn would leave an outer part's
     diagnostics where an inner part, now gone, held them.  */
  if (this_thread.held != s->held)
    abort ();
  this_thread.held = s->outer;
}

void
error_note_take (struct error_note_scope *s, struct error_note *n)
{
  *n = (struct error_note) { NULL, 0 };
  s->outer = this_thread.note;
  s->note = n;
  this_thread.note = n;
}

void
error_note_give_back (struct error_note_scope *s)
{
  /* As for holds: out of turn, an outer file's reason would be kept
     where an inner file's note, now gone, was.  */
  if (this_thread.note != s->note)
    abort ();
  this_thread.note = s->outer;
}

/* Keep the message FORMAT with ARGS, and ERRNUM, in the thread's note
   unless it has one already.  */
static void
note_message (int errnum, char const *format, va_list args)
{
  struct error_note *note = this_thread.note;
  if (note->text)
    return;
  va_list again;
  va_copy (again, args);
  int n = vsnprintf (NULL, 0, format, again);
  va_end (again);
  if (n < 0)
    xalloc_die ();
  char buf[256];
  char const *err = errnum ? error_string (errnum, buf, sizeof buf) : NULL;
  note->text = ximalloc (n + (err ? 2 + strlen (err) : 0) + 1);
  vsnprintf (note->text, n + 1, format, args);
  if (err)
    stpcpy (stpcpy (note->text + n, ": "), err);
  note->errnum = errnum;
}

/* Add to the thread's held diagnostics the message FORMAT with ARGS,
   and ERRNUM's text.  */
static void
hold_message (int errnum, char const *format, va_list args)
{
  struct held_errors *held = this_thread.held;
  va_list again;
  va_copy (again, args);
  int n = vsnprintf (NULL, 0, format, again);
  va_end (again);
  if (n < 0)
    xalloc_die ();
  char buf[256];
  char const *err = errnum ? error_string (errnum, buf, sizeof buf) : NULL;
  idx_t size = held->len + n + (err ? 2 + strlen (err) : 0) + 2;
  held->text = xirealloc (held->text, size);
  char *p = held->text + held->len;
  vsnprintf (p, n + 1, format, args);
  p += n;
  if (err)
    p = stpcpy (stpcpy (p, ": "), err);
  strcpy (p, "\n");
  held->len = p + 1 - held->text;
}

void
error_print_held (struct held_errors *h)
{
  char const *p = h->text;
  char const *end = p + h->len;
  while (p < end)
    {
      char const *nl = memchr (p, '\n', end - p);
      int n = nl - p;
      error (0, 0, "%.*s", n, p);
      p = nl + 1;
    }
  free (h->text);
  *h = (struct held_errors) { NULL, 0 };
}

/* Write the last component of the program's name, and ": ".  */
static void
print_short_progname (void)
{
  fprintf (stderr, "%s: ", last_component (program_name));
}

void
cpdd_set_program_name (char const *argv0)
{
  set_program_name (argv0);
  error_print_progname = print_short_progname;
}

void
print_error_progname (void)
{
  if (error_print_progname)
    error_print_progname ();
  else
    print_short_progname ();
}

void
cpdd_error (int status, int errnum, char const *format, ...)
{
  if (this_thread.note)
    {
      va_list args;
      va_start (args, format);
      note_message (errnum, format, args);
      va_end (args);
    }
  if (this_thread.held && !status)
    {
      va_list args;
      va_start (args, format);
      hold_message (errnum, format, args);
      va_end (args);
      return;
    }

  /* Standard error's lock is recursive: every write below happens
     while it is held, and no other thread's comes in between.  */
  flockfile (stderr);
  fflush (stdout);
  print_error_progname ();
  va_list args;
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  if (errnum)
    {
      char buf[256];
      fprintf (stderr, ": %s", error_string (errnum, buf, sizeof buf));
    }
  putc ('\n', stderr);
  error_message_count++;
  funlockfile (stderr);
  if (status)
    exit (status);
}

static void
free_quote_slots (void *slots)
{
  struct quote_slot *s = slots;
  for (int i = 0; i < QUOTE_SLOTS; i++)
    if (s[i].buf != s[i].initial)
      free (s[i].buf);
}

static void
init_quoting (void)
{
  quoting.options = clone_quoting_options (NULL);
  set_quoting_style (quoting.options, shell_escape_always_quoting_style);
  if (pthread_key_create (&quoting.key, free_quote_slots) != 0)
    xalloc_die ();
}

char const *
quoteaf_n (int n, char const *arg)
{
  if (pthread_once (&quoting.once, init_quoting) != 0)
    abort ();
  struct quote_slot *slot = &this_thread.quote[n];
  if (!slot->buf)
    {
      slot->buf = slot->initial;
      slot->size = sizeof slot->initial;
    }
  for (;;)
    {
      size_t len = quotearg_buffer (slot->buf, slot->size, arg, SIZE_MAX,
                                    quoting.options);
      if (len < slot->size)
        return slot->buf;
      if (slot->buf != slot->initial)
        free (slot->buf);
      else if (pthread_setspecific (quoting.key, this_thread.quote) != 0)
        xalloc_die ();
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
