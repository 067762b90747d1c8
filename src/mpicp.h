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
  struct copy_session *session;	/* what a rank but 0 copies in */
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

/* mpicp-comm.c: looking for, waiting for and sending messages, and
   the statistics' rounds.  */

/* Exit: rank FROM sent a message that is none mpicp sends.  */
_Noreturn void mpicp_malformed (int from);

/* N, the size of a message about NAME, as MPI counts it; exit if it
   is too big for that.  */
int mpicp_message_size (size_t n, char const *name);

/* Whether a message from SOURCE with TAG, either of which may be MPI's
   wildcard, is there; if so, set *STATUS to it.  */
bool mpicp_probe (int source, int tag, MPI_Status *status);

/* mpicp_probe for a message with TAG from any rank.  */
bool mpicp_message_there (int tag, MPI_Status *status);

/* Receive the message STATUS announces into a new buffer, and set *N
   to its size.  */
char *mpicp_receive (MPI_Status const *status, int *n);

/* Receive the empty message STATUS announces.  */
void mpicp_receive_empty (MPI_Status const *status);

/* Send the N bytes at MSG, which are taken, with TAG to rank TO, and
   return at once: REPLIES keeps them until they are gone.  */
void mpicp_send_later (struct mpicp_replies *replies, char *msg, int n,
                       int to, int tag);

/* Free the replies of REPLIES, a struct mpicp_replies, that have gone,
   and return whether none is left: a READY for mpicp_idle_until.  */
bool mpicp_replies_gone (void *replies);

/* Sleep *PAUSE nanoseconds, and make it longer for the next time, up
   to MPICP_PAUSE_MAX_NS.  */
void mpicp_pause_longer (long *pause);

/* Do what the other ranks need of J's rank between two steps of its
   own: answer questions about links and take part in the rounds.  */
void mpicp_serve_ranks (struct remote_job *j);

/* Wait until READY (ARG) is true, serving the other ranks and sleeping
   between looks, as no rank waits inside MPI.  */
void mpicp_idle_until (struct remote_job *j, bool (*ready) (void *),
                       void *arg);

/* Wait for a message from SOURCE with TAG, either of which may be
   MPI's wildcard, and set *STATUS to it.  */
void mpicp_await_message (struct remote_job *j, int source, int tag,
                          MPI_Status *status);

/* Whether the MPI_Request REQ is complete: a READY for
   mpicp_idle_until.  */
bool mpicp_request_done (void *req);

/* Wait for the send or receive REQ to complete.  */
void mpicp_await_request (struct remote_job *j, MPI_Request *req);

/* Send the N bytes at BUF with TAG to rank TO, and wait until they are
   sent.  */
void mpicp_send_now (struct remote_job *j, void const *buf, int n, int to,
                     int tag);

/* Send an empty message with TAG to rank TO, and wait until it is
   sent.  */
void mpicp_send_empty (struct remote_job *j, int to, int tag);

/* Set up ROUNDS for N_RANKS ranks, none in flight.  */
void mpicp_rounds_init (struct mpicp_rounds *rounds, int n_ranks);

/* See whether J's round in flight ended, and start the next if it is
   time.  */
void mpicp_round_poll (struct remote_job *j);

/* End J's rounds together with the other ranks', once J's rank has
   copied all it will: MPI wants them all seen through.  */
void mpicp_rounds_end (struct remote_job *j);

/* Answer the request of J's asker, if there is one, as J's rank has
   no more files for it.  */
void mpicp_answer_asker (struct remote_job *j);

/* Refuse the ranks that asked J's rank for work with TAG.  */
void mpicp_refuse (struct remote_job *j, int tag);

/* Refuse the ranks that asked J's rank for files to copy while they
   wait (HELP), and the asker if it asked so, as it has none to give
   just now: their waits last until they are answered, and this rank's
   walk may meet no file it gives for long (directories only, or files
   with other links, whose first copies it makes itself).  */
void mpicp_refuse_help (struct remote_job *j);

/* mpicp-links.c: hard links kept across ranks.  */

/* Whether TAG is that of a message about links.  */
bool mpicp_is_link_tag (int tag);

/* Receive the message about links that STATUS announces, and act on
   it.  */
void mpicp_handle_link_message (struct remote_job *j,
                                MPI_Status const *status);

/* The operations first_copy and first_done of struct copy_remote_ops,
   for J's rank (copy-remote.h says what they do).  */
char *mpicp_first_copy (struct remote_job *j, struct stat const *src_st,
                        char const *dst_name);
void mpicp_first_done (struct remote_job *j, struct stat const *src_st,
                       bool ok);

/* mpicp-work.c: the files, ranges and subtrees the ranks send one
   another, and their answers.  */

/* Set up SLOTS for N_RANKS ranks, all free.  */
void mpicp_slots_init (struct mpicp_slots *slots, int n_ranks);

/* Rank 0's send operation: send F to the least busy rank, or return
   false to leave it to the walk.  */
bool mpicp_send_file (struct remote_job *j, struct remote_file const *f);

/* The give operation of every rank: send the subtree D to a rank that
   asked for work, or return false if none has.  */
bool mpicp_give_subtree (struct remote_job *j, struct remote_dir const *d);

/* The send operation of a rank walking a subtree: send F to a rank
   that asked for work, or return false if none has.  */
bool mpicp_give_file (struct remote_job *j, struct remote_file const *f);

/* The wait operation of every rank: wait for answers, copying what is
   sent to J's rank meanwhile.  */
void mpicp_wait_answer (struct remote_job *j);


/* Copy what the task of N bytes at BUF from rank FROM asks for, and
   answer FROM; set *ANSWERS_REQUEST to whether the task answers J's
   rank's request for work.  */
void mpicp_answer_task (struct remote_job *j, char const *buf, int n,
                        int from, bool *answers_request);

/* Close the directories DIRS kept open for the files sent to this
   rank.  */
void mpicp_close_dirs (struct mpicp_open_dir dirs[2]);

#endif /* CPDD_MPICP_H */
