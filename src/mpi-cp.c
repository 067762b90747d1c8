/* mpi-cp.c -- mpicp: cp's walk shared by the ranks of an MPI job.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Every rank parses the same command line.  Rank 0 then runs cp's
   walk as cp does, deciding everything about every file, and where
   cp --jobs would give a worker thread a regular file to copy whole
   into a directory the copy made, it sends the file to another rank
   instead: the names that lead to it from the operands, and what the
   walk saw of it and of the directories it is in.  That rank opens
   the directories again, checks they are the ones the walk had open,
   copies the file with cp's own code and answers with the outcome and
   the text of its diagnostics, which rank 0 prints.  When every rank
   has as many files waiting as it may, rank 0 copies the file itself.
   A directory's attributes are set once its last file is answered
   for, as with --jobs.

   The walk itself is shared by stealing subtrees.  A rank with nothing
   to do asks another for work (TAG_STEAL): rank 0 first, then each
   other rank in turn, sleeping a little longer after each round of
   refusals.  A rank walking looks for such a request each time it has
   just made a directory below an operand, and if there is one it
   gives the requester that directory's subtree instead of going down
   into it: nothing is below it at the destination yet, so no decision
   there depends on what another rank does, as for a whole file.  The
   subtree is a piece of the group of files of the directory it is in,
   like a file sent away.  Its rank opens both directories again from
   the operands, checks them, walks the subtree with cp's own code
   (copy_remote_dir), copies its files itself, gives parts of it on to
   ranks that ask meanwhile (subdirectories, files, and the ranges of
   large files, which it otherwise copies one after another; the answer
   about a file or range goes to its giver, TAG_ANSWER as to rank 0),
   sets the directory's attributes once all below it is answered for,
   and answers its giver (TAG_DIR_DONE) with the outcome, its diagnostics
   and its -v lines, which the giver prints or, if it is itself walking
   a subtree, adds to its own answer.  A rank waiting for answers
   refuses requests (TAG_NOWORK), having nothing to give, and asks the
   ranks but 0 for files meanwhile (TAG_HELP), which a rank walking a
   subtree sends it as to an idle rank, but never a subtree, as the
   walk of the rank waiting is not over.  As every piece answers only
   once all of it is done, rank 0 knows the job is over when its walk
   is over and everything it sent and gave is answered for.

   Hard links are kept across ranks through owners: each (device,
   inode) belongs to one rank (owner_of, a hash).  A rank meeting a
   file with other links asks its owner (itself, without a message)
   whether its name is the first copy; the owner answers "copy it" to
   the first, and to the others, once that copy is over, "link to" its
   name, or, if it failed, "copy it" to the next, which copies afresh
   as cp does.  Every wait (idle_until) and every step of a walk
   between two entries answers the questions this rank owns, so that
   one waits at most for a file's copy.

   With -L, subtrees are not given away, as directories reached
   through links are remembered in rank 0's map; rank 0's walk is then
   what limits, at the rate one process can list directories and send
   messages.  The ranks must
   share one architecture (struct stat travels as it is), see the same
   file system at the same working directory, and run as the same
   user.

   What --progress, the SIGUSR1 line and --stats count does not travel
   with the answers: every rank counts what it copies itself (rank 0
   in its session, the others in rank_sink; a range counts where it
   was copied, its file on rank 0, which ends it), and every half
   second the ranks exchange their figures in a round of a
   non-blocking MPI_Iallgather on a communicator of their own, which
   each starts and tests where it looks for messages and, on the ranks
   other than 0, between two writes of a copy.  Rank 0 adds the
   others' bytes of the last round to its progress line as they go,
   whether or not it copies anything itself.  Once its part is over, a
   rank agrees with the others on the number of rounds started, starts
   those it has not, and one more, which brings every rank's final
   figures to rank 0: its --stats add them up, then show how evenly
   the ranks shared the work (rounds_end).

   No rank waits in a blocking MPI call, as Open MPI's poll without
   sleeping and would take CPU time from the ranks copying: each looks
   for its messages and sleeps between looks (idle_until).

   MPI calls are not checked one by one: MPI's default error handler
   aborts the whole job on any failure, which is what mpicp wants, as
   a rank that cannot talk to rank 0 any more has nothing left to do.  */

#include <config.h>

#include "system.h"
#include "copy-remote.h"
#include "remote.h"
#include "hash.h"
#include "mpicp-proto.h"
#include "walk.h"

#include <dirent.h>
#include <mpi.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

/* Files sent to one rank and not answered yet, at most: enough that
   it finds its next file waiting when one is done, few enough that
   rank 0's memory and MPI's queues stay small.  */
enum { SLOTS_PER_RANK = 4 };

static int rank;
static int n_ranks;

/* Whether the ranks other than 0 wait for files, until rank 0 stops
   them.  */
static bool serving;

/* On rank 0, a file sent and not answered yet.  */
struct slot
{
  void *token;			/* the walk's, or NULL while free */
  intmax_t range;		/* the range sent, or -1: the whole file */
  MPI_Request req;
  char *buf;			/* the message, until it is sent */
};

/* On rank 0: SLOTS_PER_RANK slots for each rank from 1 on, how many
   each has in use, and in all.  */
static struct slot *slots;
static int *busy;
static int in_flight;

/* Where the next file goes when the ranks are equally busy.  */
static int next_rank;

/* On rank 0, how many subtrees it gave each rank that are not
   answered yet: a rank walking one takes the files sent to it only
   when its walk waits, or once it is done.  */
static int *walking;

/* A subtree, a file or a range of a file that this rank gave another
   that asked for work, not answered yet.  */
struct gift
{
  void *token;			/* the walk's, or NULL while free */
  intmax_t range;		/* the range given, or -1: a subtree or
				   a whole file */
  MPI_Request req;
  char *buf;
};

static struct gift *gifts;
static idx_t n_gifts;
static int gifts_out;

/* The options of the job, whose sink counts what this rank copies.  */
static struct cp_options const *job_opts;

/* The statistics' rounds, which bring what every rank copied to rank
   0's --progress, SIGUSR1 line and --stats.  Every rank takes part in
   each round, an MPI_Iallgather of its figures on a communicator kept
   for them alone, from where it looks for messages (serve_ranks) and
   as it copies (rank_bytes): at most one round in flight, and the
   next started no sooner than ROUND_PERIOD after the last one was.  A
   round ends only once every rank has started it, so the ranks are at
   most one round apart, and rounds_end settles the last ones.  */
enum { ROUND_PERIOD = XTIME_PRECISION / 2 };

static MPI_Comm round_comm;
static MPI_Request round_req = MPI_REQUEST_NULL;

/* Whether this rank starts rounds when it is time: from the copy's
   start until its own part of the job is over.  */
static bool rounds_on;

/* The rounds this rank started, and when it may start the next.  */
static int rounds;
static xtime_t next_round;

/* What this rank sent in the round in flight, and what each rank sent
   in the last that ended.  Rank 0 sends zeros: its own figures are in
   its session, which it has, unlike the others.  */
static struct xfer_counts round_mine;
static struct xfer_counts *round_all;

