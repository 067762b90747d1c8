/* copy-jobs.c -- handing a tree copy's files to workers or other ranks.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The walk opens both ends of a regular file, or only knows where a
   new one goes, and a worker (cp --jobs) or another rank (mpicp)
   copies it; the files of a directory form a group, whose end lets the
   directory's own attributes be set.  */

#include <config.h>

#include "system.h"
#include "copy-jobs.h"
#include "copy-file.h"
#include "copy-atomic.h"
#include "copy-hash.h"
#include "copy-sync.h"
#include "copy-report.h"
#include "dirname.h"
#include "cpus.h"
#include "ignore-value.h"
#include "workers.h"
#include "xfer-range.h"
#include "xfer-stats.h"

#include <pthread.h>
#include <sys/uio.h>

/* The files of one directory (or of an operand) handed to workers:
   whoever ends its last piece wakes the main thread, which waits for
   them before setting the directory's own attributes.  */
struct file_group
{
  struct task_group pieces;
  struct copy_session *session;	/* the copy the files are part of */
  pthread_mutex_t lock;
  pthread_cond_t ended_cond;
  bool ended;
  atomic_bool failed;		/* a file of the group was not copied */
  struct shared_dirs *dirs;	/* for the walk's new tasks, or NULL */
  struct dir_finish *finish;	/* the directory's attributes, if they
                                   are set by whoever ends the group */
};

/* A directory's own attributes, to set once everything in it is
   copied, by whichever thread ends its group last: the walk has left
   it by then, so both ends are held by copies of its descriptors, the
   ones its files' tasks share.  NAMES holds the source's name, then
   the copy's.  */
struct dir_finish
{
  struct copy_session *session;
  struct shared_dirs *dirs;
  struct stat src_st;
  bool created;
  struct stat made_st;		/* the copy's status as made, if CREATED */
  bool set_mode;		/* whether to give the copy MODE at last */
  mode_t mode;
  struct cp_options const *x;
  struct copy_record record;	/* the directory's, once the walk left it */
  bool walked_ok;		/* whether the walk of the directory went
                                   well */
  size_t dst_name;		/* where in NAMES the copy's name starts */
  char names[];
};

/* The directories holding one directory's source files and their
   copies, for workers that open and create the files themselves:
   copies of the walk's descriptors, which the walk may close or open
   again meanwhile.  Each task holds a reference, and so does the
   walk while it stays in the directory, so that at most one set per
   task plus the deepest directory's is open at once.  */
struct shared_dirs
{
  atomic_ptrdiff_t refs;
  struct walk_dir src;
  struct walk_dir dst;
};

/* Small new files handed to workers go in batches of at most this
   many, and of this many bytes of data: a task per file cost a lock of
   the queue for the walk and for a worker at each file, and a wake-up
   of the other side each time one of them waited (9,000 for 100,000
   files).  Few enough that the last batches share out evenly.  A batch
   may hold the files of several directories: a tree of small ones
   made one of a few files each, and as many wake-ups.  */
enum { NEW_FILE_BATCH = 16, NEW_FILE_BATCH_BYTES = 1024 * 1024 };

static void hand_over_gathered (struct copy_session *s);

void
copy_jobs_start (struct copy_session *s, int jobs)
{
  /* Waiting files hold descriptors (two each at most, three with
     --atomic, whose rename needs the directory), which the
     walkers must not run short of, and keep reads in flight (see
     prefetch_source): a queue of 64 beyond the pool, or a quarter of
     what a walker may hold, if less; a batch weighs as many files as
     it holds, and at least four fit in the queue.  A batch a worker
     has taken no longer weighs in the queue, yet the files it has not
     begun stay open: so the batches that the workers and the walk
     hold may not add up to more files than the queue does.  */
  if (1 < jobs)
    {
      idx_t waiting = MIN (64, walker_default_max () / 4);
      idx_t queued = jobs + waiting;
      s->helpers.pool = workers_start (jobs, queued);
      s->helpers.batch_files = MAX (1, MIN (MIN (NEW_FILE_BATCH,
                                                 waiting / 4),
                                            queued / (jobs + 1)));
      s->finishes_max = copy_finishes_max ();
    }
}

ptrdiff_t
copy_finishes_max (void)
{
  /* A quarter of what the walkers may hold, as the walkers take half
     of what the files being copied leave.  */
  return walker_default_max () / 2;
}

