/* workers.h -- a pool of threads running tasks from a bounded queue.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_WORKERS_H
#define CPDD_WORKERS_H

#include "idx.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>

struct workers;

/* Make LOCK, and COND unless it is NULL, for threads to share; exit
   with a diagnostic if the system has none to give.  */
void workers_lock_init (pthread_mutex_t *lock, pthread_cond_t *cond);

/* Start N threads serving a queue of at most LIMIT waiting tasks.
   Exit with a diagnostic if a thread cannot be started.  */
struct workers *workers_start (int n, idx_t limit);

/* Have a worker call RUN (ARG).  While the queue is full a caller
   that is not one of the workers waits; a worker runs the task itself
   instead, so that tasks making tasks cannot all wait on each other.  */
void workers_submit (struct workers *w, void (*run) (void *), void *arg);

/* Likewise, for a task that works at PLACE, such as the directory it
   makes a file in: while another worker is at that place, the workers
   take tasks at other places first, if the queue holds some close to
   its head.  A null PLACE is nowhere in particular.  */
void workers_submit_at (struct workers *w, void (*run) (void *), void *arg,
                        void const *place);

/* Likewise, for a task that weighs WEIGHT (at least 1) against the
   queue's limit, such as a batch of that many files, each holding a
   descriptor while it waits.  */
void workers_submit_weighing (struct workers *w, void (*run) (void *),
                              void *arg, void const *place, idx_t weight);

/* Whether a worker of W waits for a task now, so that a batch being
   gathered for the workers may go before it is full.  Only a hint, as
   a worker may start or stop waiting at any time.  */
bool workers_starving (struct workers *w);

/* Where a pool's time went, for cp --debug: its threads, the seconds
   they spent running tasks and waiting for one, the seconds callers of
   workers_submit spent waiting for room in the queue, and the most
   weight that ever waited in it.  */
struct workers_times
{
  int threads;
  double busy;
  double idle;
  double blocked;
  idx_t peak;
};

/* Wait until every task submitted has run, stop the threads, free W.
   Fill *TIMES unless it is null.  */
void workers_finish (struct workers *w, struct workers_times *times);

/* The most weight that was ever waiting in W's queue at once.  */
idx_t workers_peak (struct workers const *w);

/* Work that finishes in pieces, perhaps in different threads: a
   directory whose entries are copied by several workers, a file whose
   ranges are.  Whoever ends the last piece runs DONE, then ends one
   piece of PARENT.  */
struct task_group
{
  atomic_ptrdiff_t pending;
  void (*done) (struct task_group *);
  struct task_group *parent;
};

/* Make G a group of one piece (its creator's), itself one new piece
   of PARENT unless PARENT is null.  */
void task_group_init (struct task_group *g, struct task_group *parent,
                      void (*done) (struct task_group *));

/* Add a piece to G, before handing it to someone else.  */
void task_group_hold (struct task_group *g);

/* End a piece of G.  */
void task_group_release (struct task_group *g);

#endif
