/* copy-dir.c -- copying a directory: making it, what is in it, then
   its attributes.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "copy-walk.h"
#include "copy-atomic.h"
#include "copy-attr.h"
#include "copy-file.h"
#include "copy-jobs.h"
#include "copy-scout.h"
#include "copy-sync.h"
#include <dirent.h>

#include "dirname.h"
#include "same-inode.h"
#include "stat-macros.h"
#include "stat-size.h"

/* The directory SRC (SRC_ST), to be copied to DST, was copied before
   in this run: by an earlier operand, or inside one.  Say what GNU cp
   says.  Return false if that is a failure; set *SKIP unless the
   directory is to be copied again, as it is when reached through
   links that are followed.  */
bool
dir_copied_before (struct loc const *src, struct stat const *src_st,
                   struct loc const *dst, struct copy_ctx const *ctx,
                   struct cp_options const *x, bool *skip)
{
  char const *earlier = remembered_copy (ctx->session->links, src_st);
  *skip = false;
  if (!earlier)
    return true;
  *skip = true;
  if (same_dir_entry (src->name, earlier))
    {
      error (0, 0, _("cannot copy a directory, %s, into itself, %s"),
             quoteaf_n (0, ctx->top_src), quoteaf_n (1, ctx->top_dst));
      *ctx->into_self = true;
      return false;
    }
  if (same_dir_entry (dst->name, earlier))
    {
      error (0, 0, _("warning: source directory %s specified more than once"),
             quoteaf (ctx->top_src));
      return true;
    }
  if (follows_links (ctx, x))
    {
      *skip = false;
      return true;
    }
  error (0, 0, _("will not create hard link %s to directory %s"),
         quoteaf_n (0, dst->name), quoteaf_n (1, earlier));
  return false;
}

/* Whether TYPES, of a directory's entries, says entry I is a regular
   file.  */
static bool
lists_regular (unsigned char const *types, idx_t i)
{
#ifdef DT_REG
  return types && types[i] == DT_REG;
#else
  return false;
#endif
}

/* Copy each entry of D's source into its destination.  Once the
   operand turns out to be copied into itself, or a directory can't be
   held open again, nothing more of it is copied.  With others copying
   files, set *FILES to the group they are counted in.  */
static bool
copy_entries (struct dir_copy *d, struct file_group **files,
              struct copy_ctx const *ctx, struct cp_options const *x)
{
  struct walk_dir *sdir = &d->sdir;
  struct walk_dir *ddir = d->ddir;
  struct loc const *src = d->src;
  struct loc const *dst = d->dst;
  struct copy_session *session = ctx->session;
  *files = NULL;
  if (!stack_allows_level (src->name))
    return false;
  file_group_leave_dirs (ctx->files);
  unsigned char *types;
  char *names = read_names (sdir, &types);
  if (!names)
    {
      error (0, errno, _("cannot access %s"), quoteaf (src->name));
      return false;
    }
  copy_scout_step (session->scout, source_data_cached (session));

  struct ancestor self = { d->src_st->st_ino, d->src_st->st_dev,
                           ctx->ancestors };
  struct copy_ctx sub = *ctx;
  sub.command_line = false;
  sub.ancestors = &self;
  /* With workers, the directory's attributes wait for its files, and
     for its subdirectories' attributes: a new directory stays its
     owner's alone until what is in it is complete, as in a serial copy
     (GNU's tests/cp/parent-perm-race.sh looks while a FIFO's data is
     still being read).  The group is not on the stack, which a deep
     tree fills level by level.  */
  if (has_helpers (&session->helpers))
    sub.files = file_group_new (session, ctx->files);
  sub.dst_dir_made = !d->exists;
  struct name_level s_level, d_level;
  name_enter (ctx->src_names, &s_level, src->name, src->rel);
  name_enter (ctx->dst_names, &d_level, dst->name, dst->rel);
  struct copy_remote const *remote = session->helpers.remote;
  struct lookahead ahead;
  lookahead_start (&ahead, session, sdir, d->src_st, names);
  bool ok = true;
  idx_t i = 0;
  for (char const *name = names; *name && !*ctx->into_self;
       name += strlen (name) + 1, i++)
    {
      if (sdir->fd < 0 || ddir->fd < 0)
        {
          ok = false;
          break;
        }
      lookahead_step (&ahead, sdir);
      struct loc s_loc = { sdir };
      struct loc d_loc = { ddir };
      s_loc.name = name_entry (ctx->src_names, &s_level, name, &s_loc.rel);
      d_loc.name = name_entry (ctx->dst_names, &d_level, name, &d_loc.rel);
      bool entry_ok;
      if (! (lists_regular (types, i)
             && copy_regular_entry (&s_loc, &d_loc, &sub, x, &entry_ok)))
        entry_ok = copy_internal (&s_loc, &d_loc, &sub, x);
      ok &= entry_ok;
      if (remote && remote->ops->poll)
        remote->ops->poll (remote->job);
    }
  name_leave (ctx->src_names, &s_level, src->name);
  name_leave (ctx->dst_names, &d_level, dst->name);
  free (names);
  free (types);
  if (has_helpers (&session->helpers))
    *files = sub.files;
  return ok;
}