void
copy_jobs_finish (struct copy_session *s)
{
  if (!s->helpers.pool)
    return;
  hand_over_gathered (s);
  struct workers_times t;
  workers_finish (s->helpers.pool, &t);
  s->helpers.pool = NULL;
  if (s->report_pool)
    printf ("jobs: %d workers, running files %.3f s and waiting for one"
            " %.3f s in all; the walk waited %.3f s for room in the queue,"
            " which held at most %td\n",
            t.threads, t.busy, t.idle, t.blocked, t.peak);
}

static bool finish_directory_now (struct dir_finish *f);

/* FG, which the walk left, has ended: set its directory's attributes
   and free it, making a failure its parent's.  */
static void
file_group_finish (struct file_group *fg)
{
  bool ok = finish_directory_now (fg->finish) && !atomic_load (&fg->failed);
  if (!ok)
    atomic_store (&((struct file_group *) fg->pieces.parent)->failed, true);
  pthread_cond_destroy (&fg->ended_cond);
  pthread_mutex_destroy (&fg->lock);
  free (fg);
}

static void
file_group_ended (struct task_group *g)
{
  struct file_group *fg = (struct file_group *) g;
  if (fg->finish)
    {
      file_group_finish (fg);
      return;
    }
  pthread_mutex_lock (&fg->lock);
  fg->ended = true;
  pthread_cond_signal (&fg->ended_cond);
  pthread_mutex_unlock (&fg->lock);
}

/* A new group of files, of one piece: the main thread's; itself a
   piece of PARENT, if not null, which thus ends after it.  */
struct file_group *
file_group_new (struct copy_session *s, struct file_group *parent)
{
  struct file_group *fg = xmalloc (sizeof *fg);
  fg->session = s;
  task_group_init (&fg->pieces, parent ? &parent->pieces : NULL,
                   file_group_ended);
  workers_lock_init (&fg->lock, &fg->ended_cond);
  fg->ended = false;
  atomic_init (&fg->failed, false);
  fg->dirs = NULL;
  fg->finish = NULL;
  return fg;
}

/* Drop a reference to DIRS, closing them with the last.  */
static void
shared_dirs_release (struct shared_dirs *dirs)
{
  if (atomic_fetch_sub_explicit (&dirs->refs, 1, memory_order_acq_rel) != 1)
    return;
  /* Closing a directory only looked up in can't lose anything.  */
  close (dirs->src.fd);
  close (dirs->dst.fd);
  free (dirs);
}

/* The walk leaves the directory of FG's files, for one below it or
   for good: its tasks alone keep their directories open now.  */
void
file_group_leave_dirs (struct file_group *fg)
{
  if (fg && fg->dirs)
    {
      shared_dirs_release (fg->dirs);
      fg->dirs = NULL;
    }
}

/* Allocate BASE bytes, a struct up to its flexible array of names,
   followed by copies of the names SRC and DST; set *DST_AT to where
   DST starts in that array.  */
static void *
alloc_with_names (size_t base, char const *src, char const *dst,
                  size_t *dst_at)
{
  size_t src_size = strlen (src) + 1;
  size_t dst_size = strlen (dst) + 1;
  char *p = xmalloc (base + src_size + dst_size);
  memcpy (p + base, src, src_size);
  memcpy (p + base + src_size, dst, dst_size);
  *dst_at = src_size;
  return p;
}

/* Set *SFD and *DFD to new descriptors of SDIR and DDIR, which a
   worker can keep after the walk has closed its own; return false if
   there are none to be had.  */
static bool
dup_dirs (struct walk_dir const *sdir, struct walk_dir const *ddir,
          int *sfd, int *dfd)
{
  *sfd = fcntl (sdir->fd, F_DUPFD_CLOEXEC, 0);
  if (*sfd < 0)
    return false;
  *dfd = fcntl (ddir->fd, F_DUPFD_CLOEXEC, 0);
  if (*dfd < 0)
    {
      close (*sfd);
      return false;
    }
  return true;
}

/* The directory D, as a worker holds it open as FD: what is known of
   it, but not where it is in the walk.  */
static struct walk_dir
held_dir (struct walk_dir const *d, int fd)
{
  return (struct walk_dir) { .fd = fd, .dev = d->dev, .ino = d->ino,
                             .plain_files = d->plain_files,
                             .sizes_true = d->sizes_true,
                             .file_blksize = d->file_blksize };
}

/* A new reference to the directories SDIR and DDIR, whose files FG
   counts, for a task; NULL if they can't be held twice.  */
