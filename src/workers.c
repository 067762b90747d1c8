/* workers.c -- a pool of threads running tasks from a bounded queue.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The queue is a ring of fixed size so that memory does not grow with
   the tree being copied: the walker is held back when the workers
   fall behind, and a worker that makes work while the queue is full
   does it at once, depth first, as a serial copy would.  A task may
   weigh more than one, as a batch of files does: the limit bounds the
   weight waiting, which is what holds descriptors.  */

#include <config.h>

#include "workers.h"

#include "system.h"

#include <pthread.h>

#include "gethrxtime.h"

struct task
{
  void (*run) (void *);
  void *arg;
  void const *place;
  idx_t weight;
};

/* How far past the head of the queue a worker looks for a task whose
   place no other worker is at.  Far enough to reach past the rest of
   a directory's small files, near enough to cost nothing beside a
   file's copy.  */
enum { PLACE_LOOKAHEAD = 32 };

struct workers
{
  pthread_mutex_t lock;
  pthread_cond_t not_empty;	/* a task waits, or the pool stops */
  pthread_cond_t not_full;	/* room in the ring */
  pthread_cond_t idle;		/* the queue is empty and nobody runs */

  struct task *ring;
  idx_t limit;			/* ring size */
  idx_t head;			/* next task to take */
  idx_t count;			/* tasks waiting */
  idx_t load;			/* and their weight */
  idx_t peak;			/* the most weight ever waiting */
  atomic_int waiting;		/* workers waiting for a task */
  idx_t running;		/* tasks being run by workers */
  bool stopping;
  int started;			/* threads that have taken their index */
  void const **at;		/* the place each thread's task is at */
  pthread_t *selves;		/* each thread that took its index */

  /* Nanoseconds the workers spent running tasks and waiting for one,
     and submitters waiting for room.  */
  xtime_t busy;
  xtime_t idled;
  xtime_t blocked;

  int n;
  pthread_t *threads;
};

static void
check (int err, char const *what)
{
  if (err)
    error (EXIT_FAILURE, err, "%s", what);
}

void
workers_lock_init (pthread_mutex_t *lock, pthread_cond_t *cond)
{
  check (pthread_mutex_init (lock, NULL), _("cannot make a lock"));
  if (cond)
    check (pthread_cond_init (cond, NULL),
           _("cannot make a condition variable"));
}

/* Whether a worker of W runs a task at PLACE.  */
static bool
place_busy (struct workers const *w, void const *place)
{
  for (int i = 0; i < w->started; i++)
    if (w->at[i] == place)
      return true;
  return false;
}

/* Take a task from W's queue, which is not empty: the first, unless
   another worker is at its place and one a little further on is at a
   place nobody is, or at none.  Creating files in one directory is
   serialised by the kernel, which holds the directory's lock for the
   whole call: on a network file system, for a round trip to the
   server.  Workers making files in different directories do not wait
   for each other.  */
static struct task
take_task (struct workers *w)
{
  struct task *first = &w->ring[w->head];
  if (first->place && place_busy (w, first->place))
    {
      idx_t look = MIN (w->count, PLACE_LOOKAHEAD);
      for (idx_t i = 1; i < look; i++)
        {
          struct task *t = &w->ring[(w->head + i) % w->limit];
          if (!t->place || !place_busy (w, t->place))
            {
              struct task swap = *t;
              *t = *first;
              *first = swap;
              break;
            }
        }
    }
  struct task t = *first;
  w->head = (w->head + 1) % w->limit;
  w->count--;
  w->load -= t.weight;
  return t;
}

/* Whether the calling thread is a worker of W.  The caller holds W's
   lock.  */
static bool
serves (struct workers const *w)
{
  for (int i = 0; i < w->started; i++)
    if (pthread_equal (w->selves[i], pthread_self ()))
      return true;
  return false;
}

static void *
worker_main (void *arg)
{
  struct workers *w = arg;
  pthread_mutex_lock (&w->lock);
  int me = w->started++;
  w->selves[me] = pthread_self ();
  for (;;)
    {
      if (!w->count && !w->stopping)
        {
          xtime_t start = gethrxtime ();
          atomic_fetch_add_explicit (&w->waiting, 1, memory_order_relaxed);
          while (!w->count && !w->stopping)
            pthread_cond_wait (&w->not_empty, &w->lock);
          atomic_fetch_sub_explicit (&w->waiting, 1, memory_order_relaxed);
          w->idled += gethrxtime () - start;
        }
      if (!w->count)
        break;
      idx_t load = w->load;
      struct task t = take_task (w);
      w->at[me] = t.place;
      w->running++;
      /* A submitter waiting for room is woken once the queue is half
         empty, not at each task taken: woken for one slot, it would
         fill it and wait again, and the threads would switch at every
         file (5,300 context switches for a 12,000-file tree).  One
         with a task heavier than half the limit may need more room
         than that: it is woken again when the queue is empty.  */
      if ((w->limit / 2 < load && w->load <= w->limit / 2) || !w->count)
        pthread_cond_broadcast (&w->not_full);
      pthread_mutex_unlock (&w->lock);

      xtime_t start = gethrxtime ();
      t.run (t.arg);
      xtime_t ran = gethrxtime () - start;

      pthread_mutex_lock (&w->lock);
      w->busy += ran;
      w->at[me] = NULL;
      w->running--;
      if (!w->count && !w->running)
        pthread_cond_broadcast (&w->idle);
    }
  pthread_mutex_unlock (&w->lock);
  return NULL;
}