/* What this rank copied, as its sink counts it, on the ranks other
   than 0.  */
static struct xfer_counts copied;

/* One end of a file sent: the directory it is in, as the walk saw it,
   and how to reach it again: the operand the walk opened first, from
   the working directory, then the entries below it.  */
struct side_head
{
  dev_t dir_dev;
  ino_t dir_ino;
  uint32_t root_len;
  uint32_t path_len;		/* the entries below, joined by '/' */
  uint32_t name_len;		/* the file's whole name, for messages */
  uint32_t rel_at;		/* where in it its entry's own starts */
};

/* A file sent, followed by each end's root, path and name, each with
   its terminating null byte.  An end whose root is empty is an
   operand: its name is from the working directory.  */
struct task_head
{
  uint32_t slot;
  bool follow;
  struct stat src_st;
  struct side_head side[2];
  int64_t range;		/* -1 for the whole file */
  int64_t ranges;		/* with a range: the split's */
  int64_t chunk;
  int32_t direct;
  struct stat dst_st;		/* the copy, which the walk made */
  bool gift;			/* the answer to a request for work */
  bool dir;			/* a subtree, followed by its made_len
                                   struct remote_inode and, after the
                                   names, the operands' names */
  dev_t top_dev;
  uint32_t made_len;
};

/* A subtree's answer, followed by the text of its diagnostics, then
   of its standard output (-v).  */
struct dir_answer_head
{
  uint32_t slot;
  bool ok;
  uint32_t said_len;
};

/* An answer, followed by the text of its diagnostics.  */
struct answer_head
{
  uint32_t slot;
  bool ok;
  struct xfer_report report;	/* a range's, for its file's */
};

/* How long a rank with nothing to do sleeps between looks for a
   message: short at first, as an answer often follows soon, then
   longer, up to a bound that keeps the delay small beside a file's
   copy.  */
enum { PAUSE_MIN_NS = 20 * 1000, PAUSE_MAX_NS = 1000 * 1000 };

/* A file with other links, on the rank that owns its device and
   inode: the name of its first copy and the rank making it, whether
   that copy is whole, and the ranks waiting to hear which name to link
   to, each with its own name, in case the copy fails and the next must
   be made afresh.  */
struct waiter
{
  int rank;
  char *name;
};

enum owned_state { OWNED_NONE, OWNED_PENDING, OWNED_OK };

struct owned
{
  dev_t dev;
  ino_t ino;
  enum owned_state state;
  char *name;
  struct waiter *waiters;
  idx_t n_waiters;
  idx_t waiters_alloc;
};

static Hash_table *owned_files;

/* The head of a TAG_LINK_ASK or TAG_LINK_DONE message; an ask is
   followed by the asking rank's name for its copy.  */
struct link_head
{
  dev_t dev;
  ino_t ino;
  bool ok;
};

/* On a rank that asked about a file with other links: whether the
   owner answered, and with which name to link to (NULL: copy it).  */
static bool link_answered;
static char *link_target;

static size_t
owned_hash (void const *p, size_t n_buckets)
{
  struct owned const *o = p;
  return (o->ino ^ o->dev) % n_buckets;
}

static bool
owned_equal (void const *a, void const *b)
{
  struct owned const *x = a;
  struct owned const *y = b;
  return x->ino == y->ino && x->dev == y->dev;
}

/* The rank that owns DEV and INO: spread evenly, whatever the
   inodes' numbering.  */
static int
owner_of (dev_t dev, ino_t ino)
{
  uint64_t h = ((uint64_t) dev * 0x9E3779B97F4A7C15u) ^ ino;
  h *= 0xBF58476D1CE4E5B9u;
  return (h >> 32) % n_ranks;
}

/* Replies to questions about links, and answers about files and
   ranges, on their way.  An owner does not wait for its reply to be
   taken: it replies from within other waits, where it takes no
   message about links, and two owners each waiting so for the other
   to take a reply too long to go before it is taken (a long name)
   would wait for ever.  Nor does a rank wait for its answer to be
   taken: a rank waiting for answers copies the files sent to it
   meanwhile, and two ranks each copying a file the other sent, rank
   0 and a rank walking a subtree, would each wait for the other to
   take an answer too long to go at once (a diagnostic with a long
   name), neither taking answers while it waits.  */
struct reply
{
  MPI_Request req;
  char *msg;
};

static struct reply *replies;
static idx_t n_replies;
static idx_t replies_alloc;

/* Forget the replies that have gone; return whether none is left.  */
static bool
replies_gone (void *arg)
{
  for (idx_t i = 0; i < n_replies; )
    {
      int done;
      MPI_Test (&replies[i].req, &done, MPI_STATUS_IGNORE);
      if (done)
        {
          free (replies[i].msg);
          replies[i] = replies[--n_replies];
        }
      else
        i++;
    }
  return n_replies == 0;
}

/* Send the N bytes at MSG, which are taken, as a message with TAG to
   rank TO, without waiting for it to be taken.  */
static void
send_later (char *msg, int n, int to, int tag)
{
  if (n_replies == replies_alloc)
    replies = xpalloc (replies, &replies_alloc, 1, -1, sizeof *replies);
  struct reply *r = &replies[n_replies++];
  r->msg = msg;
  MPI_Isend (msg, n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &r->req);
}

/* Tell rank TO to copy its file (TARGET NULL) or to link it to
   TARGET.  */
static void
link_reply (int to, char const *target)
{
  if (to == rank)
    {
      link_target = target ? xstrdup (target) : NULL;
      link_answered = true;
      return;
    }
  size_t n = 1 + (target ? strlen (target) + 1 : 0);
  char *msg = xmalloc (n);
  msg[0] = target != NULL;
  if (target)
    strcpy (msg + 1, target);
  send_later (msg, n, to, TAG_LINK_REPLY);
}

/* As the owner of DEV and INO: rank FROM asks whether NAME is the
   first copy.  NAME is taken.  */
static void
owner_ask (dev_t dev, ino_t ino, int from, char *name)
{
  if (!owned_files)
    owned_files = hash_initialize (0, NULL, owned_hash, owned_equal, NULL);
  struct owned key = { .dev = dev, .ino = ino };
  struct owned *o = hash_lookup (owned_files, &key);
  if (!o)
    {
      o = xmemdup (&key, sizeof key);
      if (!hash_insert (owned_files, o))
        xalloc_die ();
    }
  if (o->state == OWNED_OK)
    {
      link_reply (from, o->name);
      free (name);
    }
  else if (o->state == OWNED_PENDING)
    {
      if (o->n_waiters == o->waiters_alloc)
        o->waiters = xpalloc (o->waiters, &o->waiters_alloc, 1, -1,
                              sizeof *o->waiters);
      o->waiters[o->n_waiters++] = (struct waiter) { from, name };
    }
  else
    {
      o->state = OWNED_PENDING;
      o->name = name;
      link_reply (from, NULL);
    }
}

/* As the owner of DEV and INO: its first copy is over, whole if OK.
   The ranks waiting link to it, or, if it failed, the first of them
   makes the copy afresh, as cp does with the next name.  */
