/* mpi-cp.c -- mpicp: cp's walk shared by the ranks of an MPI job.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Every rank parses the same command line.  Rank 0 then runs cp's
   walk, sending files and giving subtrees to the other ranks through
   copy-remote.h; the others run serve, copying what they are sent
   with cp's own code and answering.  doc/mpicp.texi says what the
   user sees, doc/HACKING how the ranks talk; mpicp.h lists the parts
   of a rank, of which this is the front end: MPI's start and end, the
   loop of the ranks other than 0, and the functions copy.c calls.  */

#include <config.h>

#include "system.h"
#include "mpicp-work.h"
#include "remote.h"

#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>

/* This process's part of the job, which remote_init makes: one per
   process, and the one state of mpicp's kept in the process rather
   than passed.  remote.h's calls, which cp.c makes knowing nothing of
   mpicp, and atexit's handler, which takes no argument, find it here;
   every other function is given it.  */
static struct remote_job *rank_job;

/* Rank 0 sends files to the ranks as its walk meets them.  */
static struct copy_remote_ops const rank0_ops =
  {
    .send = mpicp_send_file,
    .wait = mpicp_wait_answer,
    .give = mpicp_give_subtree,
    .poll = mpicp_serve_ranks,
    .first_copy = mpicp_first_copy,
    .first_done = mpicp_first_done
  };

/* A rank given a subtree copies its files itself, but for the files,
   ranges of large ones and subdirectories that it gives ranks asking
   for work.  */
static struct copy_remote_ops const subtree_ops =
  {
    .send = mpicp_give_file,
    .wait = mpicp_wait_answer,
    .give = mpicp_give_subtree,
    .poll = mpicp_serve_ranks,
    .first_copy = mpicp_first_copy,
    .first_done = mpicp_first_done
  };