static struct shared_dirs *
file_group_dirs (struct file_group *fg, struct walk_dir const *sdir,
                 struct walk_dir const *ddir)
{
  if (!fg->dirs)
    {
      int sfd, dfd;
      if (!dup_dirs (sdir, ddir, &sfd, &dfd))
        return NULL;
      struct shared_dirs *dirs = xzalloc (sizeof *dirs);
      atomic_init (&dirs->refs, 1);
      dirs->src = held_dir (sdir, sfd);
      dirs->dst = held_dir (ddir, dfd);
      fg->dirs = dirs;
    }
  atomic_fetch_add_explicit (&fg->dirs->refs, 1, memory_order_relaxed);
  return fg->dirs;
}

/* End the main thread's piece of FG, wait until every file handed to
   workers in it is done, and free it; return whether all were
   copied.  */
bool
file_group_wait (struct file_group *fg)
{
  /* The files gathered may be this group's.  */
  hand_over_gathered (fg->session);
  file_group_leave_dirs (fg);
  task_group_release (&fg->pieces);
  /* Other ranks' answers come to this thread, which has nothing else
     to do until they have.  */
  struct copy_remote const *remote = fg->session->helpers.remote;
  if (remote)
    while (!fg->ended)
      remote->ops->wait (remote->job);
  pthread_mutex_lock (&fg->lock);
  while (!fg->ended)
    pthread_cond_wait (&fg->ended_cond, &fg->lock);
  pthread_mutex_unlock (&fg->lock);
  pthread_cond_destroy (&fg->ended_cond);
  pthread_mutex_destroy (&fg->lock);
  bool ok = !atomic_load (&fg->failed);
  free (fg);
  return ok;
}

/* A file for a worker to fill, and the group it ends a piece of.  Its
   ends are reached only by descriptor, as the directories they are in
   may be closed before it runs; the names are its own copies.  */
struct copy_task
{
  struct open_copy c;
  struct file_group *group;
  struct cp_options const *x;
  char *src_name;
  char *dst_name;
  struct fill_outcome *outcome;	/* to report to, or NULL */
};

static void
run_copy_task (void *arg)
{
  struct copy_task *t = arg;
  struct file_group *group = t->group;
  struct copy_record r;
  copy_record_begin (&r, t->x->report, t->src_name, t->dst_name, S_IFREG);
  bool ok = fill_copy (&t->c, t->x, &r);
  copy_record_end (&r, copy_record_outcome (&r, ok));
  if (!ok)
    atomic_store (&group->failed, true);
  fill_outcome_end (t->outcome, ok);
  free (t->src_name);
  free (t->dst_name);
  free (t);
  task_group_release (&group->pieces);
}

/* The attribute end named NAME, a copy of another file's, open as FD.  */
static struct attr_file
task_end (char *name, int fd, bool created)
{
  return (struct attr_file) { name, fd, created, -1, last_component (name) };
}

/* Make T the task of filling C, a piece of GROUP, with names of its
   own.  */
static void
copy_task_init (struct copy_task *t, struct open_copy const *c,
                struct file_group *group, struct cp_options const *x)
{
  t->src_name = xstrdup (c->src.name);
  t->dst_name = xstrdup (c->dst.name);
  t->c = *c;
  t->c.src = task_end (t->src_name, c->src.fd, false);
  t->c.dst = task_end (t->dst_name, c->dst.fd, c->dst.created);
  t->group = group;
  t->x = x;
  t->outcome = NULL;
}

/* Have a worker fill C, as one piece of PLACE's group, taking the
   outcome PLACE has to report to, if any.  */
static void
hand_over (struct open_copy const *c, struct fill_place const *place,
           struct cp_options const *x)
{
  struct file_group *group = place->group;
  struct copy_task *t = xmalloc (sizeof *t);
  copy_task_init (t, c, group, x);
  t->outcome = claim_outcome (place->pending);
  task_group_hold (&group->pieces);
  workers_submit (group->session->helpers.pool, run_copy_task, t);
}

/* Names of a directory, NUL-separated in NAMES, SIZE bytes in all, to
   look up in DIRFD.  */
struct name_lookups
{
  int dirfd;
  size_t size;
  char names[];
};

/* How many names one task looks up, and how many the workers are
   asked to look up ahead of the walk.  */
enum { LOOKUPS_PER_TASK = 32, LOOKUPS_AHEAD = 4 * LOOKUPS_PER_TASK };

static void
run_name_lookups (void *arg)
{
  struct name_lookups *t = arg;
  /* Only to have the kernel keep the answers: the walk looks again,
     and says what went wrong.  */
  struct stat st;
  for (char const *p = t->names; p < t->names + t->size; p += strlen (p) + 1)
    ignore_value (fstatat (t->dirfd, p, &st, AT_SYMLINK_NOFOLLOW));
  close (t->dirfd);
  free (t);
}

