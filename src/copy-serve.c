/* copy-serve.c -- the other ranks' side of mpicp: what they are sent.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* A rank of mpicp that is sent a file, a range of a large one or a
   subtree copies it here with the tree copy's own code: above the
   walk, as cp's main is, and in the session the rank made.  */

#include <config.h>

#include "system.h"
#include "copy-walk.h"
#include "copy-file.h"
#include "copy-jobs.h"
#include "copy-report.h"
#include "copy-sync.h"
#include "dirname.h"
#include "same-inode.h"
#include "xfer-range.h"

bool
copy_remote_file (struct copy_session *s, struct remote_at const *f,
                  struct cp_options const *x)
{
  struct walk_dir sdir = { .fd = f->src_fd };
  struct walk_dir ddir = { .fd = f->dst_fd };
  struct loc src = { &sdir, f->src_rel, f->src_name };
  struct loc dst = { &ddir, f->dst_rel, f->dst_name };
  struct file_source from = { &src, &f->src_st, f->follow, -1, false };
  return copy_new_file (&from, &dst, NULL, s, x);
}

/* Open F's source, or its copy if DST, for a range of it, and check
   it is the file the walk saw; return its descriptor, or -1 after a
   diagnostic.  */
static int
open_remote_end (struct remote_at const *f, bool dst)
{
  int dirfd = dst ? f->dst_fd : f->src_fd;
  char const *rel = dst ? f->dst_rel : f->src_rel;
  char const *name = dst ? f->dst_name : f->src_name;
  struct stat const *want = dst ? &f->dst_st : &f->src_st;
  int flags = (dst ? O_WRONLY : O_RDONLY) | O_BINARY | O_CLOEXEC;
  if (dst || !f->follow)
    flags |= O_NOFOLLOW;
  int fd = openat (dirfd, rel, flags);
  if (fd < 0)
    {
      error (0, errno, (dst ? _("cannot open %s for writing")
                        : _("cannot open %s for reading")), quoteaf (name));
      return -1;
    }
  struct stat st;
  if (still_same_file (fd, name, &st, want))
    return fd;
  close (fd);
  return -1;
}

bool
copy_remote_range (struct remote_at const *f, struct remote_range const *r,
                   struct held_errors *said, struct xfer_report *report,
                   struct cp_options const *x)
{
  *said = (struct held_errors) { NULL, 0 };
  *report = (struct xfer_report) { .method = XFER_METHOD_READ };
  /* The range may be copied while this process walks a subtree, whose
     own diagnostics are held for its answer.  */
  struct error_hold_scope opening;
  error_hold_take (&opening, said);
  int src_fd = open_remote_end (f, false);
  int dst_fd = src_fd < 0 ? -1 : open_remote_end (f, true);
  error_hold_give_back (&opening);
  bool ok = 0 <= dst_fd;
  if (ok)
    {
      struct xfer_opts opts = x->xfer;
      opts.direct = r->direct;
      struct xfer_file in = { src_fd, f->src_name, &f->src_st, true };
      struct xfer_file out = { dst_fd, f->dst_name, &f->dst_st, true };
      struct xfer_split split;
      xfer_split_join (&split, &in, &out, &opts, r->chunk, r->ranges);
      split.verify_algo = x->verify ? x->hash_algo : -1;
      struct held_errors more;
      ok = xfer_copy_range (&split, r->range, &more, report);
      *said = more;
      struct error_hold_scope closing;
      error_hold_take (&closing, said);
      if (ok && x->fsync)
        ok = copy_sync_range (dst_fd, &f->dst_st, f->dst_name);
      if (close (dst_fd) != 0)
        {
          error (0, errno, _("failed to close %s"), quoteaf (f->dst_name));
          ok = false;
        }
      error_hold_give_back (&closing);
    }
  /* Closing a file only read from can't lose anything.  */
  if (0 <= src_fd)
    close (src_fd);
  return ok;
}

/* The directories from an operand down to the one a subtree is in, as
   a process given the subtree opens them, and their names.  */
struct remote_chain
{
  struct walk_dir *dirs;
  size_t n;
  char *names;
};

/* Close C's directories in W, the deepest first.  */
static void
close_chain (struct walker *w, struct remote_chain *c)
{
  while (c->n)
    walk_close (w, &c->dirs[--c->n]);
  free (c->dirs);
  free (c->names);
}

/* Open in W, from the working directory, the directories P names, to
   reach the entry whose whole name is NAME (for messages), which is
   in the last of them; search-only ones will do if SEARCH_OK.  Return
   false after a diagnostic if one can't be opened, or the last is not
   the directory the walk had open.  */
