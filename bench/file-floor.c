/* file-floor -- the least a copy of small files can cost per file, with
   and without the calls that keep what cp -a keeps.

   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Issue 46 compares cp -a --jobs with copiers that keep only data and
   modes.  This program measures what that difference can be at best:
   it copies a directory of 1 KiB files with nothing but the system
   calls each way needs, with no walk, no queue and no bookkeeping, and
   each thread into a directory of its own, so that no two threads
   create files in one directory.

   - data: openat, fstat, openat O_CREAT|O_EXCL, copy_file_range (read
     and write where the kernel cannot), close, close;
   - cp -a: the same, and flistxattr of the source and futimens of the
     copy, which cp -a needs for every file of a tree with no
     extended attributes, no other owner and no hard links.

   With --unshare each thread first takes a descriptor table of its
   own, as cpz's threads do, to measure what sharing one costs.

   Each way runs with each number of threads, round robin; the copies
   of a run are removed, untimed, before the next.  It prints the
   median, min and max microseconds per file of wall time, and the
   ratio of cp -a's median to data's with as many threads.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "bench-util.h"
#include "error.h"
#include "progname.h"

enum { FILE_SIZE = 1024, MAX_RUNS = 101, MAX_THREADS = 64, MAX_LIST = 8 };

enum way { WAY_DATA, WAY_CP_A, WAYS };
static char const *const way_name[WAYS] = { "data", "cp-a" };

/* What one copying thread does in one run: the files whose index is
   ID modulo NTHREADS, from SRC into its own directory DST.  */
struct job
{
  int src;
  int dst;
  enum way way;
  long files;
  int id;
  int nthreads;
  bool unshare;			/* take a descriptor table of its own */
  int err;			/* the first errno met, or 0 */
};

static void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    bench_try_help ();
  printf ("Usage: %s [OPTION]... DIR\n"
          "Time the system calls alone of copying small files in DIR,\n"
          "with and without those that keep times and extended\n"
          "attributes; print microseconds per file and their ratio.\n"
          "\n"
          "      --files=N      how many 1 KiB files (default 20000)\n"
          "      --runs=N       runs of each way (default 5)\n"
          "      --threads=LIST comma-separated thread counts"
          " (default 1,2)\n"
          "      --unshare      give each thread a descriptor table of"
          " its own\n"
          "      --help         display this help and exit\n",
          program_name);
  exit (status);
}

/* Copy the data of SRC to DST, to the end; return 0 or an errno
   value.  */
static int
copy_data (int src, int dst)
{
  ssize_t n;
  while (0 < (n = copy_file_range (src, NULL, dst, NULL, FILE_SIZE, 0)))
    continue;
  if (n == 0)
    return 0;
  char buf[FILE_SIZE];
  while (0 < (n = read (src, buf, sizeof buf)))
    if (write (dst, buf, n) != n)
      return errno ? errno : EIO;
  return n < 0 ? errno : 0;
}

/* Copy the file NAME of J's source directory to its directory, as J's
   way says; return 0 or an errno value.  */
static int
copy_one (struct job const *j, char const *name)
{
  int err = 0;
  int s = openat (j->src, name, O_RDONLY | O_NOFOLLOW | O_NOCTTY);
  if (s < 0)
    return errno;
  struct stat st;
  int d = -1;
  if (fstat (s, &st) != 0)
    err = errno;
  else if ((d = openat (j->dst, name, O_WRONLY | O_CREAT | O_EXCL,
                        st.st_mode & 0777)) < 0)
    err = errno;
  else
    {
      err = copy_data (s, d);
      if (!err && j->way == WAY_CP_A)
        {
          struct timespec times[2] = { st.st_atim, st.st_mtim };
          if (flistxattr (s, NULL, 0) < 0 && errno != ENOTSUP)
            err = errno;
          else if (futimens (d, times) != 0)
            err = errno;
        }
    }
  if (0 <= d && close (d) != 0 && !err)
    err = errno;
  close (s);
  return err;
}

static void *
run_job (void *arg)
{
  struct job *j = arg;
#if HAVE_UNSHARE
  if (j->unshare && unshare (CLONE_FILES) != 0)
    {
      j->err = errno;
      return NULL;
    }
#endif
  char name[32];
  for (long i = j->id; i < j->files && !j->err; i += j->nthreads)
    {
      snprintf (name, sizeof name, "f%ld", i);
      j->err = copy_one (j, name);
    }
  return NULL;
}

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

/* Make the directory NAME in DIRFD and open it.  */
static int
make_dir (int dirfd, char const *name)
{
  if (mkdirat (dirfd, name, 0700) != 0 && errno != EEXIST)
    error (EXIT_FAILURE, errno, "cannot make %s", name);
  int fd = openat (dirfd, name, O_RDONLY | O_DIRECTORY);
  if (fd < 0)
    error (EXIT_FAILURE, errno, "cannot open %s", name);
  return fd;
}

/* Remove the files of the directory NAME in DIRFD, whose index is ID
   modulo NTHREADS, and the directory.  */
