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
                   rounds (struct mpicp_replies, struct mpicp_rounds)
   mpicp-work.c    files, ranges and subtrees sent and answered
                   (struct mpicp_slots, struct mpicp_handouts,
                   struct mpicp_asker, struct mpicp_help,
                   struct mpicp_open_dir)
   mpicp-links.c   hard links kept across ranks (struct mpicp_links)
   mpicp-proto.c   the messages' bytes

   This header holds the state; each part but the front end declares
   its functions in a header of its own (mpicp-comm.h, mpicp-links.h,
   mpicp-work.h), and calls only the parts before it in that list.
   doc/HACKING describes the protocol, and defines its terms: task,
   slot, handout, asker, steal and help.  */

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
enum { MPICP_SLOTS_PER_RANK = 4 };

/* How long a rank with nothing to do sleeps between looks for a
   message: short at first, as an answer often follows soon, then
   longer, up to a bound that keeps the delay small beside a file's
   copy.  */
enum { MPICP_PAUSE_MIN_NS = 20 * 1000, MPICP_PAUSE_MAX_NS = 1000 * 1000 };

/* On rank 0, a file or range sent and not answered yet; on any rank,
   a subtree, file or range given to a rank that asked for work.  */
struct mpicp_slot
{
  void *token;			/* the walk's, or NULL while free */
  intmax_t range;		/* the range sent, or -1: the whole file
                                   or a subtree */
  MPI_Request req;
  char *buf;			/* the message, until it is sent */
};

/* On rank 0: MPICP_SLOTS_PER_RANK slots for each rank from 1 on, how
   many each has in use, and in all; where the next file goes when the
   ranks are equally busy; and how many subtrees it gave each rank that
   are not answered yet: a rank walking one takes the files sent to it
   only when its walk waits, or once it is done.  */
struct mpicp_slots
{
  struct mpicp_slot *slot;
  int *busy;
  int in_flight;
  int next_rank;
  int *walking;
};

/* The handouts of this rank not answered yet, by slot: the subtrees,
   files and ranges it gave ranks that asked it for work.  How many
   slots there are, and how many in use.  */
struct mpicp_handouts
{
  struct mpicp_slot *slot;
  idx_t n;
  int out;
};

/* On a rank given a subtree, its asker: the rank that asked it for
   work and is being sent files, -1 if none; whether it asked while
   waiting, and so takes no subtree; and how many more it is sent
   before the last, which answers its request.  */
struct mpicp_asker
{
  int rank;
  bool waiting;
  int left;
};

/* The rank that this one, waiting for answers, asked for files to
   copy meanwhile, -1 if none; and the last one it asked.  */
struct mpicp_help
{
  int asked;
  int last;
};

/* Replies to questions about links, and answers about files and ranges,
   on their way (mpicp_send_later says why nothing waits for them).  */
struct mpicp_reply
{
  MPI_Request req;
  char *msg;
};

/* The N replies in flight, of ALLOC room.  */
struct mpicp_replies
{
  struct mpicp_reply *r;
  idx_t n;
  idx_t alloc;
};

/* The statistics' rounds, which bring what every rank copied to rank
   0's --progress, SIGUSR1 line and --stats (mpicp-comm.c says how).  */
struct mpicp_rounds
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
struct mpicp_links
{
  Hash_table *owned;
  bool answered;
  char *target;
};

/* An open directory of a rank copying files sent to it, kept for the
   next file in it, as the walk sends a directory's files one after
   another.  */
struct mpicp_open_dir
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
  bool serving_now;		/* within mpicp_serve_ranks */
  bool idling;			/* within mpicp_idle_until */
  struct cp_options const *opts; /* whose sink counts what it copies */
  struct copy_remote remote;	/* this job and its operations, as the
                                   copy is given them */
  struct copy_session *session;	/* what this rank copies in */
  struct mpicp_slots slots;
  struct mpicp_handouts handouts;
  struct mpicp_asker asker;
  struct mpicp_help help;
  struct mpicp_replies replies;
  struct mpicp_rounds rounds;
  struct mpicp_links links;
  /* What acts on a message about links (mpicp_handle_link_message):
     handed down, as the messages come to mpicp-comm.c, below the
     links.  */
  void (*on_link_message) (struct remote_job *j, MPI_Status const *status);
  struct mpicp_open_dir open_dirs[2]; /* the source's, then the
                                         copy's */
  struct xfer_sink sink;	/* counts into ROUNDS.copied, on the ranks
                                   but 0 */
  int saved_out;		/* the standard output and error, while */
  int saved_err;		/* the ranks but 0's go nowhere */
};

#endif /* CPDD_MPICP_H */
