/* mpicp-links.c -- hard links kept across mpicp's ranks.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Each (device, inode) belongs to one rank (owner_of, a hash).  A rank
   meeting a file with other links asks its owner (itself, without a
   message) whether its name is the first copy; the owner answers "copy
   it" to the first, and to the others, once that copy is over, "link
   to" its name, or, if it failed, "copy it" to the next, which copies
   afresh as cp does.  Every wait (mpicp_idle_until) and every step of a
   walk between two entries answers the questions this rank owns, so
   that one waits at most for a file's copy.  */

#include <config.h>

#include "system.h"
#include "mpicp-links.h"

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

/* The rank of N_RANKS that owns DEV and INO: spread evenly, whatever
   the inodes' numbering.  */
static int
owner_of (dev_t dev, ino_t ino, int n_ranks)
{
  uint64_t h = ((uint64_t) dev * 0x9E3779B97F4A7C15u) ^ ino;
  h *= 0xBF58476D1CE4E5B9u;
  return (h >> 32) % n_ranks;
}

/* Tell rank TO to copy its file (TARGET NULL) or to link it to
   TARGET.  */
static void
link_reply (struct remote_job *j, int to, char const *target)
{
  if (to == j->rank)
    {
      j->links.target = target ? xstrdup (target) : NULL;
      j->links.answered = true;
      return;
    }
  size_t n;
  char *msg = mpicp_pack_link_reply (target, &n);
  mpicp_send_later (&j->replies, msg,
                    mpicp_message_size (n, target ? target : ""), to,
                    TAG_LINK_REPLY);
}

/* As the owner of DEV and INO: rank FROM asks whether NAME is the
   first copy.  NAME is taken.  */
static void
owner_ask (struct remote_job *j, dev_t dev, ino_t ino, int from, char *name)
{
  struct mpicp_links *links = &j->links;
  if (!links->owned)
    links->owned = hash_initialize (0, NULL, owned_hash, owned_equal, NULL);
  struct owned key = { .dev = dev, .ino = ino };
  struct owned *o = hash_lookup (links->owned, &key);
  if (!o)
    {
      o = xmemdup (&key, sizeof key);
      if (!hash_insert (links->owned, o))
        xalloc_die ();
    }
  if (o->state == OWNED_OK)
    {
      link_reply (j, from, o->name);
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
      link_reply (j, from, NULL);
    }
}

/* As the owner of DEV and INO: its first copy is over, whole if OK.
   The ranks waiting link to it, or, if it failed, the first of them
   makes the copy afresh, as cp does with the next name.  Return false
   if this rank was never asked about the file.  */
static bool
owner_done (struct remote_job *j, dev_t dev, ino_t ino, bool ok)
{
  struct owned key = { .dev = dev, .ino = ino };
  struct owned *o = (j->links.owned ? hash_lookup (j->links.owned, &key)
                     : NULL);
  if (!o)
    return false;
  if (ok)
    {
      o->state = OWNED_OK;
      for (idx_t i = 0; i < o->n_waiters; i++)
        {
          link_reply (j, o->waiters[i].rank, o->name);
          free (o->waiters[i].name);
        }
      o->n_waiters = 0;
      return true;
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
      link_reply (j, w.rank, NULL);
    }
  return true;
}

/* Whether TAG is that of a message about links.  */
bool
mpicp_is_link_tag (int tag)
{
  return TAG_LINK_ASK <= tag && tag <= TAG_LINK_DONE;
}

/* Act on the message about links that STATUS announces.  */
void
mpicp_handle_link_message (struct remote_job *j, MPI_Status const *status)
{
  int n;
  char *buf = mpicp_receive (status, &n);
  int from = status->MPI_SOURCE;
  struct mpicp_link l;
  bool ok;
  switch (status->MPI_TAG)
    {
    case TAG_LINK_REPLY:
      ok = mpicp_unpack_link_reply (buf, n, &j->links.target);
      j->links.answered = true;
      break;
    case TAG_LINK_ASK:
      ok = mpicp_unpack_link_ask (buf, n, &l);
      if (ok)
        owner_ask (j, l.dev, l.ino, from, l.name);
      break;
    default:
      ok = (mpicp_unpack_link_done (buf, n, &l)
            && owner_done (j, l.dev, l.ino, l.ok));
      break;
    }
  if (!ok)
    mpicp_malformed (from);
  free (buf);
}

static bool
link_answer_there (void *arg)
{
  struct remote_job *j = arg;
  mpicp_refuse_help (j);
  return j->links.answered;
}

/* Ask the owner of SRC_ST's device and inode whether DST_NAME is its
   first copy, and wait for the answer: NULL if it is, else the name
   to link to.  */
char *
mpicp_first_copy (struct remote_job *j, struct stat const *src_st,
                  char const *dst_name)
{
  int owner = owner_of (src_st->st_dev, src_st->st_ino, j->n_ranks);
  j->links.answered = false;
  if (owner == j->rank)
    owner_ask (j, src_st->st_dev, src_st->st_ino, j->rank,
               xstrdup (dst_name));
  else
    {
      struct mpicp_link l = { src_st->st_dev, src_st->st_ino, false,
                              (char *) dst_name };
      size_t n;
      char *msg = mpicp_pack_link_ask (&l, &n);
      mpicp_send_now (j, msg, mpicp_message_size (n, dst_name), owner,
                      TAG_LINK_ASK);
      free (msg);
    }
  mpicp_idle_until (j, link_answer_there, j);
  return j->links.target;
}

/* Tell the owner of SRC_ST's device and inode that its first copy,
   made here, is over, whole if OK.  */
void
mpicp_first_done (struct remote_job *j, struct stat const *src_st, bool ok)
{
  int owner = owner_of (src_st->st_dev, src_st->st_ino, j->n_ranks);
  if (owner == j->rank)
    {
      owner_done (j, src_st->st_dev, src_st->st_ino, ok);
      return;
    }
  struct mpicp_link l = { src_st->st_dev, src_st->st_ino, ok, NULL };
  size_t n;
  char *msg = mpicp_pack_link_done (&l, &n);
  mpicp_send_now (j, msg, n, owner, TAG_LINK_DONE);
  free (msg);
}