static void
owner_done (dev_t dev, ino_t ino, bool ok)
{
  struct owned key = { .dev = dev, .ino = ino };
  struct owned *o = hash_lookup (owned_files, &key);
  if (ok)
    {
      o->state = OWNED_OK;
      for (idx_t i = 0; i < o->n_waiters; i++)
        {
          link_reply (o->waiters[i].rank, o->name);
          free (o->waiters[i].name);
        }
      o->n_waiters = 0;
      return;
    }
  free (o->name);
  o->name = NULL;
  o->state = OWNED_NONE;
  if (o->n_waiters)
    {
      struct waiter w = o->waiters[0];
      memmove (o->waiters, o->waiters + 1,
               --o->n_waiters * sizeof *o->waiters);
      o->state = OWNED_PENDING;
      o->name = w.name;
      link_reply (w.rank, NULL);
    }
}

/* Whether a message from SOURCE with TAG, either of which may be
   MPI's wildcard, is there; if so, set *STATUS to it.  Open MPI's
   probe looks first and makes progress after: a message that came
   while this process made no MPI call, as while it copied a file,
   shows only at a second look, and a rank giving work away after such
   a copy would not see the rank that asked for it.  */
static bool
probe (int source, int tag, MPI_Status *status)
{
  int ready;
  MPI_Iprobe (source, tag, MPI_COMM_WORLD, &ready, status);
  if (!ready)
    MPI_Iprobe (source, tag, MPI_COMM_WORLD, &ready, status);
  return ready;
}

/* Receive the message STATUS announces, of N bytes, into a new
   buffer.  */
