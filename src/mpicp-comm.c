/* mpicp-comm.c -- how mpicp's ranks look for, wait for and send
   messages, and share their statistics.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* No rank waits in a blocking MPI call, as Open MPI's poll without
   sleeping and would take CPU time from the ranks copying: each looks
   for its messages and sleeps between looks (mpicp_idle_until).

   MPI calls are not checked one by one: MPI's default error handler
   aborts the whole job on any failure, which is what mpicp wants, as
   a rank that cannot talk to rank 0 any more has nothing left to do.  */

#include <config.h>

#include "system.h"
#include "mpicp-comm.h"

#include <time.h>

/* A message from rank FROM that is not one mpicp sends: the ranks
   run different programs, and none can go on.  */
_Noreturn void
mpicp_malformed (int from)
{
  error (EXIT_FAILURE, 0, _("malformed message from rank %d"), from);
  abort ();
}

/* The size N of a message about NAME, which MPI counts in an int.  */
int
mpicp_message_size (size_t n, char const *name)
{
  if (INT_MAX < n)
    error (EXIT_FAILURE, 0, _("names too long to send to another rank: %s"),
           quoteaf (name));
  return n;
}

/* Whether a message from SOURCE with TAG, either of which may be
   MPI's wildcard, is there; if so, set *STATUS to it.  Open MPI's
   probe looks first and makes progress after: a message that came
   while this process made no MPI call, as while it copied a file,
   shows only at a second look, and a rank giving work away after such
   a copy would not see the rank that asked for it.  */
bool
mpicp_probe (int source, int tag, MPI_Status *status)
{
  int ready;
  MPI_Iprobe (source, tag, MPI_COMM_WORLD, &ready, status);
  if (!ready)
    MPI_Iprobe (source, tag, MPI_COMM_WORLD, &ready, status);
  return ready;
}

/* Whether a message with TAG from any rank is there; if so, set
   *STATUS to it.  */
bool
mpicp_message_there (int tag, MPI_Status *status)
{
  return mpicp_probe (MPI_ANY_SOURCE, tag, status);
}

/* Receive the message STATUS announces, of N bytes, into a new
   buffer.  */