void
lookahead_start (struct lookahead *la, struct copy_session const *s,
                 struct walk_dir const *sdir, struct stat const *st,
                 char const *names)
{
  la->pool = s->helpers.pool;
  la->next = names;
  la->ahead = 0;
  la->on = (la->pool
            && file_system_kind (sdir->fd, st->st_dev) & FS_FAR);
}

/* Hand a worker the lookups of the next names of LA in SDIR.  */
static void
hand_lookups (struct lookahead *la, struct walk_dir const *sdir)
{
  char const *end = la->next;
  idx_t n = 0;
  for (; *end && n < LOOKUPS_PER_TASK; n++)
    end += strlen (end) + 1;
  int fd = fcntl (sdir->fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0)
    {
      /* Short of descriptors: the walk looks its names up alone.  */
      la->on = false;
      return;
    }
  size_t size = end - la->next;
  struct name_lookups *t = xmalloc (offsetof (struct name_lookups, names)
                                    + size);
  t->dirfd = fd;
  t->size = size;
  memcpy (t->names, la->next, size);
  workers_submit (la->pool, run_name_lookups, t);
  la->next = end;
  la->ahead += n;
}

void
lookahead_step (struct lookahead *la, struct walk_dir const *sdir)
{
  if (!la->on)
    return;
  if (la->ahead)
    la->ahead--;
  while (la->on && la->ahead < LOOKUPS_AHEAD && *la->next)
    hand_lookups (la, sdir);
}

/* A large file whose ranges workers copy at once: when the last is
   done, its attributes are set and both ends closed, as fill_copy
   does for a file copied in one go.  */
struct chunked_copy
{
  struct task_group ranges;	/* its parent: the file's group */
  struct xfer_split split;
  struct copy_task t;
  struct timespec start;	/* when it was split, for its record */
};

static void
run_range_task (void *arg)
{
  struct chunked_copy *f = arg;
  xfer_copy_ranges (&f->split);
  task_group_release (&f->ranges);
}

static void
chunked_copy_done (struct task_group *g)
{
  struct chunked_copy *f = (struct chunked_copy *) g;
  struct copy_task *t = &f->t;
  struct copy_record r;
  copy_record_begin (&r, t->x->report, t->src_name, t->dst_name, S_IFREG);
  r.start = f->start;
  bool ok = (xfer_split_end (&f->split)
             && copy_split_checked (&f->split, t->x));
  copy_record_data (&r, &f->split.report, -1, NULL);
  if (t->x->debug)
    {
      flockfile (stdout);
      xfer_print_debug (stdout, &f->split.report);
      funlockfile (stdout);
    }
  ok = finish_copy (&t->c, ok, t->x);
  copy_record_end (&r, copy_record_outcome (&r, ok));
  if (!ok)
    atomic_store (&t->group->failed, true);
  fill_outcome_end (t->outcome, ok);
  free (t->src_name);
  free (t->dst_name);
  free (f);
}

/* Have other ranks copy the ranges of F, whose ends are SRC and DST,
   each a piece of F's; a range that none takes (on a rank given a
   subtree, none has asked for work) is copied here, after those before
   it.  */
static void
send_ranges (struct chunked_copy *f, struct file_source const *src,
             struct loc const *dst)
{
  struct loc const *sl = src->loc;
  /* With --atomic, the ranks fill the temporary file, by its name.  */
  struct atomic_temp const *temp = f->t.c.atomic;
  char const *dst_name = temp ? temp->temp_name : dst->name;
  char const *dst_rel = temp ? temp->temp_rel : dst->rel;
  for (intmax_t i = 0; i < f->split.ranges; i++)
    {
      struct remote_file rf = { sl->dir, dst->dir, sl->name, sl->rel,
                                dst_name, dst_rel, &f->t.c.src_st,
                                src->follow, f, &f->split, i,
                                &f->t.c.dst_st };
      task_group_hold (&f->ranges);
      struct copy_remote const *remote = f->t.group->session->helpers.remote;
      if (!remote->ops->send (remote->job, &rf))
        {
          xfer_copy_one_range (&f->split, i);
          task_group_release (&f->ranges);
        }
    }
}

/* How many workers copy one file's ranges at once: no more than the
   CPUs, as more only contend for them; the other workers copy other
   files meanwhile.  Asked for each file split, by whichever thread
   splits it: a few system calls beside 64 MiB or more to copy.  */
static int
range_workers (struct cp_options const *x)
{
  return MIN (x->jobs, usable_cpus ());
}

