/* fuzz-dd-args.c -- libFuzzer harness for dd's command line.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* dd has no parsing entry point apart from main, so this harness links
   dd.c with its main renamed (-Dmain=dd_main) and runs it in-process
   on operands made from the input: one per line.  exit is wrapped
   (-Wl,--wrap=exit) to jump back here, so that every way dd ends,
   usage errors included, returns to the fuzzer, and so is error, since
   glibc's error calls exit from inside the C library, where the wrap
   does not reach; atexit is wrapped so that handlers do not pile up.  Operands naming files (if=, of=) are
   dropped and if=/dev/null of=/dev/null appended, so that no input can
   make the harness read or write a file of its choosing.  */

#include <config.h>

#include <fcntl.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);
int dd_main (int argc, char **argv);
_Noreturn void __wrap_exit (int status);
int __wrap_atexit (void (*fn) (void));
void __wrap_error (int status, int errnum, char const *format, ...);
void __wrap_error_at_line (int status, int errnum, char const *file,
                           unsigned int line, char const *format, ...);

enum { MAX_OPERANDS = 64 };

static jmp_buf back_to_fuzzer;
static _Bool in_dd;

_Noreturn void
__wrap_exit (int status)
{
  void __real_exit (int) __attribute__ ((noreturn));
  if (in_dd)
    longjmp (back_to_fuzzer, 1);
  __real_exit (status);
}

int
__wrap_atexit (void (*fn) (void))
{
  return 0;
}

/* The messages are not what is tested (make fuzz runs the harness with
   -close_fd_mask=3, which silences dd); only whether dd goes on.  */
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

static _Bool
names_a_file (char const *operand)
{
  return strncmp (operand, "if=", 3) == 0 || strncmp (operand, "of=", 3) == 0;
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  char *text = malloc (size + 1);
  if (!text)
    return 0;
  memcpy (text, data, size);
  text[size] = '\0';

  static char prog[] = "dd";
  static char in[] = "if=/dev/null";
  static char out[] = "of=/dev/null";
  char *argv[MAX_OPERANDS + 4];
  int argc = 0;
  argv[argc++] = prog;
  for (char *p = text, *line; argc < MAX_OPERANDS
       && (line = strsep (&p, "\n")); )
    if (!names_a_file (line))
      argv[argc++] = line;
  argv[argc++] = in;
  argv[argc++] = out;
  argv[argc] = NULL;

  /* getopt keeps its place between calls; start it afresh.  */
  extern int optind;
  optind = 0;

  in_dd = 1;
  if (setjmp (back_to_fuzzer) == 0)
    dd_main (argc, argv);
  in_dd = 0;

  free (text);
  return 0;
}
