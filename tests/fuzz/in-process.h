/* in-process.h -- run a program's main inside a fuzzing harness.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_IN_PROCESS_H
#define CPDD_IN_PROCESS_H

/* Run MAIN_FN (a program's main, renamed with -Dmain=...) on ARGC and
   ARGV, from a fresh start of getopt, and come back however it ends:
   by returning, or by exit or error (usage errors included).  The
   harness must be linked with -Wl,--wrap=exit -Wl,--wrap=atexit
   -Wl,--wrap=error -Wl,--wrap=error_at_line.  */
void fuzz_run_main (int (*main_fn) (int, char **), int argc, char **argv);

#endif /* CPDD_IN_PROCESS_H */