/* Whether the page cache holds most of the SIZE bytes of FD.  Ranges
   of a cached file copied at once only contend: for the destination's
   lock, which most file systems hold through each buffered write, and
   for memory bandwidth.  Splitting 1 GiB cached on ext4 took 1.09
   times the time and twice the CPU of one job with 2 workers, 1.6
   and 2.8 times with 4.  Ranges pay where reads wait for the disk:
   several keep more reads in flight.  */
static bool
mostly_cached (int fd, off_t size)
{
  return XFER_CACHE_SAMPLES * 3 / 4 <= xfer_cached_samples (fd, size);
}

/* If C's source, SRC to DST, is large enough, have workers or other
   ranks copy it in ranges, as a piece of PLACE's group, taking the
   outcome PLACE has to report to, if any, and return true; else return
   false, having done nothing.  */
static bool
hand_over_chunks (struct open_copy const *c, struct file_source const *src,
                  struct loc const *dst, struct fill_place const *place,
                  struct cp_options const *x)
{
  struct file_group *group = place->group;
  /* A hash of the whole file to print needs its data in order, and
     ranges come in any; --verify checks each range on its own.  What
     --resume copies of a file is copied by one thread: the rest of a
     file cut short, or the ranges a split copy left out, whose starts
     the ranges here would not meet.  */
  if (x->attributes_only || x->print_hash || c->resume || c->resume_pending)
    return false;
  struct copy_helpers const *helpers = &group->session->helpers;
  off_t chunk = helpers->chunk_size;
  if (c->src_st.st_size < chunk
      || (!helpers->remote && !xfer_chunk_size_set ()
          && mostly_cached (c->src.fd, c->src_st.st_size)))
    return false;

  struct chunked_copy *f = xmalloc (sizeof *f);
  struct copy_task *t = &f->t;
  copy_task_init (t, c, group, x);
  struct xfer_file in = { c->src.fd, t->src_name, &t->c.src_st, true };
  struct xfer_file out = { c->dst.fd, t->dst_name, &t->c.dst_st, true };
  if (!xfer_split_start (&f->split, &in, &out, &x->xfer, chunk))
    {
      free (t->src_name);
      free (t->dst_name);
      free (f);
      return false;
    }
  f->split.verify_algo = x->verify ? x->hash_algo : -1;
  clock_gettime (CLOCK_MONOTONIC, &f->start);

  /* A task per worker, each copying ranges until none is left; or a
     message per range, which the ranks take as they are free.  */
  t->outcome = claim_outcome (place->pending);
  task_group_init (&f->ranges, &group->pieces, chunked_copy_done);
  if (helpers->remote)
    send_ranges (f, src, dst);
  else
    for (intmax_t i = 0; i < MIN (f->split.ranges, range_workers (x)); i++)
      {
        task_group_hold (&f->ranges);
        workers_submit (helpers->pool, run_range_task, f);
      }
  task_group_release (&f->ranges);
  return true;
}

/* A regular file for a worker to copy whole, from opening its source
   to closing both ends, into a directory the copy made, where nothing
   can be in its way.  NAMES holds the source's name, then the
   copy's.  */
struct new_file_task
{
  struct shared_dirs *dirs;
  struct file_group *group;
  struct cp_options const *x;
  struct stat src_st;		/* as the walk saw it */
  bool follow;
  int src_fd;			/* the source, if the walk opened it */
  bool fd_checked;		/* SRC_ST was taken from SRC_FD */
  size_t src_rel;		/* where in its name each end's own */
  size_t dst_rel;		/* name starts */
  size_t dst_name;		/* where in NAMES the copy's name starts */
  char names[];
};

static void
run_new_file_task (void *arg)
{
  struct new_file_task *t = arg;
  struct file_group *group = t->group;
  char const *dst_name = t->names + t->dst_name;
  struct loc src = { &t->dirs->src, t->names + t->src_rel, t->names };
  struct loc dst = { &t->dirs->dst, dst_name + t->dst_rel, dst_name };
  struct file_source from = { &src, &t->src_st, t->follow, t->src_fd,
                              t->fd_checked };
  if (!copy_new_file (&from, &dst, group, group->session, t->x))
    atomic_store (&group->failed, true);
  shared_dirs_release (t->dirs);
  free (t);
  task_group_release (&group->pieces);
}

/* New files, for one worker to copy one after the other.  */
struct new_file_batch
{
  idx_t n;
  off_t bytes;			/* their sizes, added up */
  struct new_file_task *file[NEW_FILE_BATCH];
};

static void
run_new_file_batch (void *arg)
{
  struct new_file_batch *b = arg;
  for (idx_t i = 0; i < b->n; i++)
    run_new_file_task (b->file[i]);
  free (b);
}

