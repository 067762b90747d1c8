/* test-cpus.c -- CPU quotas read from cgroup v1 and v2 hierarchies,
   built here as small directory trees.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "cpus.h"

#include "filenamecat.h"

static int failures;
static char root[] = "test-cpus.XXXXXX";

/* What was made under ROOT, to remove in reverse order.  */
static char *made[64];
static int n_made;

static void
remember (char const *name)
{
  if (n_made == sizeof made / sizeof *made)
    error (EXIT_FAILURE, 0, "too many test files");
  made[n_made++] = xstrdup (name);
}

static void
remove_all (void)
{
  while (n_made)
    {
      char *name = made[--n_made];
      if (remove (name) != 0)
        error (EXIT_FAILURE, errno, "%s", quoteaf (name));
      free (name);
    }
  if (rmdir (root) != 0)
    error (EXIT_FAILURE, errno, "%s", quoteaf (root));
}

/* Write TEXT to ROOT/NAME, making its directories.  */
static void
put (char const *name, char const *text)
{
  char *file = file_name_concat (root, name, NULL);
  for (char *p = strchr (file + strlen (root) + 1, '/'); p;
       p = strchr (p + 1, '/'))
    {
      *p = '\0';
      if (mkdir (file, 0700) == 0)
        remember (file);
      else if (errno != EEXIST)
        error (EXIT_FAILURE, errno, "%s", quoteaf (file));
      *p = '/';
    }
  if (access (file, F_OK) != 0)
    remember (file);
  FILE *f = fopen (file, "w");
  if (!f || fputs (text, f) == EOF || fclose (f) != 0)
    error (EXIT_FAILURE, errno, "%s", quoteaf (file));
  free (file);
}

static void
expect (char const *what, char const *proc, int want)
{
  put ("proc", proc);
  char *proc_file = file_name_concat (root, "proc", NULL);
  char *mount = file_name_concat (root, "cg", NULL);
  int got = cgroup_cpu_quota (proc_file, mount);
  if (got != want)
    {
      fprintf (stderr, "FAIL: %s: got %d, want %d\n", what, got, want);
      failures++;
    }
  free (proc_file);
  free (mount);
}

int
main (int argc _GL_UNUSED, char **argv)
{
  set_program_name (argv[0]);
  if (!mkdtemp (root))
    error (EXIT_FAILURE, errno, "mkdtemp");

  put ("cg/cpu.max", "max 100000\n");
  put ("cg/box/cpu.max", "250000 100000\n");
  put ("cg/box/inner/cpu.max", "max 100000\n");
  put ("cg/wide/cpu.max", "800000 100000\n");
  put ("cg/wide/narrow/cpu.max", "100000 100000\n");
  expect ("v2, no quota", "0::/\n", 0);
  expect ("v2, rounded up", "0::/box\n", 3);
  expect ("v2, a parent's quota applies", "0::/box/inner\n", 3);
  expect ("v2, the child's tighter quota", "0::/wide/narrow\n", 1);
  expect ("v2, a group not there", "0::/gone\n", 0);

  put ("cg/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
  put ("cg/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  put ("cg/cpu,cpuacct/job/cpu.cfs_quota_us", "150000\n");
  put ("cg/cpu,cpuacct/job/cpu.cfs_period_us", "100000\n");
  expect ("v1, no quota", "4:memory:/x\n2:cpu,cpuacct:/\n", 0);
  expect ("v1, quota", "4:memory:/x\n2:cpu,cpuacct:/job\n", 2);
  expect ("v1, controller listed apart from cpuacct",
          "3:cpuacct:/\n2:cpu:/job\n", 0);
  put ("cg/cpu/job/cpu.cfs_quota_us", "400000\n");
  put ("cg/cpu/job/cpu.cfs_period_us", "100000\n");
  expect ("v1, cpu mounted alone", "2:cpu:/job\n", 4);
  expect ("hybrid: the tightest of v1 and v2",
          "2:cpu,cpuacct:/job\n0::/box\n", 2);
  expect ("not a cgroup file", "garbage\n", 0);

  remove_all ();

  int cpus = usable_cpus ();
  if (cpus < 1)
    {
      fprintf (stderr, "FAIL: usable_cpus () is %d\n", cpus);
      failures++;
    }
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
