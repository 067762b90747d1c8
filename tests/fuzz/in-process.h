/* in-process.h -- run a program's main inside a fuzzing harness.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_IN_PROCESS_H
#define CPDD_IN_PROCESS_H

#include <stddef.h>
#include <stdint.h>

/* Run MAIN_FN (a program's main, renamed with -Dmain=...) on ARGC and
   ARGV, from a fresh start of getopt, and come back however it ends:
   by returning, or by exit or error (usage errors included).  The
   harness must be linked with -Wl,--wrap=exit -Wl,--wrap=atexit
   -Wl,--wrap=error -Wl,--wrap=error_at_line.  */
void fuzz_run_main (int (*main_fn) (int, char **), int argc, char **argv);

/* Split the SIZE bytes of DATA into lines, and add to ARGV, after its
   ARGC first elements, those that KEEP accepts, up to MAX elements in
   all.  Return the new count, with ARGV null-terminated (it must have
   room for MAX + 1), or -1 if out of memory.  The arguments point
   into *TEXT, which the caller frees.  */
int fuzz_input_args (uint8_t const *data, size_t size, char **text,
                     char **argv, int argc, int max,
                     _Bool (*keep) (char const *));

#endif /* CPDD_IN_PROCESS_H */