/* Hand the workers the files session S's walk gathered, if any.  */
static void
hand_over_gathered (struct copy_session *s)
{
  struct new_file_batch *b = s->gathered;
  if (!b)
    return;
  s->gathered = NULL;
  workers_submit_weighing (s->helpers.pool, run_new_file_batch, b,
                           b->file[0]->dirs, b->n);
}

/* Add T, a new file of SIZE bytes, to what session S's walk gathers
   for the workers, and hand them the lot once it is a full batch, or
   a quarter of one if a worker has nothing to do.  Not a single file
   then: where the walk is the slower side (empty files), that woke a
   worker for every file, and 100,000 of them took 1.48 s of CPU
   instead of 1.30 s, with 27,000 context switches instead of
   13,000.  */
static void
gather_new_file (struct copy_session *s, struct new_file_task *t,
                 off_t size)
{
  struct new_file_batch *b = s->gathered;
  if (!b)
    {
      b = s->gathered = xmalloc (sizeof *b);
      b->n = 0;
      b->bytes = 0;
    }
  b->file[b->n++] = t;
  /* A batch ends at NEW_FILE_BATCH_BYTES: a file's size counts up to
     that, so that no sparse giant makes the sum overflow.  */
  b->bytes += MIN (size, NEW_FILE_BATCH_BYTES);
  if (s->helpers.batch_files <= b->n || NEW_FILE_BATCH_BYTES <= b->bytes
      || (s->helpers.batch_files <= 4 * b->n
          && workers_starving (s->helpers.pool)))
    hand_over_gathered (s);
}

/* How many files in a row found cached make the walk stop asking for
   a while (source_seems_cached).  */
enum { CACHED_RUN = 16 };

bool
source_data_cached (struct copy_session const *s)
{
  return CACHED_RUN <= s->cache.cached_run;
}

#if HAVE_POSIX_FADVISE
/* Whether the file open as FD, whose data a worker will read soon,
   need not be read ahead: the files before it were found in the page
   cache.  Asking the kernel to read ahead a cached file costs a system
   call that finds nothing to do, a tenth of the calls of a small
   file's copy; so once 16 files in a row were found cached, the next
   16 are not asked about, and then one is again.  The first byte is
   read without waiting (RWF_NOWAIT) to tell, which is to ask less: a
   miss starts the read-ahead that the advice adds to.  Only the walk
   calls this.  */
static bool
source_seems_cached (struct cache_guess *g, int fd)
{
#if HAVE_PREADV2 && defined RWF_NOWAIT
  if (g->cannot_tell)
    return false;
  if (CACHED_RUN <= g->cached_run && g->cached_run++ < 2 * CACHED_RUN)
    return true;
  char c;
  struct iovec iov = { &c, 1 };
  ssize_t n = preadv2 (fd, &iov, 1, 0, RWF_NOWAIT);
  if (n == 1)
    {
      g->cached_run = MIN (g->cached_run + 1, CACHED_RUN);
      return true;
    }
  if (n < 0 && errno != EAGAIN)
    g->cannot_tell = true;
  g->cached_run = 0;
#endif
  return false;
}
#endif

/* Whether the file SRC (status SRC_ST) is on a file system in memory,
   as its directory tells unless SRC is a mount point of its own.  */
static bool
in_memory (struct loc const *src, struct stat const *src_st)
{
  return (src->dir && src_st->st_dev == src->dir->dev
          && file_system_kind (loc_fd (src), src->dir->dev) & FS_MEMORY);
}

/* Where a worker will copy the regular file SRC soon, open it now if
   need be and ask for the start of its data, as G guesses, returning
   the descriptor, or -1 to leave the opening and its messages to the
   worker.  Waiting tasks keep the
   device busy this way: a worker reads one file at a time, and a copy
   of a tree whose data is not cached would otherwise have but one read
   per worker in flight (with two workers it took 0.78 of GNU cp's time
   on a cold real tree, and 0.57 with the reads asked for here).  Not
   with direct I/O or --uncached, which keep the data out of the page
   cache, nor for empty files, which have nothing to read, nor from a
   file system in memory: on tmpfs, which cannot say whether a read
   would wait, the advice cost one call per file and did nothing.  */
