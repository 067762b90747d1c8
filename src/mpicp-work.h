/* mpicp-work.h -- what mpicp's ranks send one another.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_MPICP_WORK_H
#define CPDD_MPICP_WORK_H

#include "mpicp-links.h"

/* mpicp-work.c: the files, ranges and subtrees the ranks send one
   another, and their answers.  */

/* Set up SLOTS for N_RANKS ranks, all free.  */
void mpicp_slots_init (struct mpicp_slots *slots, int n_ranks);

/* Rank 0's send operation: send F to the least busy rank, or return
   false to leave it to the walk.  */
bool mpicp_send_file (struct remote_job *j, struct remote_file const *f);

/* The give operation of every rank: send the subtree D to a rank that
   asked for work, or return false if none has.  */
bool mpicp_give_subtree (struct remote_job *j, struct remote_dir const *d);

/* The send operation of a rank walking a subtree: send F to a rank
   that asked for work, or return false if none has.  */
bool mpicp_give_file (struct remote_job *j, struct remote_file const *f);

/* The wait operation of every rank: wait for answers, copying what is
   sent to J's rank meanwhile.  */
void mpicp_wait_answer (struct remote_job *j);


/* Copy what the task of N bytes at BUF from rank FROM asks for, and
   answer FROM; set *ANSWERS_REQUEST to whether the task answers J's
   rank's request for work.  */
void mpicp_answer_task (struct remote_job *j, char const *buf, int n,
                        int from, bool *answers_request);

/* Close the directories DIRS kept open for the files sent to this
   rank.  */
void mpicp_close_dirs (struct mpicp_open_dir dirs[2]);

#endif /* CPDD_MPICP_WORK_H */
