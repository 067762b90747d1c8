/* remote.h -- the ranks of mpicp, as cp's main sees them.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* cp and mpicp share cp.c; mpicp links mpi-cp.c, where these start
   and stop MPI, and cp remote-none.c, where they do nothing.  */

#ifndef CPDD_REMOTE_H
#define CPDD_REMOTE_H

#include <stdbool.h>

#include "copy.h"

/* Start the process's part of the job, before the command line is
   parsed, which every rank does alike.  */
void remote_init (int *argc, char ***argv);

/* Once the command line is parsed into X: a rank other than 0 copies
   the files rank 0 sends it, then exits; rank 0 returns what its copy
   session hands files to, with no worker threads (X's jobs become 1),
   as the other ranks take their place.  cp, and mpicp on one rank,
   return NULL.  */
struct copy_remote const *remote_start (struct cp_options *x);

/* Rank 0 copies in S, its copy session, what the other ranks send it
   while it waits for their answers.  */
void remote_session (struct copy_session *s);

/* On rank 0, once the walk is over: stop the other ranks.  */
void remote_finish (void);

#endif /* CPDD_REMOTE_H */