static int
prefetch_source (struct file_source const *src, struct cache_guess *g,
                 struct cp_options const *x)
{
  enum { PREFETCH_BYTES = 512 * 1024 };
  off_t size = src->st->st_size;
  int fd = src->fd;
  if (size == 0 || x->attributes_only || x->xfer.direct || x->xfer.uncached
      || in_memory (src->loc, src->st))
    return fd;
  if (fd < 0)
    fd = open_source (src->loc, src->follow);
#if HAVE_POSIX_FADVISE
  /* Only advice: the copy reads the file whatever comes of it.  */
  if (0 <= fd && !source_seems_cached (g, fd))
    posix_fadvise (fd, 0, MIN (size, PREFETCH_BYTES), POSIX_FADV_WILLNEED);
#endif
  return fd;
}

/* Have another rank copy SRC to DST as hand_over_new_file says.  */
static bool
send_new_file (struct file_source const *src, struct loc const *dst,
               struct file_group *fg)
{
  struct loc const *sl = src->loc;
  struct remote_file f = { sl->dir, dst->dir, sl->name, sl->rel,
                           dst->name, dst->rel, src->st, src->follow, fg,
                           NULL, -1, NULL };
  task_group_hold (&fg->pieces);
  struct copy_remote const *remote = fg->session->helpers.remote;
  if (remote->ops->send (remote->job, &f))
    return true;
  task_group_release (&fg->pieces);
  return false;
}

/* Open the entry SRC, which its directory lists as a regular file, to
   copy it, and set *ST to its status: one lookup of its name, where
   looking at it and then opening it take two, and a status that is
   the open file's, which needs no checking again.  Return the
   descriptor, or -1 if SRC can't be opened so or is no longer a
   regular file, leaving it to be looked at as any entry is.  */