/* Make sure the directories D's source and destination are in hold
   descriptors again, now that D's own are the deepest.  */
static bool
hold_parents (struct dir_copy *d, struct copy_ctx const *ctx)
{
  struct
  {
    struct walker *w;
    struct walk_dir *d;
    struct loc const *l;
  } const sides[2] = { { ctx->src_walk, &d->sdir, d->src },
                       { ctx->dst_walk, d->ddir, d->dst } };
  bool ok = true;
  for (int i = 0; i < 2; i++)
    if (0 <= sides[i].d->fd && !walk_hold_up (sides[i].w, sides[i].d))
      {
        char *parent = dir_name (sides[i].l->name);
        error (0, errno, _("cannot return to directory %s"),
               quoteaf (parent));
        free (parent);
        ok = false;
      }
  return ok;
}

/* Open D's source directory as D->sdir to read it, unless -x keeps cp
   out of it; return whether it is to be read.  Set *OK to false after
   a diagnostic if it can't be, or turns out to be another directory
   than the one looked at.  */
static bool
open_source_dir (struct dir_copy *d, struct copy_ctx const *ctx,
                 struct cp_options const *x, bool *ok)
{
  struct loc const *src = d->src;
  struct stat const *src_st = d->src_st;
  struct walk_dir *sdir = &d->sdir;
  sdir->fd = -1;
  if (x->one_file_system && !ctx->command_line
      && src_st->st_dev != ctx->top_dev)
    return false;
  struct stat st;
  if (!walk_open (ctx->src_walk, src->dir, src->rel,
                  follows_links (ctx, x) ? WALK_FOLLOW : 0, sdir, &st))
    {
      error (0, errno, _("cannot access %s"), quoteaf (src->name));
      *ok = false;
      return false;
    }
  if (!SAME_INODE (st, *src_st))
    {
      error (0, 0, _("skipping file %s, as it was replaced while being copied"),
             quoteaf (src->name));
      walk_close (ctx->src_walk, sdir);
      *ok = false;
      return false;
    }
  sdir->sizes_true
    = (file_system_kind (sdir->fd, sdir->dev) & FS_PLAIN) != 0;
  return true;
}

/* Change the permissions of the directory DST, open as DDIR, to MODE:
   by its entry in the directory it is in if DDIR can only look names
   up.  */
static int
chmod_dir (struct walk_dir *ddir, struct loc const *dst, mode_t mode,
           struct copy_ctx const *ctx)
{
  if (!ddir->search_only)
    return fchmod (ddir->fd, mode);
  if (!walk_hold_up (ctx->dst_walk, ddir))
    return -1;
  return fchmodat (loc_fd (dst), dst->rel, mode, AT_SYMLINK_NOFOLLOW);
}

/* DST as an end of an attribute copy, open as DIR, and made by the
   copy as MADE_ST unless that is null.  What the attribute copy reads
   of that status, the owner, the group and the set-ID bits, stays as
   it was made until then: a directory made with the owner it is to
   have gets no chown.  */
static struct attr_file
dir_attr (struct walk_dir const *dir, struct loc const *l,
          struct stat const *made_st)
{
  struct attr_file a = loc_attr (l, (0 <= dir->fd && !dir->search_only
                                     ? dir->fd : -1), !!made_st);
  a.st = made_st;
  return a;
}

/* The permissions a new directory, the copy of SRC_ST made as
   DST_ST, gets at last: the source's (or with --no-preserve=mode the
   default ones) less the umask, and its sticky bit but not its set-ID
   bits, while keeping a set-group-ID bit inherited from its parent.
   With --no-preserve=mode, GNU cp 9.10 sets the default permissions
   and an inherited set-group-ID bit together, which clears the sticky
   bit.  */
static mode_t
new_dir_mode (struct stat const *src_st, struct stat const *dst_st,
              struct cp_options const *x)
{
  mode_t perms = (x->explicit_no_preserve_mode
                  ? S_IRWXU | S_IRWXG | S_IRWXO
                  : src_st->st_mode & (S_IRWXU | S_IRWXG | S_IRWXO));
  mode_t inherited = dst_st->st_mode & S_ISGID;
  mode_t sticky = src_st->st_mode & S_ISVTX;
  if (x->explicit_no_preserve_mode && inherited)
    sticky = 0;
  return (perms & ~x->umask) | sticky | inherited;
}

