/* mpishim.c -- an LD_PRELOAD library that logs the messages an MPI
   program sends, for tests.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The tests of mpicp load this library into its ranks to wait for a
   state of the job rather than for a time: that a rank has asked
   another for work, that rank 0 has given a subtree away, that a rank
   has answered for one.  Such a state is a message sent, which shows
   nowhere outside the processes.  It is driven by the environment:

   MPISHIM_LOG    a file to which each message sent with MPI_Isend or
                  MPI_Send is appended, once the call has returned, as
                  a line "FROM TO TAG": the sender's rank in the job
                  (Open MPI's OMPI_COMM_WORLD_RANK), the destination's
                  and the tag, in decimal
   MPISHIM_PAUSE  "RANK TAG": once the process of rank RANK has sent a
                  message with tag TAG, and logged it, create the file
                  MPISHIM_FLAG and wait until it is removed (at most
                  15 minutes, longer than any test waits for a state;
                  giving up removes the flag and says so on standard
                  error) before returning; the first such message
                  only.  The other ranks go on meanwhile.

   The real calls are looked up with dlsym, so that the library has no
   undefined symbol and may be loaded into every process mpirun starts,
   as strace or a shell, which do not call MPI at all.  mpicp sends
   only on MPI_COMM_WORLD, so its rank there is the sender's.  */

#define _GNU_SOURCE 1

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int (*real_isend) (void const *, int, MPI_Datatype, int, int,
                          MPI_Comm, MPI_Request *);
static int (*real_send) (void const *, int, MPI_Datatype, int, int,
                         MPI_Comm);

static void *
next_symbol (char const *name)
{
  void *sym = dlsym (RTLD_NEXT, name);
  if (!sym)
    {
      static char const msg[] = "mpishim: an MPI symbol is missing\n";
      if (write (STDERR_FILENO, msg, sizeof msg - 1) < 0)
        _exit (99);
      _exit (99);
    }
  return sym;
}

static int
my_rank (void)
{
  char const *s = getenv ("OMPI_COMM_WORLD_RANK");
  return s ? atoi (s) : -1;
}

/* Append the line for a message to DEST with TAG to the log.  */
static void
log_send (int dest, int tag)
{
  char const *log = getenv ("MPISHIM_LOG");
  if (!log)
    return;
  int saved_errno = errno;
  int fd = open (log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (0 <= fd)
    {
      char line[64];
      int n = snprintf (line, sizeof line, "%d %d %d\n", my_rank (), dest,
                        tag);
      /* One write, so that the lines of several ranks never mix.  */
      if (write (fd, line, n) < 0)
        n = 0;
      close (fd);
    }
  errno = saved_errno;
}

/* If MPISHIM_PAUSE names this rank and TAG, and this is its first such
   message, signal it through MPISHIM_FLAG and wait for the test.  */
static void
maybe_pause (int tag)
{
  static bool paused;
  char const *spec = getenv ("MPISHIM_PAUSE");
  char const *flag = getenv ("MPISHIM_FLAG");
  int want_rank, want_tag;
  if (paused || !spec || !flag
      || sscanf (spec, "%d %d", &want_rank, &want_tag) != 2
      || want_rank != my_rank () || want_tag != tag)
    return;
  paused = true;
  int saved_errno = errno;
  enum { PAUSE_MAX = 15 * 60 };
  int fd = open (flag, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (0 <= fd)
    close (fd);
  for (int i = 0; i < PAUSE_MAX * 20; i++)
    {
      if (access (flag, F_OK) != 0)
        {
          errno = saved_errno;
          return;
        }
      struct timespec ts = { 0, 50 * 1000 * 1000 };
      nanosleep (&ts, NULL);
    }
  /* The order the test forces is lost: the test must not pass as if
     it had held.  */
  char line[4200];
  int n = snprintf (line, sizeof line,
                    "mpishim: %s not removed after %d s; going on\n",
                    flag, PAUSE_MAX);
  if (sizeof line <= (size_t) n)
    n = sizeof line - 1;
  if (write (STDERR_FILENO, line, n) < 0)
    n = 0;
  unlink (flag);
  errno = saved_errno;
}

int
MPI_Isend (void const *buf, int count, MPI_Datatype type, int dest, int tag,
           MPI_Comm comm, MPI_Request *req)
{
  if (!real_isend)
    real_isend = next_symbol ("MPI_Isend");
  int r = real_isend (buf, count, type, dest, tag, comm, req);
  log_send (dest, tag);
  maybe_pause (tag);
  return r;
}

int
MPI_Send (void const *buf, int count, MPI_Datatype type, int dest, int tag,
          MPI_Comm comm)
{
  if (!real_send)
    real_send = next_symbol ("MPI_Send");
  int r = real_send (buf, count, type, dest, tag, comm);
  log_send (dest, tag);
  maybe_pause (tag);
  return r;
}
