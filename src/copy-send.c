/* copy-send.c -- the walk's side of mpicp: subtrees given to other ranks.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The walk gives a new directory's subtree to a rank that asks for
   work, and the answers for what it handed out come back here, to end
   their pieces of work.  The files themselves are sent by copy-jobs.c,
   as they are handed to workers.  */

#include <config.h>

#include "system.h"
#include "copy-jobs.h"

void
remember_made_top (struct copy_session *s, struct stat const *st)
{
  struct made_tops *t = &s->tops;
  if (t->n == t->alloc)
    t->v = xpalloc (t->v, &t->alloc, 1, -1, sizeof *t->v);
  t->v[t->n++] = (struct remote_inode) { st->st_dev, st->st_ino };
}

/* Not the operands, which the walk keeps, nor where a subtree's copy
   could depend on what another part of the tree makes: directories
   reached through links (-L), and hard links kept unless owners keep
   them across processes.  */
bool
send_subtree (struct dir_copy const *d, struct copy_ctx const *ctx,
              struct cp_options const *x)
{
  struct copy_session *s = ctx->session;
  struct copy_remote const *remote = s->helpers.remote;
  if (!remote || !remote->ops->give || !ctx->files || ctx->command_line
      || x->dereference == CP_DEREF_ALWAYS
      || (x->preserve_links && !x->hard_link && !links_owned (&s->helpers)))
    return false;
  struct loc const *src = d->src, *dst = d->dst;
  struct remote_dir rd = { src->dir, dst->dir, src->name, src->rel,
                           dst->name, dst->rel, d->src_st, d->dst_st,
                           ctx->files, ctx->top_src, ctx->top_dst,
                           ctx->top_dev, s->tops.v, s->tops.n };
  file_group_hold (ctx->files);
  if (remote->ops->give (remote->job, &rd))
    return true;
  file_group_end_piece (ctx->files, true);
  return false;
}

void
copy_remote_dir_ended (void *token, bool ok, struct held_errors *said)
{
  error_print_held (said);
  file_group_end_piece (token, ok);
}

void
copy_remote_ended (void *token, intmax_t range, bool ok,
                   struct held_errors *said, struct xfer_report const *report)
{
  if (range < 0)
    {
      error_print_held (said);
      file_group_end_piece (token, ok);
    }
  else
    chunked_copy_range_ended (token, range, ok, said, report);
}
