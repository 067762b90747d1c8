/* bench-util.c -- what the benchmark programs share: their command
   lines' counts and operand, and medians.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "bench-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "progname.h"
#include "xalloc.h"
#include "xstrtol.h"

void
bench_try_help (void)
{
  fprintf (stderr, "Try '%s --help' for more information.\n",
           program_name);
  exit (EXIT_FAILURE);
}

intmax_t
bench_count (char const *arg, char const *what, intmax_t max)
{
  intmax_t n;
  if (xstrtoimax (arg, NULL, 10, &n, "") != LONGINT_OK || n < 1 || max < n)
    {
      error (0, 0, "invalid %s: %s", what, arg);
      bench_try_help ();
    }
  return n;
}

int
bench_counts (char *arg, char const *what, intmax_t max, int *list,
              int list_max)
{
  int n = 0;
  for (char *p = strtok (arg, ","); p; p = strtok (NULL, ","))
    {
      if (n == list_max)
        {
          error (0, 0, "at most %d values of %s", list_max, what);
          bench_try_help ();
        }
      list[n++] = bench_count (p, what, max);
    }
  if (n == 0)
    {
      error (0, 0, "no %s given", what);
      bench_try_help ();
    }
  return n;
}

char const *
bench_dir_operand (int argc, char **argv, int optind)
{
  if (argc <= optind)
    error (0, 0, "missing directory operand");
  else if (optind + 1 < argc)
    error (0, 0, "extra operand: %s", argv[optind + 1]);
  else
    return argv[optind];
  bench_try_help ();
}

static int
compare_doubles (void const *a, void const *b)
{
  double x = *(double const *) a, y = *(double const *) b;
  return (y < x) - (x < y);
}

double
bench_median (double const *v, int n)
{
  double *s = xnmalloc (n, sizeof *s);
  memcpy (s, v, n * sizeof *v);
  qsort (s, n, sizeof *s, compare_doubles);
  double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  free (s);
  return m;
}