struct workers *
workers_start (int n, idx_t limit)
{
  struct workers *w = xzalloc (sizeof *w);
  check (pthread_mutex_init (&w->lock, NULL), _("cannot make a lock"));
  check (pthread_cond_init (&w->not_empty, NULL),
         _("cannot make a condition variable"));
  check (pthread_cond_init (&w->not_full, NULL),
         _("cannot make a condition variable"));
  check (pthread_cond_init (&w->idle, NULL),
         _("cannot make a condition variable"));
  w->limit = MAX (1, limit);
  atomic_init (&w->waiting, 0);
  w->ring = xnmalloc (w->limit, sizeof *w->ring);
  w->threads = xnmalloc (n, sizeof *w->threads);
  w->at = xcalloc (n, sizeof *w->at);
  w->selves = xnmalloc (n, sizeof *w->selves);
  for (; w->n < n; w->n++)
    check (pthread_create (&w->threads[w->n], NULL, worker_main, w),
           _("cannot start a worker thread"));
  return w;
}

void
workers_submit (struct workers *w, void (*run) (void *), void *arg)
{
  workers_submit_at (w, run, arg, NULL);
}

void
workers_submit_at (struct workers *w, void (*run) (void *), void *arg,
                   void const *place)
{
  workers_submit_weighing (w, run, arg, place, 1);
}

/* Whether W's queue has no room for a task of weight WEIGHT.  An
   empty queue takes any task, so that one heavier than the limit is
   not refused for ever.  */
static bool
queue_full (struct workers const *w, idx_t weight)
{
  return w->count && w->limit < w->load + weight;
}

/* Put the task RUN (ARG) at PLACE, of weight WEIGHT, at the end of
   W's queue, which has room for it.  The caller holds W's lock.  */
static void
enqueue (struct workers *w, void (*run) (void *), void *arg,
         void const *place, idx_t weight)
{
  w->ring[(w->head + w->count) % w->limit] = (struct task) { run, arg,
                                                             place, weight };
  w->count++;
  w->load += weight;
  w->peak = MAX (w->peak, w->load);
  pthread_cond_signal (&w->not_empty);
}

void
workers_submit_weighing (struct workers *w, void (*run) (void *), void *arg,
                         void const *place, idx_t weight)
{
  pthread_mutex_lock (&w->lock);
  /* A worker waiting for room that only the workers can make would
     wait for ever once all of them do: it runs the task itself.  */
  if (queue_full (w, weight) && serves (w))
    {
      pthread_mutex_unlock (&w->lock);
      run (arg);
      return;
    }
  if (queue_full (w, weight))
    {
      xtime_t start = gethrxtime ();
      while (queue_full (w, weight))
        pthread_cond_wait (&w->not_full, &w->lock);
      w->blocked += gethrxtime () - start;
    }
  enqueue (w, run, arg, place, weight);
  pthread_mutex_unlock (&w->lock);
}

bool
workers_starving (struct workers *w)
{
  return 0 < atomic_load_explicit (&w->waiting, memory_order_relaxed);
}

void
workers_finish (struct workers *w, struct workers_times *times)
{
  pthread_mutex_lock (&w->lock);
  while (w->count || w->running)
    pthread_cond_wait (&w->idle, &w->lock);
  w->stopping = true;
  pthread_cond_broadcast (&w->not_empty);
  pthread_mutex_unlock (&w->lock);
  for (int i = 0; i < w->n; i++)
    check (pthread_join (w->threads[i], NULL),
           _("cannot wait for a worker thread"));
  if (times)
    *times = (struct workers_times) { w->n, w->busy / 1e9, w->idled / 1e9,
                                      w->blocked / 1e9, w->peak };
  pthread_cond_destroy (&w->idle);
  pthread_cond_destroy (&w->not_full);
  pthread_cond_destroy (&w->not_empty);
  pthread_mutex_destroy (&w->lock);
  free (w->threads);
  free (w->at);
  free (w->selves);
  free (w->ring);
  free (w);
}

idx_t
workers_peak (struct workers const *w)
{
  return w->peak;
}

void
task_group_init (struct task_group *g, struct task_group *parent,
                 void (*done) (struct task_group *))
{
  atomic_init (&g->pending, 1);
  g->done = done;
  g->parent = parent;
  if (parent)
    task_group_hold (parent);
}

void
task_group_hold (struct task_group *g)
{
  atomic_fetch_add_explicit (&g->pending, 1, memory_order_relaxed);
}

void
task_group_release (struct task_group *g)
{
  /* Whoever ends the last piece must see all the others did: release
     ordering on every decrement, acquire on the one that reaches 0.
     A loop, not recursion: groups nest as deep as the tree.  */
  while (g && (atomic_fetch_sub_explicit (&g->pending, 1,
                                          memory_order_acq_rel) == 1))
    {
      struct task_group *parent = g->parent;
      g->done (g);
      g = parent;
    }
}