static void
remove_copy (int dirfd, char const *name, long files, int id, int nthreads)
{
  int fd = openat (dirfd, name, O_RDONLY | O_DIRECTORY);
  if (fd < 0)
    error (EXIT_FAILURE, errno, "cannot open %s", name);
  char f[32];
  for (long i = id; i < files; i += nthreads)
    {
      snprintf (f, sizeof f, "f%ld", i);
      if (unlinkat (fd, f, 0) != 0 && errno != ENOENT)
        error (EXIT_FAILURE, errno, "cannot remove %s/%s", name, f);
    }
  close (fd);
  if (unlinkat (dirfd, name, AT_REMOVEDIR) != 0)
    error (EXIT_FAILURE, errno, "cannot remove %s", name);
}

/* Copy FILES files of SRC into new directories of TOP with NTHREADS
   threads in WAY; return the seconds it took.  */
static double
time_run (int top, int src, long files, int nthreads, enum way way,
          bool unshare)
{
  struct job jobs[MAX_THREADS];
  pthread_t tids[MAX_THREADS];
  char name[32];
  for (int t = 0; t < nthreads; t++)
    {
      snprintf (name, sizeof name, "copy%d", t);
      jobs[t] = (struct job) { src, make_dir (top, name), way, files, t,
                               nthreads, unshare, 0 };
    }
  double start = now ();
  for (int t = 0; t < nthreads; t++)
    {
      int err = pthread_create (&tids[t], NULL, run_job, &jobs[t]);
      if (err)
        error (EXIT_FAILURE, err, "cannot start a thread");
    }
  for (int t = 0; t < nthreads; t++)
    pthread_join (tids[t], NULL);
  double took = now () - start;
  for (int t = 0; t < nthreads; t++)
    {
      if (jobs[t].err)
        error (EXIT_FAILURE, jobs[t].err, "cannot copy");
      close (jobs[t].dst);
      snprintf (name, sizeof name, "copy%d", t);
      remove_copy (top, name, files, t, nthreads);
    }
  return took;
}

/* Make FILES files of FILE_SIZE bytes in the new directory SRC of
   TOP; return it open.  */
static int
make_source (int top, long files)
{
  int src = make_dir (top, "src");
  char buf[FILE_SIZE];
  memset (buf, 'x', sizeof buf);
  char name[32];
  for (long i = 0; i < files; i++)
    {
      snprintf (name, sizeof name, "f%ld", i);
      int fd = openat (src, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || write (fd, buf, sizeof buf) != sizeof buf
          || close (fd) != 0)
        error (EXIT_FAILURE, errno, "cannot make src/%s", name);
    }
  return src;
}

int
main (int argc, char **argv)
{
  set_program_name (argv[0]);
  long files = 20000;
  int runs = 5;
  int threads[MAX_LIST] = { 1, 2 };
  int nthreads_list = 2;
  bool unshare = false;
  static struct option const longopts[] = {
    { "files", required_argument, NULL, 'f' },
    { "runs", required_argument, NULL, 'r' },
    { "threads", required_argument, NULL, 't' },
    { "unshare", no_argument, NULL, 'u' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  int c;
  while ((c = getopt_long (argc, argv, "", longopts, NULL)) != -1)
    switch (c)
      {
      case 'f':
        files = bench_count (optarg, "number of files", 10000000);
        break;
      case 'r':
        runs = bench_count (optarg, "number of runs", MAX_RUNS);
        break;
      case 't':
        nthreads_list = bench_counts (optarg, "number of threads",
                                      MAX_THREADS, threads, MAX_LIST);
        break;
      case 'u':
#if HAVE_UNSHARE
        unshare = true;
        break;
#else
        error (EXIT_FAILURE, 0, "--unshare is not supported on this system");
#endif
      case 'h': usage (EXIT_SUCCESS);
      default: usage (EXIT_FAILURE);
      }
  char const *dir = bench_dir_operand (argc, argv, optind);
  int top = open (dir, O_RDONLY | O_DIRECTORY);
  if (top < 0)
    error (EXIT_FAILURE, errno, "cannot open %s", dir);
  int src = make_source (top, files);

  static double times[MAX_LIST][WAYS][MAX_RUNS];
  for (int r = 0; r < runs; r++)
    for (int i = 0; i < nthreads_list; i++)
      for (int w = 0; w < WAYS; w++)
        times[i][w][r] = time_run (top, src, files, threads[i], w,
                                    unshare);

  printf ("%ld files of %d bytes, %d runs each%s; microseconds of wall"
          " time per file\n", files, FILE_SIZE, runs,
          unshare ? ", a descriptor table per thread" : "");
  printf ("threads way    median_us    min_us    max_us   ratio\n");
  for (int i = 0; i < nthreads_list; i++)
    {
      double data = bench_median (times[i][WAY_DATA], runs);
      for (int w = 0; w < WAYS; w++)
        {
          double const *v = times[i][w];
          double lo = v[0], hi = v[0];
          for (int r = 1; r < runs; r++)
            {
              lo = v[r] < lo ? v[r] : lo;
              hi = hi < v[r] ? v[r] : hi;
            }
          double m = bench_median (v, runs);
          printf ("%7d %-5s %11.2f %9.2f %9.2f %7.2f\n", threads[i],
                  way_name[w], m * 1e6 / files, lo * 1e6 / files,
                  hi * 1e6 / files, m / data);
        }
    }

  close (src);
  remove_copy (top, "src", files, 0, 1);
  return EXIT_SUCCESS;
}
