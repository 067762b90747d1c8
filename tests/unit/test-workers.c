/* test-workers.c -- the worker pool runs every task once, keeps its
   queue bounded, by weight too, does not deadlock when tasks make
   tasks, a task group ends once, after all its pieces, in whatever
   thread, and a free worker takes a task at a place no other worker is
   at first.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "workers.h"
#include "unit.h"

#include <semaphore.h>

enum { TASKS = 20000, LIMIT = 16 };

static atomic_int runs[TASKS];

static void
count_run (void *arg)
{
  atomic_fetch_add ((atomic_int *) arg, 1);
}

/* Every one of many tasks runs exactly once, with few ever waiting.  */
static void
each_task_once (int threads)
{
  for (int i = 0; i < TASKS; i++)
    atomic_init (&runs[i], 0);
  struct workers *w = workers_start (threads, LIMIT);
  for (int i = 0; i < TASKS; i++)
    workers_submit (w, count_run, &runs[i]);
  expect (workers_peak (w) <= LIMIT, "the queue stays within its limit");
  workers_finish (w, NULL);
  int wrong = 0;
  for (int i = 0; i < TASKS; i++)
    wrong += atomic_load (&runs[i]) != 1;
  expect (wrong == 0, "each task runs exactly once");
}

/* Tasks of weights 1 to LIMIT + 1 each run exactly once, the weight
   waiting stays within the limit, and one heavier than the limit is
   still taken, alone, rather than waited for in vain.  */
static void
each_weighed_task_once (int threads)
{
  for (int i = 0; i < TASKS; i++)
    atomic_init (&runs[i], 0);
  struct workers *w = workers_start (threads, LIMIT);
  for (int i = 0; i < TASKS; i++)
    workers_submit_weighing (w, count_run, &runs[i], NULL,
                             1 + i % (LIMIT + 1));
  struct workers_times t;
  workers_finish (w, &t);
  expect (t.peak <= LIMIT + 1, "the weight waiting stays within its limit");
  int wrong = 0;
  for (int i = 0; i < TASKS; i++)
    wrong += atomic_load (&runs[i]) != 1;
  expect (wrong == 0, "each weighed task runs exactly once");
}

/* A tree of directories each holding FANOUT entries, DEPTH deep, as
   tasks that submit tasks, each directory a group that ends after its
   entries did.  */
enum { FANOUT = 4, DEPTH = 7 };

struct dir
{
  struct task_group group;
  int depth;
  struct workers *w;
  atomic_int entries_done;
  struct dir *parent;
};

static atomic_int dirs_done, dirs_early, dirs_made;

static void
dir_done (struct task_group *g)
{
  struct dir *d = (struct dir *) g;
  if (atomic_load (&d->entries_done) != FANOUT)
    atomic_fetch_add (&dirs_early, 1);
  if (d->parent)
    atomic_fetch_add (&d->parent->entries_done, 1);
  atomic_fetch_add (&dirs_done, 1);
  free (d);
}

static void walk_dir (void *arg);

static void
make_dir (struct workers *w, struct dir *parent, int depth)
{
  struct dir *d = xmalloc (sizeof *d);
  task_group_init (&d->group, parent ? &parent->group : NULL, dir_done);
  d->depth = depth;
  d->w = w;
  d->parent = parent;
  atomic_init (&d->entries_done, 0);
  atomic_fetch_add (&dirs_made, 1);
  workers_submit (w, walk_dir, d);
}

static void
file_done (void *arg)
{
  struct dir *d = arg;
  atomic_fetch_add (&d->entries_done, 1);
  task_group_release (&d->group);
}

static void
walk_dir (void *arg)
{
  struct dir *d = arg;
  for (int i = 0; i < FANOUT; i++)
    if (d->depth < DEPTH)
      make_dir (d->w, d, d->depth + 1);
    else
      {
        task_group_hold (&d->group);
        workers_submit (d->w, file_done, d);
      }
  task_group_release (&d->group);
}

static void
tasks_making_tasks (int threads)
{
  atomic_init (&dirs_done, 0);
  atomic_init (&dirs_early, 0);
  atomic_init (&dirs_made, 0);
  struct workers *w = workers_start (threads, 2);
  make_dir (w, NULL, 0);
  workers_finish (w, NULL);
  expect (atomic_load (&dirs_done) == atomic_load (&dirs_made),
          "every directory group ends");
  expect (atomic_load (&dirs_early) == 0,
          "no directory group ends before its entries");
}

/* Tasks that say they began, then wait to be let go; and tasks that
   note the order in which they ran.  */
static sem_t began, ran, go_first, go_second;
static atomic_int next_turn;
static int turn_a2, turn_b1;

static void
held_first (void *arg _GL_UNUSED)
{
  sem_post (&began);
  sem_wait (&go_first);
}

static void
held_second (void *arg _GL_UNUSED)
{
  sem_post (&began);
  sem_wait (&go_second);
}

static void
note_turn (void *arg)
{
  *(int *) arg = atomic_fetch_add (&next_turn, 1);
  sem_post (&ran);
}

/* With one worker held at place A and the other let go, the queue
   holding a task at A and then one at B, the free worker runs B's
   first.  Every step waits for a state, never for a time.  */
static void
free_place_first (void)
{
  static char const place_a, place_b, place_x;
  sem_init (&began, 0, 0);
  sem_init (&ran, 0, 0);
  sem_init (&go_first, 0, 0);
  sem_init (&go_second, 0, 0);
  atomic_init (&next_turn, 0);
  struct workers *w = workers_start (2, 8);
  workers_submit_at (w, held_first, NULL, &place_x);
  workers_submit_at (w, held_second, NULL, &place_a);
  sem_wait (&began);
  sem_wait (&began);
  workers_submit_at (w, note_turn, &turn_a2, &place_a);
  workers_submit_at (w, note_turn, &turn_b1, &place_b);
  sem_post (&go_first);
  sem_wait (&ran);
  sem_wait (&ran);
  sem_post (&go_second);
  workers_finish (w, NULL);
  expect (turn_b1 < turn_a2,
          "a free worker takes a task where no other worker is first");
}

int
main (int argc _GL_UNUSED, char **argv)
{
  set_program_name (argv[0]);

  /* A deadlock is a failure, not a hung test suite.  */
  alarm (60);
  for (int threads = 1; threads <= 8; threads *= 2)
    {
      each_task_once (threads);
      each_weighed_task_once (threads);
      tasks_making_tasks (threads);
    }
  free_place_first ();
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
