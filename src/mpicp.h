/* mpicp.h -- the state of a rank of mpicp, shared by its parts.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* mpicp's rank is split in parts, each with its own piece of the
   state, which the functions are given explicitly:

   mpi-cp.c        the front end: MPI's start and end, the loop of a
                   rank other than 0, and what copy.c calls
   mpicp-comm.c    messages: looks, waits, sends, and the statistics'
                   rounds (struct replies, struct rounds)
   mpicp-work.c    files, ranges and subtrees sent and answered
                   (struct slots, struct gifts, struct feeding,
                   struct help, struct held_dir)
   mpicp-links.c   hard links kept across ranks (struct links)
   mpicp-proto.c   the messages' bytes

   doc/HACKING describes the protocol.  */

#ifndef CPDD_MPICP_H
#define CPDD_MPICP_H

#include <mpi.h>

#include "copy-remote.h"
#include "gethrxtime.h"
#include "hash.h"
#include "mpicp-proto.h"
#include "xfer.h"
#include "xfer-progress.h"
#include "xfer-range.h"

/* Files sent to one rank and not answered yet, at most: enough that
   it finds its next file waiting when one is done, few enough that
   rank 0's memory and MPI's queues stay small.  */
enum { SLOTS_PER_RANK = 4 };

/* How long a rank with nothing to do sleeps between looks for a
   message: short at first, as an answer often follows soon, then
   longer, up to a bound that keeps the delay small beside a file's
   copy.  */
enum { PAUSE_MIN_NS = 20 * 1000, PAUSE_MAX_NS = 1000 * 1000 };

/* On rank 0, a file or range sent and not answered yet; on any rank,
   a subtree, file or range given to a rank that asked for work.  */
struct slot
{
  void *token;			/* the walk's, or NULL while free */
  intmax_t range;		/* the range sent, or -1: the whole file
                                   or a subtree */
  MPI_Request req;
  char *buf;			/* the message, until it is sent */
};

/* On rank 0: SLOTS_PER_RANK slots for each rank from 1 on, how many
   each has in use, and in all; where the next file goes when the
   ranks are equally busy; and how many subtrees it gave each rank
   that are not answered yet: a rank walking one takes the files sent
   to it only when its walk waits, or once it is done.  */
struct slots
{
  struct slot *slot;
  int *busy;
  int in_flight;
  int next_rank;
  int *walking;
};

/* What this rank gave ranks that asked it for work, not answered
   yet, by slot; how many slots there are, and how many in use.  */
struct gifts
{
  struct slot *slot;
  idx_t n;
  int out;
};

/* On a rank given a subtree: the rank that asked it for work and is
   being sent files, -1 if none; whether it asked while waiting, and
   so takes no subtree; and how many more it is sent before the last,
   which answers its request.  */
struct feeding
{
  int to;
  bool waiting;
  int left;
};

/* The rank that this one, waiting for answers, asked for files to
   copy meanwhile, -1 if none; and the last one it asked.  */
struct help
{
  int asked;
  int last;
};

/* Replies to questions about links, and answers about files and
   ranges, on their way (send_later says why nothing waits for them).  */
struct reply
{
  MPI_Request req;
  char *msg;
};

struct replies
{
  struct reply *r;
  idx_t n;
  idx_t alloc;
};

/* The statistics' rounds, which bring what every rank copied to rank
   0's --progress, SIGUSR1 line and --stats (mpicp-comm.c says how).  */
struct rounds
{
  MPI_Comm comm;		/* a communicator for them alone */
  MPI_Request req;		/* the round in flight, if any */
  bool on;			/* whether this rank starts rounds */
  int started;
  xtime_t next;			/* when it may start the next */
  char *mine;			/* its figures packed, in flight */
  char *all;			/* every rank's packed, as they come */
  struct xfer_counts *counts;	/* every rank's, of the last round
                                   that ended; rank 0's are zeros */
  struct xfer_counts copied;	/* what this rank copied, as its sink
                                   counts it, on the ranks but 0 */
};

/* Hard links across ranks: the files this rank owns (struct owned,
   mpicp-links.c), and, on a rank that asked an owner about a file,
   whether the owner answered, and with which name to link to (NULL:
   copy it).  */
struct links
{
  Hash_table *owned;
  bool answered;
  char *target;
};

/* An open directory of a rank copying files sent to it, kept for the
   next file in it, as the walk sends a directory's files one after
   another.  */
struct held_dir
{
  int fd;
  dev_t dev;
  ino_t ino;
};

/* A rank's whole part of the job: what copy-remote.h declares, for
   the copy to hand back to the operations mpi-cp.c gives it.  */
struct remote_job
{
  int rank;
  int n_ranks;
  bool serving;			/* whether the ranks but 0 wait for files,
                                   until rank 0 stops them */
  bool serving_now;		/* within serve_ranks */
  bool idling;			/* within idle_until */
  struct cp_options const *opts; /* whose sink counts what it copies */
  struct copy_remote remote;	/* this job and its operations, as the
                                   copy is given them */
  struct copy_session *session;	/* what a rank but 0 copies in */
  struct slots slots;
  struct gifts gifts;
  struct feeding feeding;
  struct help help;
  struct replies replies;
  struct rounds rounds;
  struct links links;
  struct held_dir held[2];	/* the source's, then the copy's */
  struct xfer_sink sink;	/* counts into ROUNDS.copied, on the ranks
                                   but 0 */
  int saved_out;		/* the standard output and error, while */
  int saved_err;		/* the ranks but 0's go nowhere */
};

/* mpicp-comm.c */
_Noreturn void malformed (int from);
int message_size (size_t n, char const *name);
bool probe (int source, int tag, MPI_Status *status);
bool message_there (int tag, MPI_Status *status);
char *take_message (MPI_Status const *status, int *n);
void take_empty (MPI_Status const *status);
void send_later (struct replies *replies, char *msg, int n, int to, int tag);
bool replies_gone (void *replies);
void pause_longer (long *pause);
void serve_ranks (struct remote_job *j);
void idle_until (struct remote_job *j, bool (*ready) (void *), void *arg);
void await_message (struct remote_job *j, int source, int tag,
                    MPI_Status *status);
bool request_done (void *req);
void await_request (struct remote_job *j, MPI_Request *req);
void send_now (struct remote_job *j, void const *buf, int n, int to, int tag);
void send_empty (struct remote_job *j, int to, int tag);
void rounds_init (struct rounds *rounds, int n_ranks);
void round_poll (struct remote_job *j);
void rounds_end (struct remote_job *j);

/* mpicp-links.c */
bool link_tag (int tag);
void take_link_message (struct remote_job *j, MPI_Status const *status);
char *first_copy (struct remote_job *j, struct stat const *src_st,
                  char const *dst_name);
void first_done (struct remote_job *j, struct stat const *src_st, bool ok);

/* mpicp-work.c */
void slots_init (struct slots *slots, int n_ranks);
bool send_file (struct remote_job *j, struct remote_file const *f);
bool give_subtree (struct remote_job *j, struct remote_dir const *d);
bool give_file (struct remote_job *j, struct remote_file const *f);
void wait_answer (struct remote_job *j);
void refuse_help (struct remote_job *j);
void answer_task (struct remote_job *j, char const *buf, int n, int from,
                  bool *answers_request);
void close_held_dirs (struct held_dir held[2]);

#endif /* CPDD_MPICP_H */