static char *
take_message (MPI_Status const *status, int *n)
{
  MPI_Get_count (status, MPI_BYTE, n);
  char *buf = xmalloc (MAX (*n, 1));
  MPI_Recv (buf, *n, MPI_BYTE, status->MPI_SOURCE, status->MPI_TAG,
            MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return buf;
}

/* Act on the message about links that STATUS announces.  */
static void
take_link_message (MPI_Status const *status)
{
  int n;
  char *buf = take_message (status, &n);
  if (status->MPI_TAG == TAG_LINK_REPLY)
    {
      link_target = buf[0] ? xstrdup (buf + 1) : NULL;
      link_answered = true;
    }
  else
    {
      struct link_head h;
      memcpy (&h, buf, sizeof h);
      if (status->MPI_TAG == TAG_LINK_ASK)
        owner_ask (h.dev, h.ino, status->MPI_SOURCE,
                   xstrdup (buf + sizeof h));
      else
        owner_done (h.dev, h.ino, h.ok);
    }
  free (buf);
}

/* Whether TAG is that of a message about links.  */
static bool
link_tag (int tag)
{
  return TAG_LINK_ASK <= tag && tag <= TAG_LINK_DONE;
}

/* Start a round with what this rank copied so far.  */
static void
round_start (void)
{
  round_mine = copied;
  MPI_Iallgather (&round_mine, sizeof round_mine, MPI_BYTE,
                  round_all, sizeof round_mine, MPI_BYTE, round_comm,
                  &round_req);
  rounds++;
  next_round = gethrxtime () + ROUND_PERIOD;
}

/* A round ended: rank 0 shows what the others copied.  */
static void
round_ended (void)
{
  if (rank != 0)
    return;
  intmax_t bytes = 0;
  for (int r = 1; r < n_ranks; r++)
    bytes += round_all[r].bytes;
  xfer_session_others (&job_opts->xfer, bytes);
}

/* Take part in the rounds: see whether the one in flight ended, and
   start the next if it is time.  */
static void
round_poll (void)
{
  if (round_req != MPI_REQUEST_NULL)
    {
      int done;
      MPI_Test (&round_req, &done, MPI_STATUS_IGNORE);
      if (!done)
        return;
      round_ended ();
    }
  if (rounds_on && next_round <= gethrxtime ())
    round_start ();
}

/* Do what the other ranks need of this one meanwhile: act on the
   messages about links that are there, so that a rank asking about a
   file is kept waiting by no more than one file's or one range's copy,
   as every rank looks between those and while it waits; and take part
   in the statistics' rounds.  Not while already doing so, as answering
   sends and waits in turn.  */
static void
serve_ranks (void)
{
  static bool serving_now;
  if (serving_now)
    return;
  serving_now = true;
  round_poll ();
  replies_gone (NULL);
  for (int tag = TAG_LINK_ASK; tag <= TAG_LINK_DONE; )
    {
      MPI_Status status;
      if (probe (MPI_ANY_SOURCE, tag, &status))
        take_link_message (&status);
      else
        tag++;
    }
  serving_now = false;
}

/* Sleep *PAUSE, and double it up to a bound, for the next time.  */
static void
pause_longer (long *pause)
{
  struct timespec t = { 0, *pause };
  /* A sleep cut short by a signal only makes the next look come
     sooner.  */
  if (nanosleep (&t, NULL) != 0 && errno != EINTR)
    error (EXIT_FAILURE, errno, _("cannot sleep"));
  *pause = MIN (2 * *pause, PAUSE_MAX_NS);
}

/* Open MPI's blocking calls poll without sleeping: a rank waiting in
   one keeps a CPU busy, which the ranks copying need when there are
   more ranks than CPUs.  So every wait is this: test for READY (ARG),
   and sleep a little longer each time it is false.  */
static void
idle_until (bool (*ready) (void *), void *arg)
{
  long pause = PAUSE_MIN_NS;
  for (;;)
    {
      serve_ranks ();
      if (ready (arg))
        break;
      pause_longer (&pause);
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
  return probe (a->source, a->tag, a->status);
}

/* Wait for a message from SOURCE with TAG, either of which may be
   MPI's wildcard, and set *STATUS to what it is.  */
static void
await_message (int source, int tag, MPI_Status *status)
{
  struct awaited a = { source, tag, status };
  idle_until (message_ready, &a);
}

static bool
request_done (void *arg)
{
  int done;
  MPI_Test (arg, &done, MPI_STATUS_IGNORE);
  return done;
}

/* Wait for the send or receive REQ to complete.  */
static void
await_request (MPI_Request *req)
{
  idle_until (request_done, req);
}

/* The outermost directory of DIR's walk: the operand.  */
static struct walk_dir const *
walk_root (struct walk_dir const *dir)
{
  while (dir->up)
    dir = dir->up;
  return dir;
}

/* Where, in the whole name NAME of the entry REL of DIR, the names of
   the directories below the operand start: a walk_dir's own REL is the
   end of a name the walk has since reused.  Below the operand,
   entries are joined by single slashes.  */
static char const *
below_root (struct walk_dir const *dir, char const *name, char const *rel)
{
  char const *p = rel;
  for (struct walk_dir const *d = dir; d->up; d = d->up)
    {
      p--;
      while (name < p && p[-1] != '/')
        p--;
    }
  return p;
}

/* Fill H for the entry REL of the directory DIR (NULL for an
   operand), whose whole name is NAME, and return the bytes its strings
   take.  */
static size_t
side_measure (struct walk_dir const *dir, char const *name, char const *rel,
              struct side_head *h)
{
  if (!dir)
    {
      *h = (struct side_head) { .name_len = strlen (name) };
      return 2 + h->name_len + 1;
    }
  char const *path = below_root (dir, name, rel);
  h->dir_dev = dir->dev;
  h->dir_ino = dir->ino;
  h->root_len = strlen (walk_root (dir)->rel);
  h->path_len = path < rel ? rel - 1 - path : 0;
  h->name_len = strlen (name);
  h->rel_at = rel - name;
  return h->root_len + 1 + h->path_len + 1 + h->name_len + 1;
}

/* Write at P the strings of the end H of the entry REL of DIR, whose
   whole name is NAME, and return where they end.  */
static char *
side_put (char *p, struct walk_dir const *dir, char const *name,
          char const *rel, struct side_head const *h)
{
  p = stpcpy (p, dir ? walk_root (dir)->rel : "") + 1;
  if (dir)
    {
      memcpy (p, below_root (dir, name, rel), h->path_len);
      p += h->path_len;
    }
  *p++ = '\0';
  return stpcpy (p, name) + 1;
}

/* The rank from 1 on with the fewest files, the first from NEXT_RANK
   on among equals, of those not walking a subtree rank 0 gave them
   unless ANY; -1 if there is none.  */
static int
least_busy (bool any)
{
  int best = -1;
  for (int i = 0; i < n_ranks - 1; i++)
    {
      int r = 1 + (next_rank - 1 + i) % (n_ranks - 1);
      if ((any || !walking[r]) && (best < 0 || busy[r] < busy[best]))
        best = r;
    }
  if (0 <= best)
    next_rank = 1 + best % (n_ranks - 1);
  return best;
}

/* Free the gift SLOT, now answered, and set *TOKEN and *RANGE to what
   it was.  */
static void
end_gift (int slot, void **token, intmax_t *range)
{
  struct gift *g = &gifts[slot];
  await_request (&g->req);
  free (g->buf);
  *token = g->token;
  *range = g->range;
  g->token = NULL;
  gifts_out--;
}

/* Free the slot SLOT of a file or range sent to rank FROM, now
   answered, and set *TOKEN and *RANGE to what it was: on rank 0, one
   of the slots of files sent; elsewhere, a file or range given
   away.  */
static void
end_slot (int slot, int from, void **token, intmax_t *range)
{
  if (rank != 0)
    {
      end_gift (slot, token, range);
      return;
    }
  struct slot *s = &slots[slot];
  await_request (&s->req);
  free (s->buf);
  *token = s->token;
  *range = s->range;
  s->token = NULL;
  busy[from]--;
  in_flight--;
}

/* The LEN bytes of diagnostics at P, copied to be printed later.  */
static struct held_errors
held_copy (char const *p, idx_t len)
{
  return (struct held_errors) { len ? ximemdup (p, len) : NULL, len };
}

/* Receive the answer that STATUS announces, print its diagnostics and
   end its file's piece of the walk's group.  */
static void
take_answer (MPI_Status const *status)
{
  int n;
  char *buf = take_message (status, &n);
  struct answer_head h;
  memcpy (&h, buf, sizeof h);
  void *token;
  intmax_t range;
  end_slot (h.slot, status->MPI_SOURCE, &token, &range);
  struct held_errors said = held_copy (buf + sizeof h, n - sizeof h);
  free (buf);
  copy_remote_ended (token, range, h.ok, &said, &h.report);
}

/* Send the N bytes at BUF as a message with TAG to rank TO, and
   return once they are sent, polling rather than blocking in MPI.  */
static void
send_now (void const *buf, int n, int to, int tag)
{
  MPI_Request req;
  MPI_Isend (buf, n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &req);
  await_request (&req);
}

/* Send an empty message with TAG to rank TO.  */
static void
send_empty (int to, int tag)
{
  send_now (NULL, 0, to, tag);
}

/* Receive the empty message STATUS announces.  */
static void
take_empty (MPI_Status const *status)
{
  MPI_Recv (NULL, 0, MPI_BYTE, status->MPI_SOURCE, status->MPI_TAG,
            MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Receive the answer to a subtree that STATUS announces, print its
   diagnostics and end its piece of the walk's group.  */
static void
take_dir_answer (MPI_Status const *status)
{
  int n;
  char *buf = take_message (status, &n);
  struct dir_answer_head h;
  memcpy (&h, buf, sizeof h);
  void *token;
  intmax_t range;
  end_gift (h.slot, &token, &range);
  if (rank == 0)
    walking[status->MPI_SOURCE]--;
  idx_t len = h.said_len;
  struct held_errors said = held_copy (buf + sizeof h, len);
  size_t out = n - sizeof h - len;
  if (out && fwrite (buf + sizeof h + len, 1, out, stdout) != out)
    error (EXIT_FAILURE, errno, _("write error"));
  free (buf);
  copy_remote_dir_ended (token, h.ok, &said);
}

/* Whether a message with TAG from any rank is there; if so, set
   *STATUS to it.  */
static bool
message_there (int tag, MPI_Status *status)
{
  return probe (MPI_ANY_SOURCE, tag, status);
}

/* Take the answers already there, to files and to subtrees, and
   return whether there was one: so that directories are finished and
   their descriptors closed as early as can be, and a rank done with
   its subtree is sent files again.  */
static bool
take_ready_answers (void)
{
  bool took = false;
  MPI_Status status;
  for (;;)
    {
      if (message_there (TAG_ANSWER, &status))
        take_answer (&status);
      else if (message_there (TAG_DIR_DONE, &status))
        take_dir_answer (&status);
      else
        return took;
      took = true;
    }
}

/* On a rank given a subtree: the rank that asked it for work and is
   being sent files, -1 if none; whether it asked while waiting, and
   so takes no subtree; and how many more it is sent before the last,
   which answers its request.  */
static int fed = -1;
static bool fed_waiting;
static int fed_left;

/* Answer the request of the rank being sent files, if there is one,
   as this rank has no more for it.  */
static void
end_feeding (void)
{
  if (0 <= fed)
    send_empty (fed, TAG_NOWORK);
  fed = -1;
}

/* Refuse the ranks that asked for work with TAG.  */
static void
refuse (int tag)
{
  MPI_Status status;
  while (message_there (tag, &status))
    {
      take_empty (&status);
      send_empty (status.MPI_SOURCE, TAG_NOWORK);
    }
}

/* Refuse the ranks asking for work, as a rank waiting for answers has
   none to give.  */
static void
refuse_requests (void)
{
  end_feeding ();
  refuse (TAG_STEAL);
  refuse (TAG_HELP);
}

/* Answer the ranks that asked for files while they wait, and the one
   being sent files so, where this rank has no file to give: their
   waits last until they are answered, and this rank's walk may meet
   no file it gives for long (directories only, or files with other
   links, whose first copies it makes itself).  */
static void
refuse_help (void)
{
  if (fed_waiting)
    end_feeding ();
  refuse (TAG_HELP);
}

/* The rank that this one, waiting for answers, asked for files to
   copy meanwhile, -1 if none; and the last one it asked.  */
static int helped = -1;
static int last_helped;

static void answer (char const *buf, int from, struct cp_options const *x);

/* Copy the files and ranges sent to this rank while it waits, and
   take the refusal of the rank it asked; return whether there was
   any.  A file may come from rank 0 too, which sends files to a rank
   walking a subtree that another rank gave it.  */
static bool
took_help (void)
{
  bool took = false;
  MPI_Status status;
  for (;;)
    {
      if (0 <= helped && probe (helped, TAG_NOWORK, &status))
        {
          take_empty (&status);
          helped = -1;
        }
      else if (message_there (TAG_TASK, &status))
        {
          int n;
          char *buf = take_message (&status, &n);
          struct task_head h;
          memcpy (&h, buf, sizeof h);
          if (h.gift && status.MPI_SOURCE == helped)
            helped = -1;
          answer (buf, status.MPI_SOURCE, job_opts);
          free (buf);
        }
      else
        return took;
      took = true;
    }
}

/* Ask the next rank but 0 for files to copy, if there is one: rank 0
   sends files to the ranks as it walks, and would answer the request
   only at its next wait.  */
static void
ask_help (void)
{
  int askable = n_ranks - 1 - (rank != 0);	/* from 1 on, but this */
  if (askable == 0)
    return;
  int r = last_helped;
  do
    r = r % (n_ranks - 1) + 1;
  while (r == rank);
  last_helped = helped = r;
  send_empty (r, TAG_HELP);
}

/* Take the answers there, to files or subtrees, and return whether
   there was one, once no rank is asked for files; refuse, meanwhile,
   the ranks asking for work, as a rank waiting for answers has none
   to give, but ask the others for files to copy, as a rank walking a
   directory of files gives them to those that ask.  The walk goes on
   only once the request is answered: files sent later would wait for
   the walk's next wait.  */
static bool
took_answer (void *arg)
{
  bool *took = arg;
  refuse_requests ();
  *took |= take_ready_answers ();
  *took |= took_help ();
  if (*took && helped < 0)
    return true;
  if (helped < 0)
    ask_help ();
  return false;
}

static void
wait_answer (void)
{
  bool took = false;
  idle_until (took_answer, &took);
}

/* The message that sends F as the file of slot SLOT, a GIFT to a rank
   that asked for work or not; set *SIZE to its size.  */
static char *
task_message (struct remote_file const *f, int slot, bool gift, int *size)
{
  struct task_head h = { .slot = slot, .follow = f->follow,
                         .src_st = *f->src_st, .range = -1, .gift = gift };
  if (f->split)
    {
      h.range = f->range;
      h.ranges = f->split->ranges;
      h.chunk = f->split->chunk;
      h.direct = f->split->opts.direct;
      h.dst_st = *f->dst_st;
    }
  size_t n = sizeof h;
  n += side_measure (f->src_dir, f->src_name, f->src_rel, &h.side[0]);
  n += side_measure (f->dst_dir, f->dst_name, f->dst_rel, &h.side[1]);
  /* MPI counts bytes in an int.  */
  if (INT_MAX < n)
    error (EXIT_FAILURE, 0, _("names too long to send to another rank: %s"),
           quoteaf (f->src_name));
  char *buf = xmalloc (n);
  memcpy (buf, &h, sizeof h);
  char *p = side_put (buf + sizeof h, f->src_dir, f->src_name, f->src_rel,
                      &h.side[0]);
  side_put (p, f->dst_dir, f->dst_name, f->dst_rel, &h.side[1]);
  *size = n;
  return buf;
}

/* A copy starts on another rank: start the clock of --progress and
   --stats on rank 0, as a copy there would, which rank 0 may never
   make itself.  */
static void
copy_starts (void)
{
  struct xfer_sink *sink = job_opts->xfer.sink;
  if (sink)
    sink->begin (sink);
}

/* Send F to the least busy rank; but leave F to the walk when every
   rank has SLOTS_PER_RANK files already, and a whole file when every
   other rank is walking a subtree, which it would finish before taking
   the file.  Rank 0 used to wait for a free slot instead: it then sent
   three files in four of a tree of 12,000 small ones, each costing two
   messages and a rank's wake-up, and slept while the ranks copied; the
   tree took 0.33 s on 4 ranks, and 0.29 s copying instead.  The ranks
   it leaves idle ask for work, and get subtrees.  */
static bool
send_file (struct remote_file const *f)
{
  take_ready_answers ();
  int r = least_busy (f->split != NULL);
  if (r < 0 || busy[r] == SLOTS_PER_RANK)
    return false;
  int slot = (r - 1) * SLOTS_PER_RANK;
  while (slots[slot].token)
    slot++;
  int size;
  char *buf = task_message (f, slot, false, &size);
  struct slot *s = &slots[slot];
  s->token = f->token;
  s->range = f->split ? f->range : -1;
  s->buf = buf;
  MPI_Isend (buf, size, MPI_BYTE, r, TAG_TASK, MPI_COMM_WORLD, &s->req);
  copy_starts ();
  busy[r]++;
  in_flight++;
  return true;
}

/* The message that sends D as the subtree of gift SLOT; set *SIZE to
   its size.  */
static char *
dir_message (struct remote_dir const *d, int slot, int *size)
{
  struct task_head h = { .slot = slot, .src_st = *d->src_st, .range = -1,
                         .dst_st = *d->dst_st, .gift = true, .dir = true,
                         .top_dev = d->top_dev, .made_len = d->made_len };
  size_t made = d->made_len * sizeof *d->made;
  size_t n = sizeof h + made;
  n += side_measure (d->src_dir, d->src_name, d->src_rel, &h.side[0]);
  n += side_measure (d->dst_dir, d->dst_name, d->dst_rel, &h.side[1]);
  n += strlen (d->top_src) + 1 + strlen (d->top_dst) + 1;
  if (INT_MAX < n)
    error (EXIT_FAILURE, 0, _("names too long to send to another rank: %s"),
           quoteaf (d->src_name));
  char *buf = xmalloc (n);
  memcpy (buf, &h, sizeof h);
  char *p = buf + sizeof h;
  if (made)
    memcpy (p, d->made, made);
  p = side_put (p + made, d->src_dir, d->src_name, d->src_rel, &h.side[0]);
  p = side_put (p, d->dst_dir, d->dst_name, d->dst_rel, &h.side[1]);
  stpcpy (stpcpy (p, d->top_src) + 1, d->top_dst);
  *size = n;
  return buf;
}

/* A free gift slot.  */
static int
gift_slot (void)
{
  for (idx_t i = 0; i < n_gifts; i++)
    if (!gifts[i].token)
      return i;
  idx_t old = n_gifts;
  gifts = xpalloc (gifts, &n_gifts, 1, INT_MAX, sizeof *gifts);
  for (idx_t i = old; i < n_gifts; i++)
    gifts[i].token = NULL;
  return old;
}

/* The rank that has asked this one for work with TAG, its request
   taken; -1 if none has.  */
static int
take_request (int tag)
{
  MPI_Status status;
  if (!message_there (tag, &status))
    return -1;
  take_empty (&status);
  return status.MPI_SOURCE;
}

/* Send rank TO the message BUF of SIZE bytes, the gift of slot SLOT:
   the walk's TOKEN, and RANGE, or -1 for a subtree or a whole
   file.  */
static void
send_gift (int to, int slot, char *buf, int size, void *token,
           intmax_t range)
{
  struct gift *g = &gifts[slot];
  g->buf = buf;
  g->token = token;
  g->range = range;
  MPI_Isend (buf, size, MPI_BYTE, to, TAG_TASK, MPI_COMM_WORLD, &g->req);
  copy_starts ();
  gifts_out++;
}

/* The rank to give a subtree to: the one being sent files, unless it
   asked while waiting for answers, in the middle of a walk of its own,
   else one that has asked for work, its request taken; -1 if none
   has.  */
static int
taker (void)
{
  if (fed < 0 || fed_waiting)
    return take_request (TAG_STEAL);
  int to = fed;
  fed = -1;
  return to;
}

/* If a rank has asked for work, send it the subtree D.  */
static bool
give_dir (struct remote_dir const *d)
{
  refuse_help ();
  int to = taker ();
  if (to < 0)
    return false;
  int slot = gift_slot ();
  int size;
  char *buf = dir_message (d, slot, &size);
  send_gift (to, slot, buf, size, d->token, -1);
  if (rank == 0)
    walking[to]++;
  return true;
}

/* If a rank has asked for work, send it F, a file or a range of a
   large file that a rank given a subtree met; else leave it to this
   rank.  Whole files go too, not only subdirectories: a rank given a
   directory of 2,000 files and no subdirectory otherwise copied them
   all while the others, having asked it for work, waited.  A rank
   that asks is sent the next SLOTS_PER_RANK files or ranges, the last
   of which answers its request, so that it has its next file when one
   is copied, rather than wait for this rank to look for requests
   between two of its own copies: with each create taking a
   millisecond, 4 ranks then took 1.0 s for that directory instead of
   1.2 s with a file for each request, or 2.3 s keeping the files (0.8
   s once rank 0, waiting, asked for files too).  The answers to
   earlier gifts are taken first, so that a directory's gifts hold few
   slots and buffers.  */
static bool
give_file (struct remote_file const *f)
{
  serve_ranks ();
  if (fed < 0)
    {
      fed_waiting = false;
      fed = take_request (TAG_STEAL);
      if (fed < 0)
        {
          fed_waiting = true;
          fed = take_request (TAG_HELP);
        }
      if (fed < 0)
        return false;
      fed_left = SLOTS_PER_RANK;
    }
  take_ready_answers ();
  int to = fed;
  bool last = --fed_left == 0;
  if (last)
    fed = -1;
  int slot = gift_slot ();
  int size;
  char *buf = task_message (f, slot, last, &size);
  send_gift (to, slot, buf, size, f->token, f->split ? f->range : -1);
  return true;
}

static bool
link_answer_there (void *arg)
{
  refuse_help ();
  return link_answered;
}

/* Ask the owner of SRC_ST's device and inode whether DST_NAME is its
   first copy, and wait for the answer: NULL if it is, else the name
   to link to.  */
static char *
first_copy (struct stat const *src_st, char const *dst_name)
{
  int owner = owner_of (src_st->st_dev, src_st->st_ino);
  link_answered = false;
  if (owner == rank)
    owner_ask (src_st->st_dev, src_st->st_ino, rank, xstrdup (dst_name));
  else
    {
      struct link_head h = { src_st->st_dev, src_st->st_ino };
      size_t n = sizeof h + strlen (dst_name) + 1;
      if (INT_MAX < n)
        error (EXIT_FAILURE, 0, _("names too long to send to another rank: %s"),
               quoteaf (dst_name));
      char *msg = xmalloc (n);
      memcpy (msg, &h, sizeof h);
      strcpy (msg + sizeof h, dst_name);
      send_now (msg, n, owner, TAG_LINK_ASK);
      free (msg);
    }
  idle_until (link_answer_there, NULL);
  return link_target;
}

/* Tell the owner of SRC_ST's device and inode that its first copy,
   made here, is over, whole if OK.  */
static void
first_done (struct stat const *src_st, bool ok)
{
  int owner = owner_of (src_st->st_dev, src_st->st_ino);
  if (owner == rank)
    {
      owner_done (src_st->st_dev, src_st->st_ino, ok);
      return;
    }
  struct link_head h = { src_st->st_dev, src_st->st_ino, ok };
  send_now (&h, sizeof h, owner, TAG_LINK_DONE);
}

static struct copy_remote const mpi_remote =
  { send_file, wait_answer, give_dir, serve_ranks, first_copy, first_done };

/* A rank given a subtree copies its files itself, but for the files,
   ranges of large ones and subdirectories that it gives ranks asking
   for work.  */
static struct copy_remote const subtree_remote =
  { give_file, wait_answer, give_dir, serve_ranks, first_copy, first_done };

/* Tell every other rank to stop.  */
static void
stop_ranks (void)
{
  for (int r = 1; r < n_ranks; r++)
    MPI_Send (NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
  serving = false;
}

static bool
round_over (void *arg)
{
  return round_req == MPI_REQUEST_NULL;
}

/* End this rank's rounds, once it has copied all it will, with the
   others': MPI wants every collective seen through before the process
   ends, and each rank may have started one round more than another.
   So the ranks agree on how many were started, on MPI_COMM_WORLD (on
   their own communicator, the rounds of a rank ahead would meet
   another's agreement), each starts those it has not, and then one
   more, which, started by all once they are done, brings every rank's
   final figures to ROUND_ALL.  */
static void
rounds_end (void)
{
  rounds_on = false;
  int most;
  MPI_Request req;
  MPI_Iallreduce (&rounds, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
  await_request (&req);
  while (rounds <= most)
    {
      idle_until (round_over, NULL);
      round_start ();
    }
  idle_until (round_over, NULL);
}

/* Descriptors of the standard output and error, while the other
   ranks' go nowhere.  */
static int saved_out = -1;
static int saved_err = -1;

/* Send this rank's standard output and error to /dev/null while it
   parses the command line: rank 0 says all there is to say about it,
   --help and --version included, once.  */
static void
silence_output (void)
{
  saved_out = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  saved_err = fcntl (STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
  int null = open ("/dev/null", O_WRONLY);
  if (saved_out < 0 || saved_err < 0 || null < 0
      || dup2 (null, STDOUT_FILENO) < 0 || dup2 (null, STDERR_FILENO) < 0)
    error (EXIT_FAILURE, errno, _("cannot redirect rank %d's output"), rank);
  /* Closing a descriptor of /dev/null can't lose anything.  */
  close (null);
}

static void
restore_output (void)
{
  if (dup2 (saved_out, STDOUT_FILENO) < 0
      || dup2 (saved_err, STDERR_FILENO) < 0)
    error (EXIT_FAILURE, errno, _("cannot restore rank %d's output"), rank);
  /* The copies were kept only to be put back.  */
  close (saved_out);
  close (saved_err);
}

/* Leave MPI whichever way the process exits.  A rank that exits while
   files are in flight, to it or from it, aborts the job: what was
   being copied is left as an interrupted cp would leave it.  */
static void
remote_exit (void)
{
  int done;
  MPI_Finalized (&done);
  if (done)
    return;
  if (serving && (rank != 0 || in_flight || gifts_out))
    MPI_Abort (MPI_COMM_WORLD, EXIT_FAILURE);
  if (serving)
    {
      stop_ranks ();
      rounds_end ();
    }
  MPI_Finalize ();
}

/* Make a rank other than 0 ignore SIGUSR1, whose default action would
   end it and so the whole job: the line the signal asks for is rank
   0's, which counts what every rank copied, and a USR1 sent to every
   process of the job, or forwarded by mpirun, must not cost the copy.  */
static void
ignore_info_signal (void)
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

/* Set *COMM to a duplicate of MPI_COMM_WORLD, as idle_until would
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
  long pause = PAUSE_MIN_NS;
  while (!request_done (&req))
    pause_longer (&pause);
}

void
remote_init (int *argc, char ***argv)
{
  keep_cpu_when_looking ();
  struct fd_list inherited = { NULL, 0, 0 };
  bool listed = each_open_fd (fd_list_add, &inherited);
  MPI_Init (argc, argv);
  /* Without a list of what was inherited, none can be told from the
     runtime's.  */
  if (listed)
    runtime_without_delay (&inherited);
  free (inherited.fd);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &n_ranks);
  dup_world (&round_comm);
  round_all = xcalloc (n_ranks, sizeof *round_all);
  atexit (remote_exit);
  if (rank != 0)
    {
      ignore_info_signal ();
      silence_output ();
    }
}

/* An open directory of a serving rank, kept for the next file in it,
   as the walk sends a directory's files one after another.  */
struct held_dir
{
  int fd;
  dev_t dev;
  ino_t ino;
};

/* The directory the name NAME is in, up to REL_AT, for messages.  */
static char *
dir_name (char const *name, uint32_t rel_at)
{
  size_t n = rel_at;
  while (1 < n && name[n - 1] == '/')
    n--;
  return ximemdup0 (name, n);
}

/* Open the directory REL in DIR (the working directory if AT_FDCWD),
   not following a symbolic link unless FOLLOW; one that can be
   searched but not read will do, to open and create files in it.  */
static int
open_dir (int dir, char const *rel, bool follow)
{
  bool search_only;
  return walk_open_dir (dir, rel, follow, true, &search_only);
}

/* Open the directory of one end of a file, as H and the strings ROOT
   and PATH say, the entries below the operand as links only if
   FOLLOW, into HELD.  Return false after a diagnostic about NAME's
   directory if it can't be, or is not the directory the walk had
   open.  */
static bool
open_side (struct side_head const *h, char const *root, char const *path,
           char const *name, bool follow, struct held_dir *held)
{
  if (!*root)
    {
      *held = (struct held_dir) { .fd = AT_FDCWD };
      return true;
    }
  if (0 <= held->fd && held->dev == h->dir_dev && held->ino == h->dir_ino)
    return true;
  if (0 <= held->fd)
    close (held->fd);
  held->fd = -1;

  int fd = open_dir (AT_FDCWD, root, true);
  char *below = xstrdup (path);
  for (char *p = below, *next; 0 <= fd && *p; p = next)
    {
      char *slash = strchr (p, '/');
      next = slash ? slash + 1 : p + strlen (p);
      if (slash)
        *slash = '\0';
      int sub = open_dir (fd, p, follow);
      int e = errno;
      close (fd);
      fd = sub;
      errno = e;
    }
  free (below);

  struct stat st;
  bool opened = 0 <= fd && fstat (fd, &st) == 0;
  /* Taken before dir_name's allocation, which may change errno.  */
  int err = errno;
  char *dir = dir_name (name, h->rel_at);
  bool ok = copy_remote_same_dir (dir, opened, err, &st, h->dir_dev,
                                  h->dir_ino);
  free (dir);
  if (!ok)
    {
      if (0 <= fd)
        close (fd);
      return false;
    }
  *held = (struct held_dir) { fd, st.st_dev, st.st_ino };
  return true;
}

/* The sink of a rank other than 0, which counts what it copies for
   the rounds.  */
static void
rank_begin (struct xfer_sink *sink)
{
}

static void
rank_bytes (struct xfer_sink *sink, off_t n)
{
  copied.bytes += n;
  /* A file may take long to copy, and rank 0 would show none of it
     until the next look for messages.  */
  round_poll ();
}

static void
rank_end (struct xfer_sink *sink, struct xfer_report const *report,
          bool ok)
{
  if (ok)
    xfer_counts_file (&copied, report);
}

static struct xfer_sink rank_sink = { rank_begin, rank_bytes, rank_end };

/* The directories a serving rank holds open: the source's, then the
   copy's.  */
static struct held_dir held_dirs[2] = { { .fd = -1 }, { .fd = -1 } };

/* Close the directories this rank held open for the files sent to
   it.  */
static void
close_held_dirs (void)
{
  /* Closing a directory only looked up in can't lose anything.  */
  for (int i = 0; i < 2; i++)
    if (0 <= held_dirs[i].fd)
      close (held_dirs[i].fd);
}

/* Copy the file, or the range of a file, that the message BUF
   describes, with the options X; return whether all went well, and
   set *SAID to what was said and *REPORT to how a range was copied,
   for the file's report on rank 0.  */
static bool
copy_sent_file (char const *buf, struct held_errors *said,
                struct xfer_report *report, struct cp_options const *x)
{
  *report = (struct xfer_report) { .method = XFER_METHOD_READ };
  struct task_head h;
  memcpy (&h, buf, sizeof h);
  char const *p = buf + sizeof h;
  char const *names[2];
  *said = (struct held_errors) { NULL, 0 };
  /* A rank walking a subtree, whose diagnostics are held for its
     answer, copies files sent to it while it waits.  */
  struct held_errors *outer = error_hold (said);
  for (int i = 0; i < 2; i++)
    {
      char const *root = p;
      char const *path = root + h.side[i].root_len + 1;
      names[i] = path + h.side[i].path_len + 1;
      p = names[i] + h.side[i].name_len + 1;
      /* Links are followed only as the walk did: the source's with
         -L, the destination's with --keep-directory-symlink.  */
      bool follow = (i == 0 ? x->dereference == CP_DEREF_ALWAYS
                     : follows_dest_dir_links (x));
      if (!open_side (&h.side[i], root, path, names[i], follow,
                      &held_dirs[i]))
        {
          error_hold (outer);
          return false;
        }
    }
  struct remote_at f = { held_dirs[0].fd, names[0],
                         names[0] + h.side[0].rel_at, h.src_st, h.follow,
                         held_dirs[1].fd, names[1],
                         names[1] + h.side[1].rel_at, h.dst_st };
  if (h.range < 0)
    {
      bool ok = copy_remote_file (&f, x);
      error_hold (outer);
      return ok;
    }
  error_hold (outer);
  free (said->text);
  return copy_remote_range (&f, h.chunk, h.ranges, h.direct, h.range, said,
                            report, x);
}

/* Copy the subtree that the message BUF describes, with the options
   X; return whether all went well, and set *SAID to what was said.  */
static bool
copy_sent_dir (char const *buf, struct held_errors *said,
               struct cp_options const *x)
{
  struct task_head h;
  memcpy (&h, buf, sizeof h);
  char const *p = buf + sizeof h;
  struct remote_inode *made = xinmalloc (h.made_len, sizeof *made);
  memcpy (made, p, h.made_len * sizeof *made);
  p += h.made_len * sizeof *made;
  struct remote_path sides[2];
  char const *names[2];
  for (int i = 0; i < 2; i++)
    {
      sides[i].root = p;
      sides[i].path = p + h.side[i].root_len + 1;
      sides[i].dir_dev = h.side[i].dir_dev;
      sides[i].dir_ino = h.side[i].dir_ino;
      names[i] = sides[i].path + h.side[i].path_len + 1;
      p = names[i] + h.side[i].name_len + 1;
    }
  char const *top_src = p;
  char const *top_dst = top_src + strlen (top_src) + 1;
  struct remote_dir d = { NULL, NULL, names[0], names[0] + h.side[0].rel_at,
                          names[1], names[1] + h.side[1].rel_at, &h.src_st,
                          &h.dst_st, NULL, top_src, top_dst, h.top_dev,
                          made, h.made_len };
  *said = (struct held_errors) { NULL, 0 };
  error_hold (said);
  bool ok = copy_remote_dir (&d, &sides[0], &sides[1], x);
  end_feeding ();
  error_hold (NULL);
  free (made);
  return ok;
}

/* Copy the subtree the message BUF from rank FROM describes and
   answer FROM with how it went and what was said.  */
static void
answer_dir (char const *buf, int from, struct cp_options const *x)
{
  struct task_head h;
  memcpy (&h, buf, sizeof h);
  struct held_errors said;
  struct dir_answer_head a = { h.slot };
  /* mpirun forwards the ranks' output in pieces that may cut lines:
     the -v lines of a subtree go to its giver with the answer, and so
     up to rank 0, which alone writes them.  */
  FILE *out = stdout;
  char *text;
  size_t text_len;
  stdout = open_memstream (&text, &text_len);
  if (!stdout)
    error (EXIT_FAILURE, errno, _("cannot hold the standard output"));
  a.ok = copy_sent_dir (buf, &said, x);
  if (fclose (stdout) != 0)
    error (EXIT_FAILURE, errno, _("cannot hold the standard output"));
  stdout = out;
  a.said_len = said.len;
  size_t n = sizeof a + said.len + text_len;
  if (INT_MAX < n)
    error (EXIT_FAILURE, 0, _("too many messages to send to another rank"));
  char *msg = xmalloc (n);
  memcpy (msg, &a, sizeof a);
  if (said.len)
    memcpy (msg + sizeof a, said.text, said.len);
  memcpy (msg + sizeof a + said.len, text, text_len);
  free (text);
  free (said.text);
  send_now (msg, n, from, TAG_DIR_DONE);
  free (msg);
}

/* Copy what the message BUF from rank FROM describes and answer FROM
   with how it went and what was said.  */
static void
answer (char const *buf, int from, struct cp_options const *x)
{
  struct task_head h;
  memcpy (&h, buf, sizeof h);
  struct held_errors said;
  struct answer_head a = { h.slot };
  a.ok = copy_sent_file (buf, &said, &a.report, x);
  size_t n = sizeof a + said.len;
  char *msg = xmalloc (n);
  memcpy (msg, &a, sizeof a);
  if (said.len)
    memcpy (msg + sizeof a, said.text, said.len);
  free (said.text);
  send_later (msg, n, from, TAG_ANSWER);
}

/* The rank an idle rank asks for work after VICTIM refused: each
   other rank in turn, from rank 0, which walks from the start.  */
static int
next_victim (int victim)
{
  victim = (victim + 1) % n_ranks;
  return victim == rank ? (victim + 1) % n_ranks : victim;
}

/* On a rank other than 0: ask the others for work while it has none,
   copy the files and ranges sent to it and the subtrees given, until
   rank 0 says to stop, then exit.  */
static _Noreturn void
serve (struct cp_options const *x)
{
  serving = true;
  int victim = 0;
  bool asked = false;
  long pause = PAUSE_MIN_NS;
  for (;;)
    {
      if (!asked)
        {
          send_empty (victim, TAG_STEAL);
          asked = true;
        }
      MPI_Status status;
      await_message (MPI_ANY_SOURCE, MPI_ANY_TAG, &status);
      int from = status.MPI_SOURCE;
      if (link_tag (status.MPI_TAG))
        {
          take_link_message (&status);
          continue;
        }
      if (status.MPI_TAG == TAG_STEAL || status.MPI_TAG == TAG_HELP)
        {
          take_empty (&status);
          send_empty (from, TAG_NOWORK);
          continue;
        }
      if (status.MPI_TAG == TAG_NOWORK)
        {
          take_empty (&status);
          asked = false;
          victim = next_victim (victim);
          if (victim == 0)
            pause_longer (&pause);
          continue;
        }
      int n;
      char *buf = take_message (&status, &n);
      bool stop = status.MPI_TAG == TAG_STOP;
      if (!stop)
        {
          struct task_head h;
          memcpy (&h, buf, sizeof h);
          pause = PAUSE_MIN_NS;
          if (h.gift)
            asked = false;
          if (h.dir)
            answer_dir (buf, from, x);
          else
            answer (buf, from, x);
        }
      free (buf);
      if (stop)
        break;
    }
  /* Every question was answered before rank 0 said to stop, but MPI
     must see each send through before the process ends.  */
  idle_until (replies_gone, NULL);
  rounds_end ();
  close_held_dirs ();
  serving = false;
  exit (EXIT_SUCCESS);
}

void
remote_start (struct cp_options *x)
{
  if (rank != 0)
    {
      restore_output ();
      x->xfer.sink = &rank_sink;
      job_opts = x;
      rounds_on = true;
      copy_use_remote (&subtree_remote, x);
      serve (x);
    }
  job_opts = x;
  if (n_ranks < 2)
    return;
  rounds_on = true;
  slots = xcalloc (n_ranks * SLOTS_PER_RANK, sizeof *slots);
  busy = xcalloc (n_ranks, sizeof *busy);
  walking = xcalloc (n_ranks, sizeof *walking);
  next_rank = 1;
  serving = true;
  x->jobs = 1;
  copy_use_remote (&mpi_remote, x);
}

void
remote_finish (void)
{
  if (serving)
    {
      while (in_flight || gifts_out)
        wait_answer ();
      idle_until (replies_gone, NULL);
      stop_ranks ();
      rounds_end ();
      close_held_dirs ();
    }
  xfer_session_ranks (&job_opts->xfer, round_all + 1, n_ranks - 1);
}