int
open_entry (struct loc const *src, struct stat *st)
{
  /* Not waiting: a FIFO put in its place since the directory was read
     must not hang the walk, nor a device become its terminal.  Reading
     a regular file ignores the flag, but maybe not through a daemon
     or across a network, where it is cleared.  */
  int fd = openat (loc_fd (src), src->rel,
                   O_RDONLY | O_BINARY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    return -1;
  if (fstat (fd, st) == 0 && S_ISREG (st->st_mode)
      && (! (file_system_kind (loc_fd (src), src->dir->dev) & FS_FAR)
          || fcntl (fd, F_SETFL, 0) == 0))
    return fd;
  /* Nothing was read: its closing has nothing to say.  */
  close (fd);
  return -1;
}

bool
hand_over_new_file (struct file_source const *src, struct loc const *dst,
                    struct file_group *fg, struct cp_options const *x)
{
  struct copy_session *s = fg->session;
  if (s->helpers.remote)
    return send_new_file (src, dst, fg);
  struct loc const *sl = src->loc;
  struct shared_dirs *dirs = file_group_dirs (fg, sl->dir, dst->dir);
  if (!dirs)
    return false;
  size_t dst_at;
  struct new_file_task *t
    = alloc_with_names (offsetof (struct new_file_task, names),
                        sl->name, dst->name, &dst_at);
  t->dirs = dirs;
  t->group = fg;
  t->x = x;
  t->src_st = *src->st;
  t->follow = src->follow;
  t->src_fd = prefetch_source (src, &s->cache, x);
  t->fd_checked = 0 <= src->fd;
  t->src_rel = sl->rel - sl->name;
  t->dst_rel = dst->rel - dst->name;
  t->dst_name = dst_at;
  task_group_hold (&fg->pieces);
  gather_new_file (s, t, src->st->st_size);
  return true;
}

/* Set the attributes F keeps for a directory the walk has left, close
   its descriptors and free it.  Return false if that failed.  */
static bool
finish_directory_now (struct dir_finish *f)
{
  char const *src_name = f->names;
  char const *dst_name = f->names + f->dst_name;
  int dst_fd = f->dirs->dst.fd;
  copy_record_resume (&f->record);
  struct attr_file dst = task_end ((char *) dst_name, dst_fd, f->created);
  if (f->created)
    dst.st = &f->made_st;
  bool ok = atomic_batch_dir_finishing (f->session->renames,
                                        f->dirs->dst.dev, f->dirs->dst.ino,
                                        dst_name, &f->src_st, f->set_mode,
                                        f->mode, f->x);
  ok &= copy_attributes (task_end ((char *) src_name, f->dirs->src.fd,
                                   false),
                         &f->src_st, dst, f->x);
  /* After the extended attributes, which an unprivileged owner can
     set only while the directory is writable.  */
  if (f->set_mode && fchmod (dst_fd, f->mode) != 0)
    {
      error (0, errno, _("setting permissions for %s"), quoteaf (dst_name));
      ok = false;
    }
  /* Its entries are all made: the group has ended.  */
  if (ok && f->session->syncs)
    ok = copy_sync_dir (f->session->syncs, dst_fd, f->dirs->dst.dev,
                        dst_name);
  /* Closing a directory whose changes are made can't lose them.  */
  shared_dirs_release (f->dirs);
  atomic_fetch_sub (&f->session->finishes_held, 1);
  copy_record_end (&f->record,
                   copy_record_outcome (&f->record, f->walked_ok && ok));
  free (f);
  return ok;
}

bool
defer_finish (struct file_group *fg, struct dir_copy const *d,
              bool set_mode, mode_t mode, bool walked_ok,
              struct cp_options const *x)
{
  struct copy_session *s = fg->session;
  struct walk_dir const *sdir = &d->sdir;
  if (sdir->fd < 0 || d->ddir->fd < 0 || d->ddir->search_only)
    return false;
  if (s->finishes_max <= atomic_fetch_add (&s->finishes_held, 1))
    goto unheld;
  struct shared_dirs *dirs = file_group_dirs (fg, sdir, d->ddir);
  if (!dirs)
    goto unheld;
  size_t dst_at;
  struct dir_finish *f = alloc_with_names (offsetof (struct dir_finish, names),
                                           d->src->name, d->dst->name,
                                           &dst_at);
  f->session = s;
  f->dirs = dirs;
  f->src_st = *d->src_st;
  f->created = !d->exists;
  if (f->created)
    f->made_st = *d->dst_st;
  f->set_mode = set_mode;
  f->mode = mode;
  f->x = x;
  f->dst_name = dst_at;
  copy_record_pass (d->record, &f->record, f->names, f->names + dst_at);
  f->walked_ok = walked_ok;
  fg->finish = f;
  file_group_leave_dirs (fg);
  task_group_release (&fg->pieces);
  return true;

 unheld:
  atomic_fetch_sub (&s->finishes_held, 1);
  return false;
}

/* Count one more piece of FG, which file_group_end_piece ends.  */
void
file_group_hold (struct file_group *fg)
{
  task_group_hold (&fg->pieces);
}

/* End a piece of FG, which failed unless OK.  */
void
file_group_end_piece (struct file_group *fg, bool ok)
{
  if (!ok)
    atomic_store (&fg->failed, true);
  task_group_release (&fg->pieces);
}

/* The range RANGE of F, which another rank copied (if OK) saying SAID
   and reporting REPORT, is over.  */
void
chunked_copy_range_ended (struct chunked_copy *f, intmax_t range, bool ok,
                          struct held_errors *said,
                          struct xfer_report const *report)
{
  xfer_split_merge (&f->split, range * f->split.chunk, ok, said, report);
  task_group_release (&f->ranges);
}

bool
copy_data_file (struct file_source const *src, struct loc const *dst,
                bool exists, struct fill_place const *place,
                struct cp_options const *x)
{
  struct copy_helpers const *helpers = &place->session->helpers;
  /* A worker, not the walk, reads what --resume looks at of a file
     handed to it whole: one too small to be split.  */
  bool worker_fills = (place->group && helpers->pool && !place->here
                       && src->st->st_size < helpers->chunk_size);
  struct copy_record r;
  copy_record_begin (&r, x->report, src->loc->name, dst->name, S_IFREG);
  struct open_copy c;
  if (!open_copy_ends (src, dst, exists, worker_fills, place->rename_now,
                       place->session, x, &c))
    {
      copy_record_end (&r, COPY_FAILED);
      return false;
    }
  /* A new file that --reflink=always fails to clone into is removed
     by its name, in a directory that only this thread is sure to hold
     open until then; a clone is quick anyway.  A temporary file of
     --atomic is removed through a descriptor of its own.  */
  bool removed_if_unclonable = (c.dst.created && !c.atomic
                                && x->xfer.reflink == XFER_REFLINK_ALWAYS);
  if (place->group && sends_files (helpers) && !removed_if_unclonable)
    {
      if (hand_over_chunks (&c, src, dst, place, x))
        {
          copy_record_drop (&r);
          return true;
        }
      if (helpers->pool && !place->here)
        {
          copy_record_drop (&r);
          hand_over (&c, place, x);
          return true;
        }
    }
  bool ok = fill_copy (&c, x, &r);
  copy_record_end (&r, copy_record_outcome (&r, ok));
  return ok;
}

bool
copy_new_file (struct file_source const *src, struct loc const *dst,
               struct file_group *group, struct copy_session *s,
               struct cp_options const *x)
{
  struct fill_place here = { s, group, true, NULL, false };
  return copy_data_file (src, dst, false, &here, x);
}
