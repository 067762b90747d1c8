/* cpus.c -- how many CPUs a process may keep busy.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* --jobs=auto should start as many workers as can run at once.  The
   affinity mask says which CPUs the process may use, but a container
   is more often limited by a CPU quota (cgroup v2's cpu.max, v1's
   cpu.cfs_quota_us): a 2-CPU quota on a 64-CPU host makes 64 workers
   wait on each other.  Neither is an error to lack: no quota found
   means no quota.  */

#include <config.h>

#include "cpus.h"

#include "system.h"

#include <limits.h>

#include "filenamecat.h"
#include "nproc.h"

/* The first line of FILE as a string, or NULL.  */
static char *
read_line (char const *file)
{
  FILE *f = fopen (file, "re");
  if (!f)
    return NULL;
  char *line = NULL;
  size_t size = 0;
  ssize_t n = getline (&line, &size, f);
  fclose (f);
  if (n <= 0)
    {
      free (line);
      return NULL;
    }
  line[strcspn (line, "\n")] = '\0';
  return line;
}

/* QUOTA microseconds of CPU time per PERIOD, in whole CPUs rounded
   up; 0 if either is not a positive number.  */
static int
quota_to_cpus (long long quota, long long period)
{
  if (quota <= 0 || period <= 0)
    return 0;
  long long cpus = quota / period + (quota % period != 0);
  return cpus < INT_MAX ? cpus : INT_MAX;
}

/* The quota set in cgroup v2 directory DIR ("max PERIOD" is none).  */
static int
v2_quota (char const *dir)
{
  char *file = file_name_concat (dir, "cpu.max", NULL);
  char *line = read_line (file);
  free (file);
  long long quota, period;
  int cpus = 0;
  if (line && sscanf (line, "%lld %lld", &quota, &period) == 2)
    cpus = quota_to_cpus (quota, period);
  free (line);
  return cpus;
}

/* The quota set in cgroup v1 directory DIR (a quota of -1 is none).  */
static int
v1_quota (char const *dir)
{
  char *qfile = file_name_concat (dir, "cpu.cfs_quota_us", NULL);
  char *pfile = file_name_concat (dir, "cpu.cfs_period_us", NULL);
  char *qline = read_line (qfile);
  char *pline = read_line (pfile);
  long long quota, period;
  int cpus = 0;
  if (qline && pline
      && sscanf (qline, "%lld", &quota) == 1
      && sscanf (pline, "%lld", &period) == 1)
    cpus = quota_to_cpus (quota, period);
  free (qfile);
  free (pfile);
  free (qline);
  free (pline);
  return cpus;
}

/* The smallest quota of MOUNT/GROUP and its ancestors up to MOUNT,
   read by QUOTA_OF; 0 if none has one.  A parent's quota caps its
   children's, so the tightest one anywhere on the path applies.  */
static int
path_quota (char const *mount, char const *group,
            int (*quota_of) (char const *))
{
  char *dir = file_name_concat (mount, group, NULL);
  idx_t mount_len = strlen (mount);
  int best = 0;
  for (;;)
    {
      int cpus = quota_of (dir);
      if (cpus && (!best || cpus < best))
        best = cpus;
      char *slash = strrchr (dir, '/');
      if (!slash || slash - dir < mount_len)
        break;
      *slash = '\0';
    }
  free (dir);
  return best;
}

/* Whether the comma-separated CONTROLLERS of a cgroup v1 hierarchy
   include "cpu".  */
static bool
has_cpu_controller (char const *controllers)
{
  for (char const *p = controllers; *p; )
    {
      idx_t len = strcspn (p, ",");
      if (len == 3 && memcmp (p, "cpu", 3) == 0)
        return true;
      p += len + (p[len] == ',');
    }
  return false;
}

/* The quota of the hierarchy described by one line of
   /proc/self/cgroup ("ID:CONTROLLERS:PATH").  */
static int
line_quota (char *line, char const *cgroup_root)
{
  char *controllers = strchr (line, ':');
  char *group = controllers ? strchr (controllers + 1, ':') : NULL;
  if (!group)
    return 0;
  *controllers++ = '\0';
  *group++ = '\0';
  if (strcmp (line, "0") == 0 && !*controllers)
    return path_quota (cgroup_root, group, v2_quota);
  if (!has_cpu_controller (controllers))
    return 0;

  /* A v1 hierarchy is mounted under a name made of its controllers;
     the cpu controller is usually paired with cpuacct.  */
  char *mount = file_name_concat (cgroup_root, controllers, NULL);
  int cpus = path_quota (mount, group, v1_quota);
  free (mount);
  if (!cpus)
    {
      mount = file_name_concat (cgroup_root, "cpu", NULL);
      cpus = path_quota (mount, group, v1_quota);
      free (mount);
    }
  return cpus;
}

int
cgroup_cpu_quota (char const *proc_cgroup, char const *cgroup_root)
{
  FILE *f = fopen (proc_cgroup, "re");
  if (!f)
    return 0;
  char *line = NULL;
  size_t size = 0;
  int best = 0;
  while (getline (&line, &size, f) > 0)
    {
      line[strcspn (line, "\n")] = '\0';
      int cpus = line_quota (line, cgroup_root);
      if (cpus && (!best || cpus < best))
        best = cpus;
    }
  free (line);
  fclose (f);
  return best;
}

int
usable_cpus (void)
{
  unsigned long int cpus = num_processors (NPROC_CURRENT);
  int quota = cgroup_cpu_quota ("/proc/self/cgroup", "/sys/fs/cgroup");
  if (quota && quota < cpus)
    cpus = quota;
  return MAX (1, MIN (cpus, INT_MAX));
}
