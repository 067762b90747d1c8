/* mpicp-work.c -- the files, ranges and subtrees mpicp's ranks send
   one another, and their answers.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "mpicp-work.h"

#include "copy-report.h"

/* Set up SLOTS for N_RANKS ranks, all free.  */
void
mpicp_slots_init (struct mpicp_slots *slots, int n_ranks)
{
  slots->slot = xcalloc (n_ranks * MPICP_SLOTS_PER_RANK, sizeof *slots->slot);
  slots->busy = xcalloc (n_ranks, sizeof *slots->busy);
  slots->walking = xcalloc (n_ranks, sizeof *slots->walking);
  slots->next_rank = 1;
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

/* Set *S to the end of a task that is the entry REL of the directory
   DIR (NULL for an operand), whose whole name is NAME.  */
static void
side_of (struct walk_dir const *dir, char const *name, char const *rel,
         struct mpicp_side *s)
{
  if (!dir)
    {
      *s = (struct mpicp_side) { .root = "", .path = "", .name = name };
      return;
    }
  char const *path = below_root (dir, name, rel);
  *s = (struct mpicp_side) { dir->dev, dir->ino, walk_root (dir)->rel, path,
                             path < rel ? rel - 1 - path : 0, name,
                             rel - name };
}

/* The rank from 1 on of the N_RANKS with the fewest files in SLOTS,
   the first from its next rank on among equals, of those not walking
   a subtree rank 0 gave them unless ANY; -1 if there is none.  */
static int
least_busy (struct mpicp_slots *slots, int n_ranks, bool any)
{
  int best = -1;
  for (int i = 0; i < n_ranks - 1; i++)
    {
      int r = 1 + (slots->next_rank - 1 + i) % (n_ranks - 1);
      if ((any || !slots->walking[r])
          && (best < 0 || slots->busy[r] < slots->busy[best]))
        best = r;
    }
  if (0 <= best)
    slots->next_rank = 1 + best % (n_ranks - 1);
  return best;
}

/* Free S, a slot now answered, and set *TOKEN and *RANGE to what it
   held.  */
static void
end_slot (struct remote_job *j, struct mpicp_slot *s, void **token,
          intmax_t *range)
{
  mpicp_await_request (j, &s->req);
  free (s->buf);
  *token = s->token;
  *range = s->range;
  s->token = NULL;
}

/* Free the handout SLOT, now answered by rank FROM, and set *TOKEN
   and *RANGE to what it was.  */
static void
end_handout (struct remote_job *j, uint32_t slot, int from, void **token,
             intmax_t *range)
{
  struct mpicp_handouts *handouts = &j->handouts;
  if (handouts->n <= slot || !handouts->slot[slot].token)
    mpicp_malformed (from);
  end_slot (j, &handouts->slot[slot], token, range);
  handouts->out--;
}

/* Free the slot SLOT of a file or range sent to rank FROM, now
   answered, and set *TOKEN and *RANGE to what it was: on rank 0, one
   of the slots of files sent; elsewhere, a handout.  */
static void
end_sent (struct remote_job *j, uint32_t slot, int from, void **token,
          intmax_t *range)
{
  if (j->rank != 0)
    {
      end_handout (j, slot, from, token, range);
      return;
    }
  struct mpicp_slots *slots = &j->slots;
  if (slot / MPICP_SLOTS_PER_RANK != from - 1 || !slots->slot[slot].token)
    mpicp_malformed (from);
  end_slot (j, &slots->slot[slot], token, range);
  slots->busy[from]--;
  slots->in_flight--;
}

/* The LEN bytes of diagnostics at P, copied to be printed later.  */
static struct held_errors
said_copy (char const *p, idx_t len)
{
  return (struct held_errors) { len ? ximemdup (p, len) : NULL, len };
}

/* Receive the answer that STATUS announces, print its diagnostics and
   end its file's piece of the walk's group.  */
static void
take_answer (struct remote_job *j, MPI_Status const *status)
{
  int n;
  char *buf = mpicp_receive (status, &n);
  struct mpicp_answer a;
  if (!mpicp_unpack_answer (buf, n, &a))
    mpicp_malformed (status->MPI_SOURCE);
  void *token;
  intmax_t range;
  end_sent (j, a.slot, status->MPI_SOURCE, &token, &range);
  struct held_errors said = said_copy (a.said, a.said_len);
  copy_hash_put (j->opts, a.hashes, a.hashes_len);
  if (!copy_report_put (j->opts->report, a.records, a.records_len))
    mpicp_malformed (status->MPI_SOURCE);
  free (buf);
  copy_remote_ended (token, range, a.ok, &said, &a.report);
}

/* Receive the answer to a subtree that STATUS announces, print its
   diagnostics and end its piece of the walk's group.  */
static void
take_dir_answer (struct remote_job *j, MPI_Status const *status)
{
  int n;
  char *buf = mpicp_receive (status, &n);
  struct mpicp_dir_answer a;
  int from = status->MPI_SOURCE;
  if (!mpicp_unpack_dir_answer (buf, n, &a))
    mpicp_malformed (from);
  void *token;
  intmax_t range;
  end_handout (j, a.slot, from, &token, &range);
  if (j->rank == 0)
    j->slots.walking[from]--;
  struct held_errors said = said_copy (a.said, a.said_len);
  if (a.out_len && fwrite (a.out, 1, a.out_len, stdout) != a.out_len)
    error (EXIT_FAILURE, errno, _("write error"));
  copy_hash_put (j->opts, a.hashes, a.hashes_len);
  if (!copy_report_put (j->opts->report, a.records, a.records_len))
    mpicp_malformed (from);
  free (buf);
  copy_remote_dir_ended (token, a.ok, &said);
}

/* Take the answers already there, to files and to subtrees, and
   return whether there was one: so that directories are finished and
   their descriptors closed as early as can be, and a rank done with
   its subtree is sent files again.  */
static bool
take_ready_answers (struct remote_job *j)
{
  bool took = false;
  MPI_Status status;
  for (;;)
    {
      if (mpicp_message_there (TAG_ANSWER, &status))
        take_answer (j, &status);
      else if (mpicp_message_there (TAG_DIR_DONE, &status))
        take_dir_answer (j, &status);
      else
        return took;
      took = true;
    }
}

/* Refuse the ranks asking for work, as a rank waiting for answers has
   none to give.  */
static void
refuse_requests (struct remote_job *j)
{
  mpicp_answer_asker (j);
  mpicp_refuse (j, TAG_STEAL);
  mpicp_refuse (j, TAG_HELP);
}

/* Copy the files and ranges sent to this rank while it waits, and
   take the refusal of the rank it asked; return whether there was
   any.  A file may come from rank 0 too, which sends files to a rank
   walking a subtree that another rank gave it.  */
static bool
took_help (struct remote_job *j)
{
  struct mpicp_help *help = &j->help;
  bool took = false;
  MPI_Status status;
  for (;;)
    {
      if (0 <= help->asked && mpicp_probe (help->asked, TAG_NOWORK, &status))
        {
          mpicp_receive_empty (&status);
          help->asked = -1;
        }
      else if (mpicp_message_there (TAG_TASK, &status))
        {
          int n;
          char *buf = mpicp_receive (&status, &n);
          bool answers_request;
          mpicp_answer_task (j, buf, n, status.MPI_SOURCE, &answers_request);
          if (answers_request && status.MPI_SOURCE == help->asked)
            help->asked = -1;
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
ask_help (struct remote_job *j)
{
  int askable = j->n_ranks - 1 - (j->rank != 0);	/* from 1 on, but this */
  if (askable == 0)
    return;
  int r = j->help.last;
  do
    r = r % (j->n_ranks - 1) + 1;
  while (r == j->rank);
  j->help.last = j->help.asked = r;
  mpicp_send_empty (j, r, TAG_HELP);
}

/* A wait for answers, and whether one came.  */
struct answer_wait
{
  struct remote_job *j;
  bool took;
};

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
  struct answer_wait *w = arg;
  struct remote_job *j = w->j;
  refuse_requests (j);
  w->took |= take_ready_answers (j);
  w->took |= took_help (j);
  if (w->took && j->help.asked < 0)
    return true;
  if (j->help.asked < 0)
    ask_help (j);
  return false;
}

void
mpicp_wait_answer (struct remote_job *j)
{
  struct answer_wait w = { j, false };
  mpicp_idle_until (j, took_answer, &w);
}

/* The message that sends F as the file of slot SLOT, the last answer
   to a request for work if LAST; set *SIZE to its size.  */
static char *
task_message (struct remote_file const *f, uint32_t slot, bool last,
              int *size)
{
  struct mpicp_task t = { .kind = f->split ? MPICP_RANGE : MPICP_FILE,
                          .answers_request = last, .slot = slot,
                          .follow = f->follow, .src_st = *f->src_st,
                          .range = -1 };
  if (f->split)
    {
      t.range = f->range;
      t.ranges = f->split->ranges;
      t.chunk = f->split->chunk;
      t.direct = f->split->opts.direct;
      t.dst_st = *f->dst_st;
    }
  side_of (f->src_dir, f->src_name, f->src_rel, &t.side[0]);
  side_of (f->dst_dir, f->dst_name, f->dst_rel, &t.side[1]);
  size_t n;
  char *buf = mpicp_pack_task (&t, &n);
  *size = mpicp_message_size (n, f->src_name);
  return buf;
}

/* A copy starts on another rank: start the clock of --progress and
   --stats on rank 0, as a copy there would, which rank 0 may never
   make itself.  */
static void
copy_starts (struct remote_job *j)
{
  struct xfer_sink *sink = j->opts->xfer.sink;
  if (sink)
    sink->begin (sink);
}

/* Send F to the least busy rank; but leave F to the walk when every
   rank has MPICP_SLOTS_PER_RANK files already, and a whole file when every
   other rank is walking a subtree, which it would finish before taking
   the file.  Rank 0 used to wait for a free slot instead: it then sent
   three files in four of a tree of 12,000 small ones, each costing two
   messages and a rank's wake-up, and slept while the ranks copied; the
   tree took 0.33 s on 4 ranks, and 0.29 s copying instead.  The ranks
   it leaves idle ask for work, and get subtrees.  */
bool
mpicp_send_file (struct remote_job *j, struct remote_file const *f)
{
  struct mpicp_slots *slots = &j->slots;
  take_ready_answers (j);
  int r = least_busy (slots, j->n_ranks, f->split != NULL);
  if (r < 0 || slots->busy[r] == MPICP_SLOTS_PER_RANK)
    return false;
  int slot = (r - 1) * MPICP_SLOTS_PER_RANK;
  while (slots->slot[slot].token)
    slot++;
  int size;
  char *buf = task_message (f, slot, false, &size);
  struct mpicp_slot *s = &slots->slot[slot];
  s->token = f->token;
  s->range = f->split ? f->range : -1;
  s->buf = buf;
  MPI_Isend (buf, size, MPI_BYTE, r, TAG_TASK, MPI_COMM_WORLD, &s->req);
  copy_starts (j);
  slots->busy[r]++;
  slots->in_flight++;
  return true;
}

/* The message that sends D as the subtree of handout SLOT; set *SIZE
   to its size.  */
static char *
dir_message (struct remote_dir const *d, uint32_t slot, int *size)
{
  struct mpicp_task t = { .kind = MPICP_SUBTREE, .answers_request = true,
                          .slot = slot, .src_st = *d->src_st, .range = -1,
                          .dst_st = *d->dst_st, .top_dev = d->top_dev,
                          .made = d->made, .made_len = d->made_len,
                          .top_src = d->top_src, .top_dst = d->top_dst };
  side_of (d->src_dir, d->src_name, d->src_rel, &t.side[0]);
  side_of (d->dst_dir, d->dst_name, d->dst_rel, &t.side[1]);
  size_t n;
  char *buf = mpicp_pack_task (&t, &n);
  *size = mpicp_message_size (n, d->src_name);
  return buf;
}

/* A free slot of HANDOUTS.  */
static int
handout_slot (struct mpicp_handouts *handouts)
{
  for (idx_t i = 0; i < handouts->n; i++)
    if (!handouts->slot[i].token)
      return i;
  idx_t old = handouts->n;
  handouts->slot = xpalloc (handouts->slot, &handouts->n, 1, INT_MAX,
                            sizeof *handouts->slot);
  for (idx_t i = old; i < handouts->n; i++)
    handouts->slot[i].token = NULL;
  return old;
}

/* The rank that has asked this one for work with TAG, its request
   taken; -1 if none has.  */
static int
take_request (int tag)
{
  MPI_Status status;
  if (!mpicp_message_there (tag, &status))
    return -1;
  mpicp_receive_empty (&status);
  return status.MPI_SOURCE;
}

/* Send rank TO the handout of slot SLOT, which is to hold HANDOUT: its
   message, of SIZE bytes, the walk's token, and the range, or -1 for
   a subtree or a whole file.  */
static void
send_handout (struct remote_job *j, int to, int slot,
              struct mpicp_slot handout, int size)
{
  struct mpicp_slot *s = &j->handouts.slot[slot];
  *s = handout;
  MPI_Isend (s->buf, size, MPI_BYTE, to, TAG_TASK, MPI_COMM_WORLD, &s->req);
  copy_starts (j);
  j->handouts.out++;
}

/* The rank to give a subtree to: the asker, unless it asked while
   waiting for answers, in the middle of a walk of its own, else one
   that has asked for work, its request taken; -1 if none has.  */
static int
subtree_recipient (struct mpicp_asker *asker)
{
  if (asker->rank < 0 || asker->waiting)
    return take_request (TAG_STEAL);
  int to = asker->rank;
  asker->rank = -1;
  return to;
}

/* If a rank has asked for work, send it the subtree D.  */
bool
mpicp_give_subtree (struct remote_job *j, struct remote_dir const *d)
{
  mpicp_refuse_help (j);
  int to = subtree_recipient (&j->asker);
  if (to < 0)
    return false;
  int slot = handout_slot (&j->handouts);
  int size;
  char *buf = dir_message (d, slot, &size);
  send_handout (j, to, slot,
                (struct mpicp_slot) { .token = d->token, .range = -1,
                                      .buf = buf },
                size);
  if (j->rank == 0)
    j->slots.walking[to]++;
  return true;
}

/* If a rank has asked for work, send it F, a file or a range of a large
   file that a rank given a subtree met; else leave it to this rank.
   Whole files go too, not only subdirectories: a rank given a directory
   of 2,000 files and no subdirectory otherwise copied them all while
   the others, having asked it for work, waited.  A rank that asks is
   sent the next MPICP_SLOTS_PER_RANK files or ranges, the last of which
   answers its request, so that it has its next file when one is copied,
   rather than wait for this rank to look for requests between two of
   its own copies: with each create taking a millisecond, 4 ranks then
   took 1.0 s for that directory instead of 1.2 s with a file for each
   request, or 2.3 s keeping the files (0.8 s once rank 0, waiting,
   asked for files too).  The answers to earlier handouts are taken
   first, so that a directory's handouts hold few slots and buffers.  */
bool
mpicp_give_file (struct remote_job *j, struct remote_file const *f)
{
  struct mpicp_asker *asker = &j->asker;
  mpicp_serve_ranks (j);
  if (asker->rank < 0)
    {
      asker->waiting = false;
      asker->rank = take_request (TAG_STEAL);
      if (asker->rank < 0)
        {
          asker->waiting = true;
          asker->rank = take_request (TAG_HELP);
        }
      if (asker->rank < 0)
        return false;
      asker->left = MPICP_SLOTS_PER_RANK;
    }
  take_ready_answers (j);
  int to = asker->rank;
  bool last = --asker->left == 0;
  if (last)
    asker->rank = -1;
  int slot = handout_slot (&j->handouts);
  int size;
  char *buf = task_message (f, slot, last, &size);
  send_handout (j, to, slot,
                (struct mpicp_slot) { .token = f->token,
                                      .range = f->split ? f->range : -1,
                                      .buf = buf },
                size);
  return true;
}

/* The directory the name NAME is in, up to REL_AT, for messages.  */
static char *
dir_name (char const *name, size_t rel_at)
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

/* Open the directory of the end S of a task, the entries below the
   operand as links only if FOLLOW, into OUT.  Return false after a
   diagnostic about its directory if it can't be, or is not the
   directory the walk had open.  */
static bool
open_side (struct mpicp_side const *s, bool follow,
           struct mpicp_open_dir *out)
{
  if (!*s->root)
    {
      *out = (struct mpicp_open_dir) { .fd = AT_FDCWD };
      return true;
    }
  if (0 <= out->fd && out->dev == s->dir_dev && out->ino == s->dir_ino)
    return true;
  if (0 <= out->fd)
    close (out->fd);
  out->fd = -1;

  int fd = open_dir (AT_FDCWD, s->root, true);
  char *below = xstrdup (s->path);
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
  char *dir = dir_name (s->name, s->rel_at);
  bool ok = copy_remote_same_dir (dir, opened, err, &st, s->dir_dev,
                                  s->dir_ino);
  free (dir);
  if (!ok)
    {
      if (0 <= fd)
        close (fd);
      return false;
    }
  *out = (struct mpicp_open_dir) { fd, st.st_dev, st.st_ino };
  return true;
}

/* Close the directories DIRS kept open for the files sent to this
   rank.  */
void
mpicp_close_dirs (struct mpicp_open_dir dirs[2])
{
  /* Closing a directory only looked up in can't lose anything.  */
  for (int i = 0; i < 2; i++)
    if (0 <= dirs[i].fd)
      close (dirs[i].fd);
}

/* Copy the file, or the range of a file, that T describes; return
   whether all went well, and set *SAID to what was said and *REPORT
   to how a range was copied, for the file's report on rank 0.  */
static bool
copy_sent_file (struct remote_job *j, struct mpicp_task const *t,
                struct held_errors *said, struct xfer_report *report)
{
  struct cp_options const *x = j->opts;
  *report = (struct xfer_report) { .method = XFER_METHOD_READ };
  *said = (struct held_errors) { NULL, 0 };
  /* A rank walking a subtree, whose diagnostics are held for its
     answer, copies files sent to it while it waits.  */
  struct error_hold_scope hold;
  error_hold_take (&hold, said);
  for (int i = 0; i < 2; i++)
    {
      /* Links are followed only as the walk did: the source's with
         -L, the destination's with --keep-directory-symlink.  */
      bool follow = (i == 0 ? x->dereference == CP_DEREF_ALWAYS
                     : follows_dest_dir_links (x));
      if (!open_side (&t->side[i], follow, &j->open_dirs[i]))
        {
          error_hold_give_back (&hold);
          return false;
        }
    }
  struct mpicp_side const *src = &t->side[0];
  struct mpicp_side const *dst = &t->side[1];
  struct remote_at f = { j->open_dirs[0].fd, src->name,
                         src->name + src->rel_at, t->src_st, t->follow,
                         j->open_dirs[1].fd, dst->name,
                         dst->name + dst->rel_at, t->dst_st };
  if (t->kind == MPICP_FILE)
    {
      bool ok = copy_remote_file (j->session, &f, x);
      error_hold_give_back (&hold);
      return ok;
    }
  error_hold_give_back (&hold);
  free (said->text);
  struct remote_range r = { t->chunk, t->ranges, t->direct, t->range };
  return copy_remote_range (&f, &r, said, report, x);
}

/* Copy the subtree that T describes; return whether all went well,
   and set *SAID to what was said.  */
static bool
copy_sent_dir (struct remote_job *j, struct mpicp_task const *t,
               struct held_errors *said)
{
  struct remote_path sides[2];
  for (int i = 0; i < 2; i++)
    sides[i] = (struct remote_path) { t->side[i].root, t->side[i].path,
                                      t->side[i].dir_dev, t->side[i].dir_ino };
  struct mpicp_side const *src = &t->side[0];
  struct mpicp_side const *dst = &t->side[1];
  struct remote_dir d = { NULL, NULL, src->name, src->name + src->rel_at,
                          dst->name, dst->name + dst->rel_at, &t->src_st,
                          &t->dst_st, NULL, t->top_src, t->top_dst,
                          t->top_dev, t->made, t->made_len };
  *said = (struct held_errors) { NULL, 0 };
  struct error_hold_scope hold;
  error_hold_take (&hold, said);
  bool ok = copy_remote_dir (j->session, &d, &sides[0], &sides[1], j->opts);
  mpicp_answer_asker (j);
  error_hold_give_back (&hold);
  return ok;
}

/* Copy the subtree T from rank FROM describes and answer FROM with
   how it went and what was said.  */
static void
answer_dir (struct remote_job *j, struct mpicp_task const *t, int from)
{
  struct held_errors said;
  struct mpicp_dir_answer a = { .slot = t->slot };
  /* mpirun forwards the ranks' output in pieces that may cut lines:
     the -v lines of a subtree go to its giver with the answer, and so
     up to rank 0, which alone writes them.  */
  FILE *out = stdout;
  char *text;
  size_t text_len;
  stdout = open_memstream (&text, &text_len);
  if (!stdout)
    error (EXIT_FAILURE, errno, _("cannot hold the standard output"));
  a.ok = copy_sent_dir (j, t, &said);
  if (fclose (stdout) != 0)
    error (EXIT_FAILURE, errno, _("cannot hold the standard output"));
  stdout = out;
  a.said = said.text;
  a.said_len = said.len;
  a.out = text;
  a.out_len = text_len;
  char *hashes;
  copy_hash_take (j->opts, &hashes, &a.hashes_len);
  a.hashes = hashes;
  char *records;
  copy_report_take (j->opts->report, &records, &a.records_len);
  a.records = records;
  size_t n;
  char *msg = mpicp_pack_dir_answer (&a, &n);
  if (INT_MAX < n)
    error (EXIT_FAILURE, 0, _("too many messages to send to another rank"));
  free (text);
  free (hashes);
  free (records);
  free (said.text);
  mpicp_send_now (j, msg, n, from, TAG_DIR_DONE);
  free (msg);
}

/* Copy the file or range T from rank FROM describes and answer FROM
   with how it went and what was said.  */
static void
answer_file (struct remote_job *j, struct mpicp_task const *t, int from)
{
  struct held_errors said;
  struct mpicp_answer a = { .slot = t->slot };
  a.ok = copy_sent_file (j, t, &said, &a.report);
  a.said = said.text;
  a.said_len = said.len;
  char *hashes;
  copy_hash_take (j->opts, &hashes, &a.hashes_len);
  a.hashes = hashes;
  char *records;
  copy_report_take (j->opts->report, &records, &a.records_len);
  a.records = records;
  size_t n;
  char *msg = mpicp_pack_answer (&a, &n);
  if (INT_MAX < n)
    error (EXIT_FAILURE, 0, _("too many messages to send to another rank"));
  free (hashes);
  free (records);
  free (said.text);
  mpicp_send_later (&j->replies, msg, n, from, TAG_ANSWER);
}

/* Copy what the task of N bytes at BUF from rank FROM describes, and
   answer FROM with how it went and what was said; set
   *ANSWERS_REQUEST to whether it answers this rank's request for
   work.  */
void
mpicp_answer_task (struct remote_job *j, char const *buf, int n, int from,
                   bool *answers_request)
{
  struct mpicp_task t;
  if (!mpicp_unpack_task (buf, n, &t))
    mpicp_malformed (from);
  *answers_request = t.answers_request;
  j->rounds.copied.steals += t.answers_request;
  xtime_t start = gethrxtime ();
  bool in_wait = j->idling;
  if (t.kind == MPICP_SUBTREE)
    answer_dir (j, &t, from);
  else
    answer_file (j, &t, from);
  /* A task taken while waiting is work, not waiting.  */
  if (in_wait)
    j->rounds.copied.waited_ns -= gethrxtime () - start;
  mpicp_task_free (&t);
}
