/* uring-tree -- time copying a directory of small files with plain
   system calls against io_uring batches.

   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Issue 18 asks whether a cp --jobs worker would gain by batching the
   system calls of small files with io_uring.  This program answers it
   on the machine at hand: it makes a directory of files sized like a
   source tree and copies it into fresh directories, per file either
   with plain calls (openat, fstat, openat O_CREAT, read, write, close,
   close) or with io_uring, a batch of files per submission: first the
   opens and a statx for every file of the batch, then, as the sizes are
   known only then, a linked READ, WRITE, CLOSE, CLOSE per file.  With
   the kernel's direct descriptors the files never get a descriptor in
   the process's table, as cp's worker would do it at best.

   It prints the median of the runs of each way, and its ratio to the
   plain calls with as many threads: below 1 io_uring is faster.  The
   CPU time counts io_uring's kernel workers, which run as threads of
   the process: a gain in wall time from running the opens of a batch
   in many of them at once costs CPU that cp's other workers lack.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if HAVE_LIBURING
# include <liburing.h>
#endif

#include "bench-util.h"
#include "error.h"
#include "progname.h"
#include "xalloc.h"

/* The status of a run that cannot measure here, as automake's
   harness reads it.  */
enum { EXIT_SKIP = 77 };

/* The largest file made; each batch slot has a buffer this big.  */
enum { MAX_FILE_SIZE = 64 * 1024 };

enum { MAX_RUNS = 101, MAX_LIST = 8, MAX_THREADS = 64 };

struct tree
{
  int dirfd;
  idx_t n;
  char (*names)[16];
  off_t *sizes;
};

/* One way of copying, as timed.  */
struct way
{
  bool uring;
  int threads;
  int batch;
  double times[MAX_RUNS];
  /* User and system time, io_uring's kernel workers included.  */
  double cpu[MAX_RUNS];
};

/* What a copying thread gets: the files of index I with
   I % NTHREADS == ID.  */
struct job
{
  struct tree const *src;
  int dst_dirfd;
  int id, nthreads, batch;
  bool uring;
};

static struct option const long_options[] =
{
  {"files", required_argument, NULL, 'n'},
  {"runs", required_argument, NULL, 'r'},
  {"batch", required_argument, NULL, 'b'},
  {"threads", required_argument, NULL, 't'},
  {"cold", no_argument, NULL, 'c'},
  {"help", no_argument, NULL, 'h'},
  {NULL, 0, NULL, 0}
};

static void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    bench_try_help ();
  printf ("Usage: %s [--files=N] [--runs=N] [--batch=N,...]"
          " [--threads=N,...] [--cold] DIR\n"
          "Copy a generated directory of N small files (default 5000)"
          " in DIR,\nwith plain system calls and with io_uring batches"
          " (default 16,64),\nwith each number of threads (default 1,2),"
          " hot and, with --cold, from\na dropped page cache (root only),"
          " and print the medians of --runs runs\n(default 5).\n",
          program_name);
  exit (status);
}