/* Whether a new directory is made with the permissions it is to keep,
   as GNU cp makes it when it keeps neither the owner nor the
   permissions (cp -r): the source's, less what the umask, or a default
   ACL of the directory it is made in, takes away; they are changed
   only if they lack some of the owner's, which the copy needs for a
   while.  Otherwise it is made its owner's alone, and given its
   permissions once complete.  */
static bool
dir_made_final (struct cp_options const *x)
{
  return (!x->preserve_mode && !x->preserve_ownership
          && !x->explicit_no_preserve_mode);
}

/* Sync D's destination, complete, as --fsync asks: through a
   descriptor that can read it, which one that can only look names up
   is not.  */
static bool
sync_dir (struct dir_copy const *d, struct copy_ctx const *ctx)
{
  struct copy_syncs *syncs = ctx->session->syncs;
  struct walk_dir *ddir = d->ddir;
  struct loc const *dst = d->dst;
  if (!ddir->search_only)
    return copy_sync_dir (syncs, ddir->fd, ddir->dev, dst->name);
  if (!walk_hold_up (ctx->dst_walk, ddir))
    {
      error (0, errno, _("cannot open directory %s"), quoteaf (dst->name));
      return false;
    }
  return copy_sync_dir_at (syncs, loc_fd (dst), dst->rel, dst->name);
}

/* Give D's destination its attributes once the files of FG, if any,
   are copied: with workers, leave them to whoever ends FG where it
   can, else wait for FG here.  D's source is open as D->sdir if it
   could be.  WALKED_OK says whether the walk of D went well.  */
static _GL_ATTRIBUTE_NOINLINE bool
finish_directory (struct file_group *fg, struct dir_copy const *d,
                  bool walked_ok, struct copy_ctx const *ctx,
                  struct cp_options const *x)
{
  struct walk_dir const *sdir = &d->sdir;
  struct loc const *src = d->src;
  struct stat const *src_st = d->src_st;
  struct loc const *dst = d->dst;
  struct stat const *dst_st = d->dst_st;
  bool exists = d->exists;
  bool set_mode = !exists && !x->preserve_mode;
  mode_t mode = 0;
  if (set_mode && dir_made_final (x))
    {
      set_mode = (dst_st->st_mode & S_IRWXU) != S_IRWXU;
      mode = dst_st->st_mode & CHMOD_MODE_BITS;
    }
  else if (set_mode)
    mode = new_dir_mode (src_st, dst_st, x);
  struct stat const *made_st = exists ? NULL : dst_st;
  if (fg && defer_finish (fg, d, set_mode, mode, walked_ok, x))
    return true;
  bool ok = fg ? file_group_wait (fg) : true;
  ok &= atomic_batch_dir_finishing (ctx->session->renames, d->ddir->dev,
                                    d->ddir->ino, dst->name, src_st,
                                    set_mode, mode, x);
  ok &= copy_attributes (0 <= sdir->fd ? loc_attr (src, sdir->fd, false)
                         : loc_attr (src, -1, false), src_st,
                         dir_attr (d->ddir, dst, made_st), x);
  if (set_mode && chmod_dir (d->ddir, dst, mode, ctx) != 0)
    {
      error (0, errno, _("setting permissions for %s"), quoteaf (dst->name));
      ok = false;
    }
  if (ok && ctx->session->syncs)
    ok = sync_dir (d, ctx);
  return ok;
}

/* A scout to read the directories below the operand D ahead of the
   walk (copy-scout.c), where workers copy the files and the walk would
   be left waiting for each directory: on a disk, not in memory, which
   needs no reading, nor over a network, where the workers look names
   up ahead of the walk instead.  NULL if none.  */
static struct copy_scout *
start_scout (struct dir_copy const *d, struct copy_ctx const *ctx)
{
  struct walk_dir const *sdir = &d->sdir;
  if (!ctx->command_line || !ctx->session->helpers.pool
      || sdir->search_only
      || file_system_kind (sdir->fd, sdir->dev) & (FS_MEMORY | FS_FAR))
    return NULL;
  return copy_scout_start (sdir->fd);
}

bool
copy_dir_below (struct dir_copy *d, struct copy_ctx const *ctx,
                struct cp_options const *x)
{
  bool ok = true;
  struct file_group *files = NULL;
  if (open_source_dir (d, ctx, x, &ok))
    {
      struct copy_session *s = ctx->session;
      /* Only an operand starts a scout: the directories below it,
         which come here too, leave their operand's in place.  */
      struct copy_scout *scout = start_scout (d, ctx);
      if (scout)
        s->scout = scout;
      ok = copy_entries (d, &files, ctx, x);
      if (scout)
        {
          copy_scout_stop (scout);
          s->scout = NULL;
        }
    }
  ok &= hold_parents (d, ctx);
  ok &= finish_directory (files, d, ok, ctx, x);
  if (0 <= d->sdir.fd)
    walk_close (ctx->src_walk, &d->sdir);
  walk_close (ctx->dst_walk, d->ddir);
  return ok;
}