char *
mpicp_receive (MPI_Status const *status, int *n)
{
  MPI_Get_count (status, MPI_BYTE, n);
  char *buf = xmalloc (MAX (*n, 1));
  MPI_Recv (buf, *n, MPI_BYTE, status->MPI_SOURCE, status->MPI_TAG,
            MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return buf;
}

/* Receive the empty message STATUS announces.  */
void
mpicp_receive_empty (MPI_Status const *status)
{
  MPI_Recv (NULL, 0, MPI_BYTE, status->MPI_SOURCE, status->MPI_TAG,
            MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Send the N bytes at MSG, which are taken, as a message with TAG to
   rank TO, without waiting for it to be taken, among REPLIES.  An
   owner of files with links does not wait for its reply to be taken:
   it replies from within other waits, where it takes no message about
   links, and two owners each waiting so for the other to take a reply
   too long to go before it is taken (a long name) would wait for ever.
   Nor does a rank wait for its answer to be taken: a rank waiting for
   answers copies the files sent to it meanwhile, and two ranks each
   copying a file the other sent, rank 0 and a rank walking a subtree,
   would each wait for the other to take an answer too long to go at
   once (a diagnostic with a long name), neither taking answers while
   it waits.  */
void
mpicp_send_later (struct mpicp_replies *replies, char *msg, int n, int to,
                  int tag)
{
  if (replies->n == replies->alloc)
    replies->r = xpalloc (replies->r, &replies->alloc, 1, -1,
                          sizeof *replies->r);
  struct mpicp_reply *r = &replies->r[replies->n++];
  r->msg = msg;
  MPI_Isend (msg, n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &r->req);
}

/* Forget the replies of ARG, a struct mpicp_replies, that have gone;
   return whether none is left.  */
bool
mpicp_replies_gone (void *arg)
{
  struct mpicp_replies *replies = arg;
  for (idx_t i = 0; i < replies->n; )
    {
      struct mpicp_reply *r = &replies->r[i];
      int done;
      MPI_Test (&r->req, &done, MPI_STATUS_IGNORE);
      if (done)
        {
          free (r->msg);
          *r = replies->r[--replies->n];
        }
      else
        i++;
    }
  return replies->n == 0;
}

/* Sleep *PAUSE, and double it up to a bound, for the next time.  */
void
mpicp_pause_longer (long *pause)
{
  struct timespec t = { 0, *pause };
  /* A sleep cut short by a signal only makes the next look come
     sooner.  */
  if (nanosleep (&t, NULL) != 0 && errno != EINTR)
    error (EXIT_FAILURE, errno, _("cannot sleep"));
  *pause = MIN (2 * *pause, MPICP_PAUSE_MAX_NS);
}

/* Do what the other ranks need of J's rank meanwhile: act on the
   messages about links that are there, so that a rank asking about a
   file is kept waiting by no more than one file's or one range's copy,
   as every rank looks between those and while it waits; and take part
   in the statistics' rounds.  Not while already doing so, as answering
   sends and waits in turn.  */
void
mpicp_serve_ranks (struct remote_job *j)
{
  if (j->serving_now)
    return;
  j->serving_now = true;
  mpicp_round_poll (j);
  mpicp_replies_gone (&j->replies);
  for (int tag = TAG_LINK_ASK; tag <= TAG_LINK_DONE; )
    {
      MPI_Status status;
      if (mpicp_probe (MPI_ANY_SOURCE, tag, &status))
        j->on_link_message (j, &status);
      else
        tag++;
    }
  j->serving_now = false;
}

/* Open MPI's blocking calls poll without sleeping: a rank waiting in
   one keeps a CPU busy, which the ranks copying need when there are
   more ranks than CPUs.  So every wait is this: test for READY (ARG),
   and sleep a little longer each time it is false.  */
void
mpicp_idle_until (struct remote_job *j, bool (*ready) (void *), void *arg)
{
  /* A wait within a wait, as answering a rank meanwhile may send, is
     counted once, in the outer one.  */
  bool outer = !j->idling;
  j->idling = true;
  xtime_t start = gethrxtime ();
  long pause = MPICP_PAUSE_MIN_NS;
  for (;;)
    {
      mpicp_serve_ranks (j);
      if (ready (arg))
        break;
      mpicp_pause_longer (&pause);
    }
  if (outer)
    {
      j->rounds.copied.waited_ns += gethrxtime () - start;
      j->idling = false;
    }
}

/* A message awaited: from whom, with which tag, and what came.  */
struct awaited
{
  int source;
  int tag;
  MPI_Status *status;
};

static bool
message_ready (void *arg)
{
  struct awaited *a = arg;
  return mpicp_probe (a->source, a->tag, a->status);
}

/* Wait for a message from SOURCE with TAG, either of which may be
   MPI's wildcard, and set *STATUS to what it is.  */
void
mpicp_await_message (struct remote_job *j, int source, int tag,
                     MPI_Status *status)
{
  struct awaited a = { source, tag, status };
  mpicp_idle_until (j, message_ready, &a);
}

/* Whether the MPI_Request ARG is complete.  */
bool
mpicp_request_done (void *arg)
{
  int done;
  MPI_Test (arg, &done, MPI_STATUS_IGNORE);
  return done;
}

/* Wait for the send or receive REQ to complete.  */
void
mpicp_await_request (struct remote_job *j, MPI_Request *req)
{
  mpicp_idle_until (j, mpicp_request_done, req);
}

/* Send the N bytes at BUF as a message with TAG to rank TO, and
   return once they are sent, polling rather than blocking in MPI.  */
void
mpicp_send_now (struct remote_job *j, void const *buf, int n, int to, int tag)
{
  MPI_Request req;
  MPI_Isend (buf, n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &req);
  mpicp_await_request (j, &req);
}

/* Send an empty message with TAG to rank TO.  */
void
mpicp_send_empty (struct remote_job *j, int to, int tag)
{
  mpicp_send_now (j, NULL, 0, to, tag);
}

/* What --progress, the SIGUSR1 line and --stats count does not travel
   with the answers: every rank counts what it copies itself (rank 0
   in its session, the others in their sink; a range counts where it
   was copied, its file on rank 0, which ends it), and every
   ROUND_PERIOD the ranks exchange their figures in a round of a
   non-blocking MPI_Iallgather on a communicator of their own, which
   each starts and tests where it looks for messages (mpicp_serve_ranks)
   and, on the ranks other than 0, between two writes of a copy.  Rank
   0 adds the others' bytes of the last round (copied, skipped, left
   and read back) to its progress line as they go, whether or not it copies anything itself.  At most one
   round is in flight, and a round ends only once every rank has
   started it, so the ranks are at most one round apart; mpicp_rounds_end
   settles the last ones.  */
enum { ROUND_PERIOD = XTIME_PRECISION / 2 };

/* Set up ROUNDS for N_RANKS ranks, none in flight.  */
void
mpicp_rounds_init (struct mpicp_rounds *rounds, int n_ranks)
{
  rounds->req = MPI_REQUEST_NULL;
  rounds->mine = xmalloc (MPICP_COUNTS_SIZE);
  rounds->all = xnmalloc (n_ranks, MPICP_COUNTS_SIZE);
  rounds->counts = xcalloc (n_ranks, sizeof *rounds->counts);
}

/* Start a round with what this rank copied so far.  */
static void
round_start (struct mpicp_rounds *rounds)
{
  mpicp_pack_counts (&rounds->copied, rounds->mine);
  MPI_Iallgather (rounds->mine, MPICP_COUNTS_SIZE, MPI_BYTE, rounds->all,
                  MPICP_COUNTS_SIZE, MPI_BYTE, rounds->comm, &rounds->req);
  rounds->started++;
  rounds->next = gethrxtime () + ROUND_PERIOD;
}

/* A round ended: rank 0 shows what the others copied.  */
static void
round_ended (struct remote_job *j)
{
  if (j->rank != 0)
    return;
  struct mpicp_rounds *rounds = &j->rounds;
  struct xfer_counts sum = { 0 };
  for (int r = 1; r < j->n_ranks; r++)
    {
      struct xfer_counts *c = &rounds->counts[r];
      if (!mpicp_unpack_counts (rounds->all + r * MPICP_COUNTS_SIZE, c))
        mpicp_malformed (r);
      sum.bytes += c->bytes;
      sum.skipped += c->skipped;
      sum.left += c->left;
      sum.read_back += c->read_back;
    }
  xfer_session_others (&j->opts->xfer, &sum);
}

/* Take part in the rounds: see whether the one in flight ended, and
   start the next if it is time.  */
void
mpicp_round_poll (struct remote_job *j)
{
  struct mpicp_rounds *rounds = &j->rounds;
  if (rounds->req != MPI_REQUEST_NULL)
    {
      if (!mpicp_request_done (&rounds->req))
        return;
      round_ended (j);
    }
  if (rounds->on && rounds->next <= gethrxtime ())
    round_start (rounds);
}

static bool
round_over (void *arg)
{
  struct mpicp_rounds const *rounds = arg;
  return rounds->req == MPI_REQUEST_NULL;
}

/* End this rank's rounds, once it has copied all it will, with the
   others': MPI wants every collective seen through before the process
   ends, and each rank may have started one round more than another.
   So the ranks agree on how many were started, on MPI_COMM_WORLD (on
   their own communicator, the rounds of a rank ahead would meet
   another's agreement), each starts those it has not, and then one
   more, which, started by all once they are done, brings every rank's
   final figures to rank 0's counts.  */
void
mpicp_rounds_end (struct remote_job *j)
{
  struct mpicp_rounds *rounds = &j->rounds;
  rounds->on = false;
  int most;
  MPI_Request req;
  MPI_Iallreduce (&rounds->started, &most, 1, MPI_INT, MPI_MAX,
                  MPI_COMM_WORLD, &req);
  mpicp_await_request (j, &req);
  while (rounds->started <= most)
    {
      mpicp_idle_until (j, round_over, rounds);
      round_start (rounds);
    }
  mpicp_idle_until (j, round_over, rounds);
}

void
mpicp_answer_asker (struct remote_job *j)
{
  if (0 <= j->asker.rank)
    mpicp_send_empty (j, j->asker.rank, TAG_NOWORK);
  j->asker.rank = -1;
}

void
mpicp_refuse (struct remote_job *j, int tag)
{
  MPI_Status status;
  while (mpicp_message_there (tag, &status))
    {
      mpicp_receive_empty (&status);
      mpicp_send_empty (j, status.MPI_SOURCE, TAG_NOWORK);
    }
}

void
mpicp_refuse_help (struct remote_job *j)
{
  if (j->asker.waiting)
    mpicp_answer_asker (j);
  mpicp_refuse (j, TAG_HELP);
}
