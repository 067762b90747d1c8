/* fuzz-dd-args.c -- libFuzzer harness for dd's command line.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* dd has no parsing entry point apart from main, so this harness links
   dd.c with its main renamed (-Dmain=dd_main) and runs it in-process
   (in-process.c) on operands made from the input: one per line.
   Operands naming files (if=, of=, hashlog=) are dropped and if=/dev/null
   of=/dev/null appended, so that no input can make the harness read or
   write a file of its choosing.  */

#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "in-process.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);
int dd_main (int argc, char **argv);

enum { MAX_OPERANDS = 64 };

static _Bool
names_no_file (char const *operand)
{
  return ! (strncmp (operand, "if=", 3) == 0
            || strncmp (operand, "of=", 3) == 0
            || strncmp (operand, "hashlog=", 8) == 0);
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  static char prog[] = "dd";
  static char in[] = "if=/dev/null";
  static char out[] = "of=/dev/null";
  char *argv[MAX_OPERANDS + 3] = { prog };
  char *text;
  int argc = fuzz_input_args (data, size, &text, argv, 1, MAX_OPERANDS,
                              names_no_file);
  if (0 < argc)
    {
      argv[argc++] = in;
      argv[argc++] = out;
      argv[argc] = NULL;
      fuzz_run_main (dd_main, argc, argv);
    }
  free (text);
  return 0;
}