/* A generator of the same sizes and contents on every run.  */
static unsigned long long
next_random (unsigned long long *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* A size like a source tree's: a tenth under 1 KiB, three quarters
   1 to 16 KiB, the rest 16 to 64 KiB.  */
static off_t
file_size (unsigned long long *state)
{
  unsigned long long r = next_random (state);
  int bucket = r % 20;
  r >>= 8;
  if (bucket < 2)
    return 1 + r % 1024;
  if (bucket < 17)
    return 1024 + r % (15 * 1024);
  return 16 * 1024 + r % (MAX_FILE_SIZE - 16 * 1024 + 1);
}

static void
write_whole (int fd, char const *buf, idx_t size, char const *name)
{
  while (0 < size)
    {
      ssize_t n = write (fd, buf, size);
      if (n < 0)
        error (EXIT_FAILURE, errno, "%s", name);
      buf += n;
      size -= n;
    }
}

/* Make DIR/src holding N files.  */
static void
make_tree (struct tree *t, int top, idx_t n)
{
  if (mkdirat (top, "src", 0755) != 0)
    error (EXIT_FAILURE, errno, "cannot create src in the directory");
  t->dirfd = openat (top, "src", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (t->dirfd < 0)
    error (EXIT_FAILURE, errno, "cannot open src");
  t->n = n;
  t->names = xinmalloc (n, sizeof *t->names);
  t->sizes = xinmalloc (n, sizeof *t->sizes);
  char *buf = xmalloc (MAX_FILE_SIZE);
  unsigned long long state = 0x9e3779b97f4a7c15ULL;
  for (idx_t i = 0; i < n; i++)
    {
      sprintf (t->names[i], "f%06td.c", i);
      t->sizes[i] = file_size (&state);
      for (off_t j = 0; j < t->sizes[i]; j++)
        buf[j] = ' ' + next_random (&state) % 95;
      int fd = openat (t->dirfd, t->names[i],
                       O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0)
        error (EXIT_FAILURE, errno, "cannot create src/%s", t->names[i]);
      write_whole (fd, buf, t->sizes[i], t->names[i]);
      if (close (fd) != 0)
        error (EXIT_FAILURE, errno, "src/%s", t->names[i]);
    }
  free (buf);
}

/* Remove directory NAME in TOP and the files of T's names in it.  */
static void
remove_copy (int top, char const *name, struct tree const *t)
{
  int fd = openat (top, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    error (EXIT_FAILURE, errno, "cannot open %s", name);
  for (idx_t i = 0; i < t->n; i++)
    if (unlinkat (fd, t->names[i], 0) != 0 && errno != ENOENT)
      error (EXIT_FAILURE, errno, "cannot remove %s/%s", name, t->names[i]);
  if (close (fd) != 0 || unlinkat (top, name, AT_REMOVEDIR) != 0)
    error (EXIT_FAILURE, errno, "cannot remove %s", name);
}

/* Fail unless the copy in DST_DIRFD has T's files, byte for byte.  */
static void
check_copy (struct tree const *t, int dst_dirfd)
{
  char *a = xmalloc (MAX_FILE_SIZE + 1);
  char *b = xmalloc (MAX_FILE_SIZE + 1);
  for (idx_t i = 0; i < t->n; i++)
    {
      int fa = openat (t->dirfd, t->names[i], O_RDONLY | O_CLOEXEC);
      int fb = openat (dst_dirfd, t->names[i], O_RDONLY | O_CLOEXEC);
      if (fa < 0 || fb < 0)
        error (EXIT_FAILURE, errno, "cannot open %s to check", t->names[i]);
      ssize_t na = read (fa, a, MAX_FILE_SIZE + 1);
      ssize_t nb = read (fb, b, MAX_FILE_SIZE + 1);
      if (na < 0 || nb < 0)
        error (EXIT_FAILURE, errno, "cannot read %s to check", t->names[i]);
      if (na != t->sizes[i] || nb != na || memcmp (a, b, na) != 0)
        error (EXIT_FAILURE, 0, "the copy of %s differs", t->names[i]);
      if (close (fa) != 0 || close (fb) != 0)
        error (EXIT_FAILURE, errno, "%s", t->names[i]);
    }
  free (a);
  free (b);
}

/* Copy file I of J's share with plain calls, through BUF.  */
static void
plain_copy_file (struct job const *j, idx_t i, char *buf)
{
  char const *name = j->src->names[i];
  int in = openat (j->src->dirfd, name, O_RDONLY | O_CLOEXEC);
  if (in < 0)
    error (EXIT_FAILURE, errno, "cannot open %s", name);
  struct stat st;
  if (fstat (in, &st) != 0)
    error (EXIT_FAILURE, errno, "cannot stat %s", name);
  int out = openat (j->dst_dirfd, name,
                    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                    st.st_mode & 0777);
  if (out < 0)
    error (EXIT_FAILURE, errno, "cannot create %s", name);
  /* Asking for a byte more than the size tells the end of the file
     with one read, as the io_uring way trusts the size.  */
  for (;;)
    {
      ssize_t n = read (in, buf, MAX_FILE_SIZE + 1);
      if (n < 0)
        error (EXIT_FAILURE, errno, "cannot read %s", name);
      write_whole (out, buf, n, name);
      if (n < MAX_FILE_SIZE + 1)
        break;
    }
  if (close (in) != 0 || close (out) != 0)
    error (EXIT_FAILURE, errno, "cannot close %s", name);
}

static void
plain_copy (struct job const *j)
{
  char *buf = xmalloc (MAX_FILE_SIZE + 1);
  for (idx_t i = j->id; i < j->src->n; i += j->nthreads)
    plain_copy_file (j, i, buf);
  free (buf);
}

#if HAVE_LIBURING

/* Whether the kernel offers direct descriptors, as found once.  */
static int direct_ok = -1;

struct ring
{
  struct io_uring ring;
  bool direct;
  /* Per batch slot: the source's and destination's descriptors (or
     direct slots), the statx result and the buffer.  */
  int *in, *out;
  struct statx *stx;
  char *bufs;
};

static void
ring_init (struct ring *r, int batch)
{
  int err = io_uring_queue_init (8 * batch, &r->ring, 0);
  if (err < 0)
    error (EXIT_SKIP, -err, "io_uring is not usable here");
  r->direct = direct_ok != 0
              && io_uring_register_files_sparse (&r->ring, 2 * batch) == 0;
  r->in = xinmalloc (batch, sizeof *r->in);
  r->out = xinmalloc (batch, sizeof *r->out);
  r->stx = xinmalloc (batch, sizeof *r->stx);
  r->bufs = xinmalloc (batch, MAX_FILE_SIZE);
}

static void
ring_free (struct ring *r)
{
  io_uring_queue_exit (&r->ring);
  free (r->in);
  free (r->out);
  free (r->stx);
  free (r->bufs);
}

static struct io_uring_sqe *
get_sqe (struct ring *r)
{
  struct io_uring_sqe *sqe = io_uring_get_sqe (&r->ring);
  if (!sqe)
    error (EXIT_FAILURE, 0, "the submission queue is full");
  return sqe;
}

/* Submit the queued requests and reap NR completions, whose user data
   is 4 * SLOT + STEP, calling SEE on each.  */
static void
submit_and_reap (struct ring *r, int nr,
                 void (*see) (struct ring *, struct job const *, idx_t,
                              int, int, int),
                 struct job const *j, idx_t first)
{
  int err = io_uring_submit_and_wait (&r->ring, nr);
  if (err < 0)
    error (EXIT_FAILURE, -err, "io_uring_submit_and_wait");
  for (int done = 0; done < nr; done++)
    {
      struct io_uring_cqe *cqe;
      err = io_uring_wait_cqe (&r->ring, &cqe);
      if (err < 0)
        error (EXIT_FAILURE, -err, "io_uring_wait_cqe");
      unsigned long long data = io_uring_cqe_get_data64 (cqe);
      see (r, j, first, data / 4, data % 4, cqe->res);
      io_uring_cqe_seen (&r->ring, cqe);
    }
}

/* Steps of a file's requests, in the user data.  */
enum { OPEN_IN, STAT_IN, OPEN_OUT };
enum { READ, WRITE, CLOSE_IN, CLOSE_OUT };

static void
see_open (struct ring *r, struct job const *j, idx_t first,
          int slot, int step, int res)
{
  char const *name = j->src->names[first + slot * j->nthreads];
  if (res < 0)
    error (EXIT_FAILURE, -res, "%s %s",
           step == STAT_IN ? "cannot stat" : "cannot open", name);
  if (!r->direct && step == OPEN_IN)
    r->in[slot] = res;
  if (!r->direct && step == OPEN_OUT)
    r->out[slot] = res;
}

static void
see_copy (struct ring *r, struct job const *j, idx_t first,
          int slot, int step, int res)
{
  char const *name = j->src->names[first + slot * j->nthreads];
  if (res < 0)
    error (EXIT_FAILURE, -res, "cannot %s %s",
           (step == READ ? "read" : step == WRITE ? "write" : "close"), name);
  if ((step == READ || step == WRITE) && res != (int) r->stx[slot].stx_size)
    error (EXIT_FAILURE, 0, "short %s on %s",
           step == READ ? "read" : "write", name);
}

static void
set_data (struct io_uring_sqe *sqe, int slot, int step)
{
  io_uring_sqe_set_data64 (sqe, 4 * (unsigned long long) slot + step);
}

/* Copy the NR files of J's share from index FIRST on, with R.  */
static void
uring_copy_batch (struct ring *r, struct job const *j, idx_t first, int nr)
{
  /* A direct descriptor is in no table an exec could pass on, and the
     kernel refuses O_CLOEXEC for it.  */
  int const cloexec = r->direct ? 0 : O_CLOEXEC;
  int const in_flags = O_RDONLY | cloexec;
  int const out_flags = O_WRONLY | O_CREAT | O_EXCL | cloexec;
  for (int s = 0; s < nr; s++)
    {
      char const *name = j->src->names[first + s * j->nthreads];
      struct io_uring_sqe *sqe = get_sqe (r);
      if (r->direct)
        io_uring_prep_openat_direct (sqe, j->src->dirfd, name, in_flags, 0,
                                     2 * s);
      else
        io_uring_prep_openat (sqe, j->src->dirfd, name, in_flags, 0);
      set_data (sqe, s, OPEN_IN);
      sqe = get_sqe (r);
      io_uring_prep_statx (sqe, j->src->dirfd, name, AT_SYMLINK_NOFOLLOW,
                           STATX_BASIC_STATS, &r->stx[s]);
      set_data (sqe, s, STAT_IN);
      sqe = get_sqe (r);
      /* The mode is known only once the statx is done; the plain way
         creates with the source's, which is 0644 here too.  */
      if (r->direct)
        io_uring_prep_openat_direct (sqe, j->dst_dirfd, name, out_flags,
                                     0644, 2 * s + 1);
      else
        io_uring_prep_openat (sqe, j->dst_dirfd, name, out_flags, 0644);
      set_data (sqe, s, OPEN_OUT);
    }
  submit_and_reap (r, 3 * nr, see_open, j, first);

  for (int s = 0; s < nr; s++)
    {
      unsigned size = r->stx[s].stx_size;
      char *buf = r->bufs + (idx_t) s * MAX_FILE_SIZE;
      int in = r->direct ? 2 * s : r->in[s];
      int out = r->direct ? 2 * s + 1 : r->out[s];
      int fixed = r->direct ? IOSQE_FIXED_FILE : 0;
      struct io_uring_sqe *sqe = get_sqe (r);
      io_uring_prep_read (sqe, in, buf, size, 0);
      io_uring_sqe_set_flags (sqe, fixed | IOSQE_IO_LINK);
      set_data (sqe, s, READ);
      sqe = get_sqe (r);
      io_uring_prep_write (sqe, out, buf, size, 0);
      io_uring_sqe_set_flags (sqe, fixed | IOSQE_IO_LINK);
      set_data (sqe, s, WRITE);
      sqe = get_sqe (r);
      if (r->direct)
        io_uring_prep_close_direct (sqe, in);
      else
        io_uring_prep_close (sqe, in);
      io_uring_sqe_set_flags (sqe, IOSQE_IO_LINK);
      set_data (sqe, s, CLOSE_IN);
      sqe = get_sqe (r);
      if (r->direct)
        io_uring_prep_close_direct (sqe, out);
      else
        io_uring_prep_close (sqe, out);
      set_data (sqe, s, CLOSE_OUT);
    }
  submit_and_reap (r, 4 * nr, see_copy, j, first);
}

static void
uring_copy (struct job const *j)
{
  struct ring r;
  ring_init (&r, j->batch);
  idx_t stride = (idx_t) j->batch * j->nthreads;
  for (idx_t first = j->id; first < j->src->n; first += stride)
    {
      idx_t left = (j->src->n - first + j->nthreads - 1) / j->nthreads;
      uring_copy_batch (&r, j, first, left < j->batch ? left : j->batch);
    }
  ring_free (&r);
}

/* Whether io_uring can be used, and if so whether with direct
   descriptors; exit with EXIT_SKIP if it cannot.  */
static bool
probe_uring (void)
{
  struct io_uring ring;
  int err = io_uring_queue_init (4, &ring, 0);
  if (err < 0)
    error (EXIT_SKIP, -err, "io_uring is not usable here");
  direct_ok = io_uring_register_files_sparse (&ring, 2) == 0;
  io_uring_queue_exit (&ring);
  return direct_ok;
}

#endif

static void *
run_job (void *arg)
{
  struct job const *j = arg;
#if HAVE_LIBURING
  if (j->uring)
    {
      uring_copy (j);
      return NULL;
    }
#endif
  plain_copy (j);
  return NULL;
}

static double
now (void)
{
  struct timespec ts;
  if (clock_gettime (CLOCK_MONOTONIC, &ts) != 0)
    error (EXIT_FAILURE, errno, "clock_gettime");
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The CPU time of the process so far, in seconds.  */
static double
cpu_time (void)
{
  struct rusage ru;
  if (getrusage (RUSAGE_SELF, &ru) != 0)
    error (EXIT_FAILURE, errno, "getrusage");
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec
          + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
}

static void
drop_caches (void)
{
  sync ();
  int fd = open ("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write (fd, "3\n", 2) != 2 || close (fd) != 0)
    error (EXIT_FAILURE, errno, "cannot drop the page cache");
}

/* The name of the copy of run RUN of way K.  */
static char *
copy_name (char name[32], int run, int k)
{
  sprintf (name, "dst.%d.%d", run, k);
  return name;
}

/* Copy T into directory NAME, new in TOP, the way W says, and record
   in W the seconds taken and the CPU time of run RUN; COLD: from a
   dropped page cache, the final syncfs timed too; CHECK: compare the
   copy with the source.  */
static void
time_copy (struct tree const *t, int top, char const *name,
           struct way *w, int run, bool cold, bool check)
{
  if (mkdirat (top, name, 0755) != 0)
    error (EXIT_FAILURE, errno, "cannot create %s", name);
  int dst = openat (top, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dst < 0)
    error (EXIT_FAILURE, errno, "cannot open %s", name);
  /* No run pays for the write-back of the one before.  */
  if (cold)
    drop_caches ();
  else
    sync ();

  struct job jobs[MAX_THREADS];
  pthread_t threads[MAX_THREADS];
  double cpu_start = cpu_time ();
  double start = now ();
  for (int i = 0; i < w->threads; i++)
    {
      jobs[i] = (struct job) { .src = t, .dst_dirfd = dst, .id = i,
                               .nthreads = w->threads, .batch = w->batch,
                               .uring = w->uring };
      int err = pthread_create (&threads[i], NULL, run_job, &jobs[i]);
      if (err != 0)
        error (EXIT_FAILURE, err, "pthread_create");
    }
  for (int i = 0; i < w->threads; i++)
    {
      int err = pthread_join (threads[i], NULL);
      if (err != 0)
        error (EXIT_FAILURE, err, "pthread_join");
    }
  if (cold && syncfs (dst) != 0)
    error (EXIT_FAILURE, errno, "syncfs");
  w->times[run] = now () - start;
  w->cpu[run] = cpu_time () - cpu_start;

  if (check)
    check_copy (t, dst);
  if (close (dst) != 0)
    error (EXIT_FAILURE, errno, "%s", name);
}

/* Time each of the NWAYS ways RUNS times, round robin so that a
   change in the machine's load spreads over all, and print a row
   for each.  The copies are removed only at the end: on ext4, files
   created right after many were deleted are several times slower to
   create.  */
static void
measure (struct tree const *t, int top, struct way *ways, int nways,
         int runs, bool cold)
{
  char name[32];
  for (int run = 0; run < runs; run++)
    for (int k = 0; k < nways; k++)
      {
        int way = (k + run) % nways;
        time_copy (t, top, copy_name (name, run, way), &ways[way], run,
                   cold, run == 0);
      }
  for (int run = 0; run < runs; run++)
    for (int k = 0; k < nways; k++)
      remove_copy (top, copy_name (name, run, k), t);
  for (int k = 0; k < nways; k++)
    {
      struct way const *w = &ways[k];
      double plain = 0;
      for (int p = 0; p < nways; p++)
        if (!ways[p].uring && ways[p].threads == w->threads)
          plain = bench_median (ways[p].times, runs);
      double m = bench_median (w->times, runs);
      double lo = w->times[0], hi = lo;
      for (int run = 0; run < runs; run++)
        {
          lo = w->times[run] < lo ? w->times[run] : lo;
          hi = hi < w->times[run] ? w->times[run] : hi;
        }
      char batch[16];
      sprintf (batch, w->uring ? "%d" : "-", w->batch);
      printf ("%-5s %7d %-9s %5s %9.4f %9.4f %9.4f %7.2f %9.4f\n",
              cold ? "cold" : "hot", w->threads,
              w->uring ? "io_uring" : "plain", batch, m, lo, hi, m / plain,
              bench_median (w->cpu, runs));
    }
}

int
main (int argc, char **argv)
{
  set_program_name (argv[0]);
  idx_t nfiles = 5000;
  int runs = 5;
  int batches[MAX_LIST] = { 16, 64 };
  int nbatches = 2;
  int nthreads[MAX_LIST] = { 1, 2 };
  int nthreadses = 2;
  bool cold = false;

  int c;
  while ((c = getopt_long (argc, argv, "", long_options, NULL)) != -1)
    switch (c)
      {
      case 'n':
        nfiles = bench_count (optarg, "number of files", 10000000);
        break;
      case 'r':
        runs = bench_count (optarg, "number of runs", MAX_RUNS);
        break;
      case 'b':
        nbatches = bench_counts (optarg, "batch size", 1024, batches,
                                 MAX_LIST);
        break;
      case 't':
        nthreadses = bench_counts (optarg, "number of threads", MAX_THREADS,
                                   nthreads, MAX_LIST);
        break;
      case 'c':
        cold = true;
        break;
      case 'h':
        usage (EXIT_SUCCESS);
      default:
        usage (EXIT_FAILURE);
      }
  char const *dir = bench_dir_operand (argc, argv, optind);
  if (cold && geteuid () != 0)
    error (EXIT_SKIP, 0, "--cold needs root, to drop the page cache");
#if HAVE_LIBURING
  bool direct = probe_uring ();
#else
  error (EXIT_SKIP, 0, "built without liburing: nothing to compare");
  bool direct = false;
#endif
  int top = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (top < 0)
    error (EXIT_FAILURE, errno, "cannot open %s", dir);
  struct tree t;
  make_tree (&t, top, nfiles);

  struct way ways[MAX_LIST * (MAX_LIST + 1)];
  int nways = 0;
  for (int k = 0; k < nthreadses; k++)
    {
      ways[nways++] = (struct way) { .uring = false,
                                     .threads = nthreads[k] };
      for (int b = 0; b < nbatches; b++)
        ways[nways++] = (struct way) { .uring = true,
                                       .threads = nthreads[k],
                                       .batch = batches[b] };
    }

  printf ("%td files in one directory, %d runs each, io_uring with %s\n",
          nfiles, runs, direct ? "direct descriptors" : "descriptors");
  printf ("%-5s %7s %-9s %5s %9s %9s %9s %7s %9s\n", "cache", "threads",
          "method", "batch", "median_s", "min_s", "max_s", "ratio",
          "cpu_s");
  measure (&t, top, ways, nways, runs, false);
  if (cold)
    measure (&t, top, ways, nways, runs, true);

  for (idx_t i = 0; i < t.n; i++)
    if (unlinkat (t.dirfd, t.names[i], 0) != 0)
      error (EXIT_FAILURE, errno, "cannot remove src/%s", t.names[i]);
  if (close (t.dirfd) != 0 || unlinkat (top, "src", AT_REMOVEDIR) != 0)
    error (EXIT_FAILURE, errno, "cannot remove src");
  free (t.names);
  free (t.sizes);
  return EXIT_SUCCESS;
}