/* Tell every other rank to stop.  */
static void
stop_ranks (struct remote_job *j)
{
  for (int r = 1; r < j->n_ranks; r++)
    MPI_Send (NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
  j->serving = false;
}

/* Send J's rank's standard output and error to /dev/null while it
   parses the command line: rank 0 says all there is to say about it,
   --help and --version included, once.  */
static void
silence_output (struct remote_job *j)
{
  j->saved_out = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  j->saved_err = fcntl (STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
  int null = open ("/dev/null", O_WRONLY);
  if (j->saved_out < 0 || j->saved_err < 0 || null < 0
      || dup2 (null, STDOUT_FILENO) < 0 || dup2 (null, STDERR_FILENO) < 0)
    error (EXIT_FAILURE, errno, _("cannot redirect rank %d's output"),
           j->rank);
  /* Closing a descriptor of /dev/null can't lose anything.  */
  close (null);
}

static void
restore_output (struct remote_job *j)
{
  if (dup2 (j->saved_out, STDOUT_FILENO) < 0
      || dup2 (j->saved_err, STDERR_FILENO) < 0)
    error (EXIT_FAILURE, errno, _("cannot restore rank %d's output"),
           j->rank);
  /* The copies were kept only to be put back.  */
  close (j->saved_out);
  close (j->saved_err);
}

/* Leave MPI whichever way the process exits.  A rank that exits while
   files are in flight, to it or from it, aborts the job: what was
   being copied is left as an interrupted cp would leave it.  */
static void
remote_exit (void)
{
  struct remote_job *j = rank_job;
  int done;
  MPI_Finalized (&done);
  if (done)
    return;
  if (j->serving && (j->rank != 0 || j->slots.in_flight || j->handouts.out))
    MPI_Abort (MPI_COMM_WORLD, EXIT_FAILURE);
  if (j->serving)
    {
      stop_ranks (j);
      mpicp_rounds_end (j);
    }
  MPI_Finalize ();
}

/* Make RANK, other than 0, ignore SIGUSR1, whose default action would
   end it and so the whole job: the line the signal asks for is rank
   0's, which counts what every rank copied, and a USR1 sent to every
   process of the job, or forwarded by mpirun, must not cost the copy.  */
static void
ignore_info_signal (int rank)
{
  struct sigaction act = { .sa_handler = SIG_IGN };
  sigemptyset (&act.sa_mask);
  if (sigaction (SIGUSR1, &act, NULL) != 0)
    error (EXIT_FAILURE, errno, _("cannot ignore SIGUSR1 on rank %d"), rank);
}

/* Open MPI gives the CPU away (sched_yield) at every look for a
   message that finds none when there are more ranks than CPUs, which
   is right for a program that waits inside MPI; mpicp looks between
   two entries of its walk and sleeps on its own when idle, and so gave
   the CPU away a dozen times per file copied: a tree of 12,000 files
   took 0.54 s on 4 ranks and 2 CPUs instead of 0.43 s.  Unless the
   user set it, tell Open MPI not to; other MPIs ignore the
   variable.  */
static void
keep_cpu_when_looking (void)
{
  if (setenv ("OMPI_MCA_mpi_yield_when_idle", "0", 0) != 0)
    error (EXIT_FAILURE, errno, _("cannot set the environment"));
}

/* Turn Nagle's algorithm off on the TCP socket FD, if it is one.  */
static void
send_at_once (int fd)
{
  int type;
  socklen_t len = sizeof type;
  if (getsockopt (fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0
      || type != SOCK_STREAM)
    return;
  struct sockaddr_storage addr;
  len = sizeof addr;
  if (getsockname (fd, (struct sockaddr *) &addr, &len) != 0
      || ! (addr.ss_family == AF_INET || addr.ss_family == AF_INET6))
    return;
  int on = 1;
  /* A socket that refuses costs only the time it cost before.  */
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

/* Call DOIT (FD, ARG) for each descriptor FD open now above the
   standard ones, as /proc lists them; return false, calling nothing,
   if /proc can't list them.  */
static bool
each_open_fd (void (*doit) (int, void *), void *arg)
{
  DIR *dirp = opendir ("/proc/self/fd");
  if (!dirp)
    return false;
  struct dirent *e;
  while ((e = readdir (dirp)))
    {
      char *end;
      long fd = strtol (e->d_name, &end, 10);
      if (end != e->d_name && !*end && STDERR_FILENO < fd && fd <= INT_MAX
          && fd != dirfd (dirp))
        doit (fd, arg);
    }
  closedir (dirp);
  return true;
}

/* The descriptors open before MPI_Init: those mpicp inherited, which
   are not the runtime's.  */
struct fd_list
{
  int *fd;
  idx_t n;
  idx_t alloc;
};

static void
fd_list_add (int fd, void *arg)
{
  struct fd_list *l = arg;
  if (l->n == l->alloc)
    l->fd = xpalloc (l->fd, &l->alloc, 1, -1, sizeof *l->fd);
  l->fd[l->n++] = fd;
}

/* Turn Nagle's algorithm off on FD, a TCP socket, unless it is in the
   list ARG of those inherited.  */
static void
send_at_once_if_new (int fd, void *arg)
{
  struct fd_list const *inherited = arg;
  for (idx_t i = 0; i < inherited->n; i++)
    if (inherited->fd[i] == fd)
      return;
  send_at_once (fd);
}

/* Open MPI's runtime (PMIx) talks to mpirun over a TCP connection on
   the loopback with Nagle's algorithm on, so at MPI_Finalize a rank's
   second small message waits for mpirun's delayed acknowledgement of
   the first: 40 ms on Linux, which made a copy of a 12,000-file tree
   on 4 ranks take a fifth longer.  MPI_Init has made the connection,
   and mpicp makes none of its own, so the TCP sockets open now that
   were not before MPI_Init (INHERITED) are the runtime's.  A socket
   inherited is the caller's, as when mpicp runs without mpirun, and
   its options are not mpicp's to change.  The open descriptors are
   listed in /proc; where there is none, the copy just ends as late as
   before.  */
static void
runtime_without_delay (struct fd_list const *inherited)
{
  each_open_fd (send_at_once_if_new, (void *) inherited);
}

/* Set *COMM to a duplicate of MPI_COMM_WORLD, as mpicp_idle_until would
   wait, but with nothing to serve yet: the ranks leave MPI_Init one
   after another when there are more of them than CPUs, and those out
   first spun in MPI_Comm_dup on the CPUs the others needed to finish
   starting, which made mpirun -np 4 take 0.14 to 0.19 s on 2 CPUs
   instead of 0.12 s.  */
static void
dup_world (MPI_Comm *comm)
{
  MPI_Request req;
  MPI_Comm_idup (MPI_COMM_WORLD, comm, &req);
  long pause = MPICP_PAUSE_MIN_NS;
  while (!mpicp_request_done (&req))
    mpicp_pause_longer (&pause);
}

void
remote_init (int *argc, char ***argv)
{
  struct remote_job *j = xmalloc (sizeof *j);
  *j = (struct remote_job) { .asker = { .rank = -1 },
                             .help = { .asked = -1 },
                             .on_link_message = mpicp_handle_link_message,
                             .open_dirs = { { .fd = -1 }, { .fd = -1 } },
                             .saved_out = -1, .saved_err = -1 };
  keep_cpu_when_looking ();
  struct fd_list inherited = { NULL, 0, 0 };
  bool listed = each_open_fd (fd_list_add, &inherited);
  MPI_Init (argc, argv);
  /* Without a list of what was inherited, none can be told from the
     runtime's.  */
  if (listed)
    runtime_without_delay (&inherited);
  free (inherited.fd);
  MPI_Comm_rank (MPI_COMM_WORLD, &j->rank);
  MPI_Comm_size (MPI_COMM_WORLD, &j->n_ranks);
  dup_world (&j->rounds.comm);
  mpicp_rounds_init (&j->rounds, j->n_ranks);
  rank_job = j;
  atexit (remote_exit);
  if (j->rank != 0)
    {
      ignore_info_signal (j->rank);
      silence_output (j);
    }
}

/* The sink of a rank other than 0, which counts what it copies for
   the rounds.  */
static struct remote_job *
sink_job (struct xfer_sink *sink)
{
  return (struct remote_job *) ((char *) sink
                                - offsetof (struct remote_job, sink));
}

static void
rank_begin (struct xfer_sink *sink)
{
}

static void
rank_bytes (struct xfer_sink *sink, off_t n)
{
  struct remote_job *j = sink_job (sink);
  j->rounds.copied.bytes += n;
  /* A file may take long to copy, and rank 0 would show none of it
     until the next look for messages.  */
  mpicp_round_poll (j);
}

static void
rank_skipped (struct xfer_sink *sink, off_t n)
{
  sink_job (sink)->rounds.copied.skipped += n;
}

static void
rank_left (struct xfer_sink *sink, off_t n)
{
  sink_job (sink)->rounds.copied.left += n;
}

static void
rank_read_back (struct xfer_sink *sink, off_t n)
{
  struct remote_job *j = sink_job (sink);
  j->rounds.copied.read_back += n;
  mpicp_round_poll (j);
}

static void
rank_end (struct xfer_sink *sink, struct xfer_report const *report,
          bool ok)
{
  if (ok)
    xfer_counts_file (&sink_job (sink)->rounds.copied, report);
}

/* The rank of J's job an idle rank asks for work after RANK refused:
   each other rank in turn, from rank 0, which walks from the start.  */
static int
next_to_ask (struct remote_job const *j, int rank)
{
  rank = (rank + 1) % j->n_ranks;
  return rank == j->rank ? (rank + 1) % j->n_ranks : rank;
}

/* On a rank other than 0: ask the others for work while it has none,
   copy the files and ranges sent to it and the subtrees given, until
   rank 0 says to stop, then sync what it wrote and exit.  */
static _Noreturn void
serve (struct remote_job *j)
{
  j->serving = true;
  int asked_rank = 0;
  bool asked = false;
  long pause = MPICP_PAUSE_MIN_NS;
  for (;;)
    {
      if (!asked)
        {
          mpicp_send_empty (j, asked_rank, TAG_STEAL);
          asked = true;
        }
      MPI_Status status;
      mpicp_await_message (j, MPI_ANY_SOURCE, MPI_ANY_TAG, &status);
      int from = status.MPI_SOURCE;
      if (mpicp_is_link_tag (status.MPI_TAG))
        {
          mpicp_handle_link_message (j, &status);
          continue;
        }
      if (status.MPI_TAG == TAG_STEAL || status.MPI_TAG == TAG_HELP)
        {
          mpicp_receive_empty (&status);
          mpicp_send_empty (j, from, TAG_NOWORK);
          continue;
        }
      if (status.MPI_TAG == TAG_NOWORK)
        {
          mpicp_receive_empty (&status);
          asked = false;
          asked_rank = next_to_ask (j, asked_rank);
          if (asked_rank == 0)
            {
              xtime_t start = gethrxtime ();
              mpicp_pause_longer (&pause);
              j->rounds.copied.waited_ns += gethrxtime () - start;
            }
          continue;
        }
      if (status.MPI_TAG == TAG_STOP)
        {
          mpicp_receive_empty (&status);
          break;
        }
      if (status.MPI_TAG != TAG_TASK)
        mpicp_malformed (from);
      int n;
      char *buf = mpicp_receive (&status, &n);
      pause = MPICP_PAUSE_MIN_NS;
      bool answers_request;
      mpicp_answer_task (j, buf, n, from, &answers_request);
      if (answers_request)
        asked = false;
      free (buf);
    }
  /* Every question was answered before rank 0 said to stop, but MPI
     must see each send through before the process ends.  */
  mpicp_idle_until (j, mpicp_replies_gone, &j->replies);
  mpicp_rounds_end (j);
  mpicp_close_dirs (j->open_dirs);
  j->serving = false;
  /* What this rank wrote is its to sync (--fsync): rank 0 may not
     share its file systems, and mpirun fails if this rank does.  */
  exit (copy_session_sync (j->session, j->opts)
        ? EXIT_SUCCESS : EXIT_FAILURE);
}

struct copy_remote const *
remote_start (struct cp_options *x)
{
  struct remote_job *j = rank_job;
  j->opts = x;
  /* A rank answers for each file with its check done, and the first
     prints the line of a file another rank copied when it is
     answered: none is left for later.  */
  x->verify_later = false;
  if (j->rank != 0)
    {
      restore_output (j);
      if (x->print_hash)
        copy_hash_hold (x);
      j->sink = (struct xfer_sink) { rank_begin, rank_bytes, rank_skipped,
                                     rank_end, rank_left, rank_read_back };
      x->xfer.sink = &j->sink;
      j->rounds.on = true;
      j->remote = (struct copy_remote) { &subtree_ops, j };
      j->session = copy_session_new (x, &j->remote);
      serve (j);
    }
  if (j->n_ranks < 2)
    return NULL;
  j->rounds.on = true;
  mpicp_slots_init (&j->slots, j->n_ranks);
  j->serving = true;
  x->jobs = 1;
  j->remote = (struct copy_remote) { &rank0_ops, j };
  return &j->remote;
}

void
remote_session (struct copy_session *s)
{
  rank_job->session = s;
}

void
remote_finish (void)
{
  struct remote_job *j = rank_job;
  if (j->serving)
    {
      while (j->slots.in_flight || j->handouts.out)
        mpicp_wait_answer (j);
      mpicp_idle_until (j, mpicp_replies_gone, &j->replies);
      stop_ranks (j);
      mpicp_rounds_end (j);
      mpicp_close_dirs (j->open_dirs);
    }
  xfer_session_share (&j->opts->xfer, j->rounds.copied.waited_ns,
                      j->rounds.copied.steals);
  xfer_session_ranks (&j->opts->xfer, j->rounds.counts + 1, j->n_ranks - 1);
}
