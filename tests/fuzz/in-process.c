/* in-process.c -- run a program's main inside a fuzzing harness.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* exit is wrapped (-Wl,--wrap=exit) to jump back to the harness, so
   that every way a program ends returns to the fuzzer; so is error,
   since glibc's error calls exit from inside the C library, where the
   wrap does not reach.  atexit is wrapped so that handlers do not pile
   up over millions of runs.  The messages are not what is tested (the
   fuzzer runs with -close_fd_mask=3), only whether the program goes
   on.  */

#include <config.h>

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "in-process.h"

_Noreturn void __wrap_exit (int status);
int __wrap_atexit (void (*fn) (void));
void __wrap_error (int status, int errnum, char const *format, ...);
void __wrap_error_at_line (int status, int errnum, char const *file,
                           unsigned int line, char const *format, ...);

static jmp_buf back_to_fuzzer;
static _Bool in_main;

_Noreturn void
__wrap_exit (int status)
{
  void __real_exit (int) __attribute__ ((noreturn));
  if (in_main)
    longjmp (back_to_fuzzer, 1);
  __real_exit (status);
}

int
__wrap_atexit (void (*fn) (void))
{
  return 0;
}

void
__wrap_error (int status, int errnum, char const *format, ...)
{
  if (status)
    __wrap_exit (status);
}

void
__wrap_error_at_line (int status, int errnum, char const *file,
                      unsigned int line, char const *format, ...)
{
  if (status)
    __wrap_exit (status);
}

void
fuzz_run_main (int (*main_fn) (int, char **), int argc, char **argv)
{
  /* getopt keeps its place between calls; start it afresh.  */
  extern int optind;
  optind = 0;

  in_main = 1;
  if (setjmp (back_to_fuzzer) == 0)
    main_fn (argc, argv);
  in_main = 0;
}

int
fuzz_input_args (uint8_t const *data, size_t size, char **text,
                 char **argv, int argc, int max,
                 _Bool (*keep) (char const *))
{
  *text = malloc (size + 1);
  if (!*text)
    return -1;
  memcpy (*text, data, size);
  (*text)[size] = '\0';
  for (char *p = *text, *line; argc < max && (line = strsep (&p, "\n")); )
    if (keep (line))
      argv[argc++] = line;
  argv[argc] = NULL;
  return argc;
}