/* Whether a regular file made in the directory DDIR, just made as
   DST (status DST_ST), is sure to get this process's owner and group
   and exactly the permissions asked for less the umask: so that it
   need not be looked at once made, nor have its owner or permissions
   set again to what it has.  The directory's group must be this
   process's, which a new file gets then whatever the set-group-ID bit
   or the mount say, and no default ACL may add entries.  A directory
   made in such a one is such a one, on the same file system.  Note in
   S whom this process makes files as: before any directory is found
   so, nothing asks.  */
static bool
gives_plain_files (struct copy_session *s, struct walk_dir const *ddir,
                   struct loc const *dst, struct stat const *dst_st)
{
  if (ddir->search_only)
    return false;
  if (dst->dir && dst->dir->plain_files)
    return true;
  uid_t uid = geteuid ();
  gid_t gid = getegid ();
  if (dst_st->st_uid != uid || dst_st->st_gid != gid
      || ! (file_system_kind (ddir->fd, ddir->dev) & FS_PLAIN))
    return false;
  s->maker_uid = uid;
  s->maker_gid = gid;
  /* Asked even where cp copies no ACLs: the kernel still applies
     them.  */
  return has_no_default_acl (ddir->fd);
}

/* Copy the directory SRC (status SRC_ST) to DST, which EXISTS already
   as a directory or is made here.  A new directory whose owner or
   permissions are kept is accessible only to its owner until its
   contents are in place.  */
bool
copy_directory (struct loc const *src, struct stat const *src_st,
                struct loc const *dst, bool exists,
                struct copy_record *record,
                struct copy_ctx const *ctx, struct cp_options const *x)
{
  for (struct ancestor const *a = ctx->ancestors; a; a = a->up)
    if (a->ino == src_st->st_ino && a->dev == src_st->st_dev)
      {
        error (0, 0, _("cannot copy cyclic symbolic link %s"),
               quoteaf (src->name));
        return false;
      }
  struct copy_session *s = ctx->session;
  if (made_dir (s->links, src_st))
    {
      error (0, 0, _("cannot copy a directory, %s, into itself, %s"),
             quoteaf_n (0, ctx->top_src), quoteaf_n (1, ctx->top_dst));
      *ctx->into_self = true;
      return false;
    }

  mode_t made_mode = (dir_made_final (x) ? src_st->st_mode & CHMOD_MODE_BITS
                      : S_IRWXU);
  if (!exists && mkdirat (loc_fd (dst), dst->rel, made_mode) != 0)
    {
      error (0, errno, _("cannot create directory %s"), quoteaf (dst->name));
      return false;
    }
  /* An operand may name a directory through a symbolic link; below
     it, a link can only have been swapped in since it was looked at,
     unless --keep-directory-symlink has the copy go through it.  */
  struct walk_dir ddir;
  struct stat dst_st;
  bool follow = ctx->command_line || follows_dest_dir_links (x);
  if (!walk_open (ctx->dst_walk, dst->dir, dst->rel,
                  (follow ? WALK_FOLLOW : 0) | WALK_SEARCH_OK, &ddir,
                  &dst_st))
    {
      if (exists)
        error (0, errno, _("cannot access %s"), quoteaf (dst->name));
      else
        error (0, errno, _("cannot stat %s"), quoteaf (dst->name));
      return false;
    }
  if (!exists)
    {
      ddir.plain_files = gives_plain_files (s, &ddir, dst, &dst_st);
      ddir.file_blksize = ST_BLKSIZE (dst_st);
      remember_made_dir (s->links, &dst_st);
      if ((dst_st.st_mode & S_IRWXU) != S_IRWXU
          && chmod_dir (&ddir, dst, dst_st.st_mode | S_IRWXU, ctx) != 0)
        {
          error (0, errno, _("setting permissions for %s"),
                 quoteaf (dst->name));
          walk_close (ctx->dst_walk, &ddir);
          return false;
        }
      if (x->verbose)
        print_verbose (src->name, dst->name, NULL);
    }

  if (remembers_copy (src_st, ctx, x))
    remember_first_copy (s->links, src_st, dst->name);
  if (!exists && ctx->command_line)
    remember_made_top (s, &dst_st);

  struct dir_copy d = { .src = src, .src_st = src_st, .dst = dst,
                        .ddir = &ddir, .exists = exists, .dst_st = &dst_st,
                        .record = record };
  if (!exists && send_subtree (&d, ctx, x))
    {
      /* The rank given the subtree records its top directory, once
         it has set the directory's attributes.  */
      copy_record_drop (record);
      walk_close (ctx->dst_walk, &ddir);
      return true;
    }
  return copy_dir_below (&d, ctx, x);
}
