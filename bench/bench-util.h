/* bench-util.h -- what the benchmark programs share: their command
   lines' counts and operand, and medians.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_BENCH_UTIL_H
#define CPDD_BENCH_UTIL_H

#include <stdint.h>

/* Say how to get the program's help, and exit with status 1: what a
   command line the program cannot take ends with.  */
_Noreturn void bench_try_help (void);

/* The count ARG, from 1 to MAX; else a diagnostic that names WHAT, and
   bench_try_help.  */
intmax_t bench_count (char const *arg, char const *what, intmax_t max);

/* The comma-separated counts of ARG, each from 1 to MAX, into LIST,
   which has room for LIST_MAX: return how many; else a diagnostic
   that names WHAT, and bench_try_help.  ARG is cut up in the
   parsing.  */
int bench_counts (char *arg, char const *what, intmax_t max, int *list,
                  int list_max);

/* The one operand, a directory, that ARGV has from OPTIND on; else a
   diagnostic, and bench_try_help.  */
char const *bench_dir_operand (int argc, char **argv, int optind);

/* The median of the N values of V, which is left as it was.  */
double bench_median (double const *v, int n);

#endif
