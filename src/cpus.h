/* cpus.h -- how many CPUs a process may keep busy.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_CPUS_H
#define CPDD_CPUS_H

/* The CPUs this process may run on, fewer if its control group's CPU
   quota allows less time than that; at least 1.  */
int usable_cpus (void);

/* The CPU quota, rounded up to whole CPUs, of the control group that
   PROC_CGROUP (the text of /proc/self/cgroup, or a file like it) names,
   with control groups mounted under CGROUP_ROOT (normally
   /sys/fs/cgroup); the smallest over the group and its ancestors.
   0 means no quota, or none that could be read.  */
int cgroup_cpu_quota (char const *proc_cgroup, char const *cgroup_root);

#endif