static bool
open_chain (struct walker *w, struct remote_path const *p, char const *name,
            bool search_ok, bool follow_below, struct remote_chain *c)
{
  size_t n = 1;
  for (char const *q = p->path; *q; q++)
    n += *q == '/';
  n += *p->path != '\0';
  c->dirs = xinmalloc (n, sizeof *c->dirs);
  c->n = 0;
  c->names = xstrdup (p->path);
  char *next = c->names;
  char const *rel = p->root;
  struct stat st;
  bool ok;
  for (;;)
    {
      struct walk_dir *up = c->n ? &c->dirs[c->n - 1] : NULL;
      /* The operand may be a link to a directory, which the walk
         followed; below it, links are followed only if FOLLOW_BELOW
         says the walk did.  */
      ok = walk_open (w, up, rel,
                      ((!up || follow_below ? WALK_FOLLOW : 0)
                       | (search_ok ? WALK_SEARCH_OK : 0)),
                      &c->dirs[c->n], &st);
      if (!ok)
        break;
      c->n++;
      if (!*next)
        break;
      char *slash = strchr (next, '/');
      rel = next;
      next = slash ? slash + 1 : next + strlen (next);
      if (slash)
        *slash = '\0';
    }
  int err = errno;
  char *dir = dir_name (name);
  ok = copy_remote_same_dir (dir, ok, err, &st, p->dir_dev, p->dir_ino);
  free (dir);
  if (!ok)
    close_chain (w, c);
  return ok;
}

bool
copy_remote_same_dir (char const *dir, bool opened, int err,
                      struct stat const *st, dev_t dev, ino_t ino)
{
  if (!opened)
    {
      error (0, err, _("cannot access %s"), quoteaf (dir));
      return false;
    }
  if (st->st_dev != dev || st->st_ino != ino)
    {
      error (0, 0, _("skipping file %s, as it was replaced while being copied"),
             quoteaf (dir));
      return false;
    }
  return true;
}

/* Open the new directory D names at the destination, in the last
   directory of C, as DDIR, with status *ST; return false after a
   diagnostic if it can't be, or is not the one the walk made.  */
static bool
open_given_dir (struct walker *w, struct remote_chain *c,
                struct remote_dir const *d, struct walk_dir *ddir,
                struct stat *st)
{
  if (!walk_open (w, &c->dirs[c->n - 1], d->dst_rel, WALK_SEARCH_OK, ddir,
                  st))
    {
      error (0, errno, _("cannot stat %s"), quoteaf (d->dst_name));
      return false;
    }
  if (SAME_INODE (*st, *d->dst_st))
    return true;
  error (0, 0, _("skipping file %s, as it was replaced while being copied"),
         quoteaf (d->dst_name));
  walk_close (w, ddir);
  return false;
}

/* Copy the subtree D as copy_remote_dir says, with RECORD, the report
   record of its top directory.  */
static bool
serve_dir (struct copy_session *s, struct remote_dir const *d,
           struct remote_path const *src, struct remote_path const *dst,
           struct copy_record *record, struct cp_options const *x)
{
  prepare_stack ();
  for (size_t i = 0; i < d->made_len; i++)
    {
      struct stat st = { .st_dev = d->made[i].dev, .st_ino = d->made[i].ino };
      remember_made_dir (s->links, &st);
    }
  remember_made_dir (s->links, d->dst_st);
  size_t max_open = walker_default_max ();
  struct walker src_walk, dst_walk;
  walker_init (&src_walk, max_open);
  walker_init (&dst_walk, max_open);
  struct remote_chain sc, dc;
  if (!open_chain (&src_walk, src, d->src_name, false, false, &sc))
    return false;
  struct walk_dir ddir;
  struct stat dst_st;
  bool ok = open_chain (&dst_walk, dst, d->dst_name, true,
                        follows_dest_dir_links (x), &dc);
  if (ok && !open_given_dir (&dst_walk, &dc, d, &ddir, &dst_st))
    {
      close_chain (&dst_walk, &dc);
      ok = false;
    }
  if (ok)
    {
      bool into_self = false;
      struct name_buf src_names = { NULL, 0 };
      struct name_buf dst_names = { NULL, 0 };
      struct copy_ctx ctx = { .top_src = d->top_src, .top_dst = d->top_dst,
                              .top_dev = d->top_dev, .command_line = false,
                              .into_self = &into_self, .ancestors = NULL,
                              .src_walk = &src_walk, .dst_walk = &dst_walk,
                              .src_names = &src_names,
                              .dst_names = &dst_names,
                              .session = s,
                              .files = file_group_new (s, NULL),
                              .dst_dir_made = true };
      struct loc from = { &sc.dirs[sc.n - 1], d->src_rel, d->src_name };
      struct loc to = { &dc.dirs[dc.n - 1], d->dst_rel, d->dst_name };
      /* The directory's status as it was made, before the walk gave
         its owner what the copy needs: what its attributes start
         from.  */
      struct dir_copy below = { .src = &from, .src_st = d->src_st,
                                .dst = &to, .ddir = &ddir, .exists = false,
                                .dst_st = d->dst_st, .record = record };
      ok = copy_dir_below (&below, &ctx, x);
      ok &= file_group_wait (ctx.files);
      free (src_names.buf);
      free (dst_names.buf);
      close_chain (&dst_walk, &dc);
    }
  close_chain (&src_walk, &sc);
  return ok;
}

/* The rank that gave the subtree left its top directory's record to
   this one, which sets the directory's attributes.  */
bool
copy_remote_dir (struct copy_session *s, struct remote_dir const *d,
                 struct remote_path const *src, struct remote_path const *dst,
                 struct cp_options const *x)
{
  struct copy_record r;
  copy_record_begin (&r, x->report, d->src_name, d->dst_name, S_IFDIR);
  bool ok = serve_dir (s, d, src, dst, &r, x);
  copy_record_end (&r, copy_record_outcome (&r, ok));
  return ok;
}
