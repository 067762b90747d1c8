/* copy.c -- copy one file or tree, the way cp does.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* For each file: look at the source and the destination, decide
   whether copying is allowed and wanted (same file, -n, -u, -i), make
   room for the copy (backup, removal), create it according to the
   source's type, then give it the attributes asked for.  */

#include <config.h>

#include "system.h"
#include "areadlink.h"
#include "copy-walk.h"
#include "copy-file.h"
#include "copy-atomic.h"
#include "copy-hash.h"
#include "copy-jobs.h"
#include "copy-resume.h"
#include "copy-sync.h"
#include "copy-report.h"
#include "dirname.h"
#include "filenamecat.h"
#include "same-inode.h"
#include "stat-time.h"
#include "tempname.h"
#include "yesno.h"
#include "xfer.h"

/* The destination as found before copying, and what the copy makes
   of it.  */
struct dest
{
  bool exists;
  struct stat lst;		/* the entry itself */
  bool st_ok;			/* whether it resolves */
  struct stat st;		/* what it resolves to */
  int st_errno;			/* why not, if it does not */
  bool loops;			/* a link loop that -f replaces unseen */
  bool had_entry;		/* an entry was there, even a dangling link */
  bool through_link;		/* the copy goes through the entry, a link */
  struct stat const *found;	/* what is in the way: the entry, or what
                                   the link leads to */
  bool known;			/* whether FOUND is there to be dealt with */
  char *backup;			/* where it was moved aside, or NULL */
  bool backup_linked;		/* BACKUP is a second name of the file
                                   still at the destination (--atomic) */
  bool atomic;			/* the copy is to be renamed over it */
  bool kept;			/* it stays as it was: -n, -u, -i */
  bool recorded;		/* the copy of the source's data makes the
                                   file's record (copy-report.h) */
};

/* Whether symbolic links are followed where CTX is: everywhere with
   -L, and with -H only for an operand.  */
bool
follows_links (struct copy_ctx const *ctx, struct cp_options const *x)
{
  return (x->dereference == CP_DEREF_ALWAYS
          || (x->dereference == CP_DEREF_COMMAND_LINE && ctx->command_line));
}

/* Whether the non-directory SRC_ST is copied by reading its data, as
   opposed to recreating it (links, FIFOs, devices) or linking to it.  */
static bool
copies_data (struct stat const *src_st, struct cp_options const *x)
{
  if (x->hard_link || x->symbolic_link || S_ISLNK (src_st->st_mode))
    return false;
  return (S_ISREG (src_st->st_mode) || !x->recursive || x->copy_contents);
}

void
print_verbose (char const *src, char const *dst, char const *backup)
{
  printf ("%s -> %s", quoteaf_n (0, src), quoteaf_n (1, dst));
  if (backup)
    printf (_(" (backup: %s)"), quoteaf_n (2, backup));
  putchar ('\n');
}

/* Look up DST into *D.  Return false after a diagnostic if it can't
   be told whether DST exists.  */
static bool
stat_destination (struct loc const *dst, struct dest *d)
{
  d->exists = d->st_ok = d->loops = false;
  d->st_errno = 0;
  if (fstatat (loc_fd (dst), dst->rel, &d->lst, AT_SYMLINK_NOFOLLOW) != 0)
    {
      if (errno == ENOENT)
        return true;
      error (0, errno, _("cannot stat %s"), quoteaf (dst->name));
      return false;
    }
  d->exists = true;
  if (S_ISLNK (d->lst.st_mode))
    {
      d->st_ok = fstatat (loc_fd (dst), dst->rel, &d->st, 0) == 0;
      if (!d->st_ok)
        d->st_errno = errno;
    }
  else
    {
      d->st = d->lst;
      d->st_ok = true;
    }
  return true;
}

/* Set *ST to the device and inode of the directory L is in: of the
   one held open, or for an operand of the one its name leads to.  */
static bool
parent_status (struct loc const *l, struct stat *st)
{
  if (l->dir)
    {
      st->st_dev = l->dir->dev;
      st->st_ino = l->dir->ino;
      return true;
    }
  char *dir = dir_name (l->rel);
  bool ok = stat (dir, st) == 0;
  free (dir);
  return ok;
}

/* Do A and B stand for the same directory entry?  */
static bool
same_entry (struct loc const *a, struct loc const *b)
{
  char *a_base = base_name (a->rel);
  char *b_base = base_name (b->rel);
  bool same = STREQ (a_base, b_base);
  free (a_base);
  free (b_base);
  if (same)
    {
      struct stat a_st, b_st;
      same = (!parent_status (a, &a_st) || !parent_status (b, &b_st)
              || SAME_INODE (a_st, b_st));
    }
  return same;
}

/* GNU cp 9.10 follows a link for --keep-directory-symlink only
   together with --copy-contents, and not where the link is to be
   moved aside or removed, nor where links are made instead of
   copies.  */
bool
follows_dest_dir_links (struct cp_options const *x)
{
  return (x->keep_directory_symlink && x->copy_contents
          && !x->hard_link && !x->symbolic_link
          && x->backup_type == no_backups && !x->remove_destination);
}

/* Whether the copy of SRC_ST replaces a destination symbolic link
   rather than writing through it.  Only a regular file's data is
   written through a link, and a directory copied into one by
   --keep-directory-symlink; a link about to be moved aside or removed
   is not written through either.  */
static bool
replaces_dest_link (struct stat const *src_st, struct cp_options const *x)
{
  if (S_ISDIR (src_st->st_mode))
    return !follows_dest_dir_links (x);
  return (!copies_data (src_st, x)
          || x->backup_type != no_backups || x->remove_destination);
}

/* Whether copying FROM (followed or not as the copy follows it) over
   the existing DST (DST_ST: the entry, or
   what it leads to, as replaces_dest_link says) can go ahead without
   destroying the data it would read, as GNU cp decides it.  Set *DONE
   if there is nothing left to do: the hard link asked for is already
   there.  */
static bool
copy_onto_ok (struct file_source const *from, struct loc const *dst,
              struct stat const *dst_st, struct cp_options const *x,
              bool *done)
{
  struct loc const *src = from->loc;
  struct stat const *src_st = from->st;
  bool same = SAME_INODE (*src_st, *dst_st);
  /* Links are not followed below the operands with -H, as with -P.  */
  bool entries_only = !from->follow;
  bool backups = x->backup_type != no_backups;
  struct stat src_lst, dst_lst;
  struct stat const *src_ent = src_st;
  struct stat const *dst_ent = dst_st;
  bool same_ent = same;

  *done = false;
  if (same && x->hard_link)
    {
      *done = true;
      return true;
    }

  if (entries_only)
    {
      /* Either of two distinct links may replace the other.  */
      if (S_ISLNK (src_st->st_mode) && S_ISLNK (dst_st->st_mode))
        {
          if (same_entry (src, dst))
            return false;
          *done = same && !backups;
          return true;
        }
    }
  else
    {
      if (!same)
        return true;
      if (fstatat (loc_fd (src), src->rel, &src_lst, AT_SYMLINK_NOFOLLOW) != 0
          || fstatat (loc_fd (dst), dst->rel, &dst_lst,
                      AT_SYMLINK_NOFOLLOW) != 0)
        return true;
      src_ent = &src_lst;
      dst_ent = &dst_lst;
      same_ent = SAME_INODE (src_lst, dst_lst);
      /* Two links to one file: the destination link goes first.  */
      if (S_ISLNK (src_lst.st_mode) && S_ISLNK (dst_lst.st_mode)
          && x->remove_destination)
        return true;
    }

  /* Removing one of a file's names first leaves it under the other.  */
  if (same_ent && x->remove_destination && !S_ISLNK (src_ent->st_mode)
      && 1 < src_ent->st_nlink && !same_entry (src, dst))
    return true;

  if (backups)
    {
      if (same_ent)
        return !same_entry (src, dst);
      /* Moving the file aside would leave the source link, which
         leads to it, dangling before it is read.  */
      return (entries_only || !S_ISLNK (src_ent->st_mode)
              || S_ISLNK (dst_ent->st_mode));
    }

  if (!S_ISLNK (src_ent->st_mode) && !S_ISLNK (dst_ent->st_mode))
    {
      if (!SAME_INODE (*src_ent, *dst_ent))
        return true;
      if (x->hard_link)
        {
          *done = true;
          return true;
        }
    }

  /* A destination link is replaced by the new link, or removed.  */
  if ((x->symbolic_link || x->remove_destination)
      && S_ISLNK (dst_ent->st_mode))
    return true;

  if (entries_only)
    {
      struct stat src_to = *src_ent;
      struct stat dst_to = *dst_ent;
      if ((S_ISLNK (src_ent->st_mode)
           && fstatat (loc_fd (src), src->rel, &src_to, 0) != 0)
          || (S_ISLNK (dst_ent->st_mode)
              && fstatat (loc_fd (dst), dst->rel, &dst_to, 0) != 0))
        return true;
      if (!SAME_INODE (src_to, dst_to))
        return true;
      if (x->hard_link)
        {
          *done = !S_ISLNK (dst_ent->st_mode);
          return true;
        }
    }
  return false;
}

/* Rename the existing DST out of the way as its backup, or with
   LINK give it the backup's name too, if it can (and then set
   *LINKED).  Return the backup's whole name, or NULL after a
   diagnostic.  */
static char *
make_backup (struct loc const *src, struct stat const *src_st,
             struct loc const *dst, bool link, bool *linked,
             struct cp_options const *x)
{
  char *rel = find_backup_file_name (loc_fd (dst), dst->rel, x->backup_type);
  struct stat st, moved;
  /* A line of --print-hash may name the file moved aside.  */
  bool hashed = (x->print_hash
                 && fstatat (loc_fd (dst), dst->rel, &moved,
                             AT_SYMLINK_NOFOLLOW) == 0);
  char *backup = NULL;
  enum atomic_backup made = BACKUP_FAILED;
  *linked = false;
  if (fstatat (loc_fd (dst), rel, &st, AT_SYMLINK_NOFOLLOW) == 0
      && SAME_INODE (st, *src_st))
    error (0, 0, _("backing up %s might destroy source;  %s not copied"),
           quoteaf_n (0, dst->name), quoteaf_n (1, src->name));
  else if (link)
    made = atomic_backup_link (dst, rel);
  else if (renameat (loc_fd (dst), dst->rel, loc_fd (dst), rel) != 0)
    error (0, errno, _("cannot backup %s"), quoteaf (dst->name));
  else
    made = BACKUP_RENAMED;
  if (made != BACKUP_FAILED)
    {
      size_t dir_len = dst->rel - dst->name;
      size_t rel_size = strlen (rel) + 1;
      backup = xmalloc (dir_len + rel_size);
      memcpy (backup, dst->name, dir_len);
      memcpy (backup + dir_len, rel, rel_size);
      if (hashed)
        copy_hash_renamed (dst->name, &moved, backup, x);
      *linked = made == BACKUP_LINKED;
    }
  free (rel);
  return backup;
}

/* The copy to DST failed: put its BACKUP, named as make_backup named
   it, back in its place, saying so if X says -v; if LINKED, the file
   is still in its place, and only loses the backup's name.  */
static void
restore_backup (char const *backup, bool linked, struct loc const *dst,
                struct cp_options const *x)
{
  char const *rel = backup + (dst->rel - dst->name);
  struct stat moved;
  bool hashed = (x->print_hash
                 && fstatat (loc_fd (dst), rel, &moved,
                             AT_SYMLINK_NOFOLLOW) == 0);
  if (linked ? unlinkat (loc_fd (dst), rel, 0) != 0
      : renameat (loc_fd (dst), rel, loc_fd (dst), dst->rel) != 0)
    {
      error (0, errno, _("cannot un-backup %s"), quoteaf (dst->name));
      return;
    }
  if (hashed)
    copy_hash_renamed (backup, &moved, dst->name, x);
  if (x->verbose)
    printf (_("%s -> %s (unbackup)\n"), quoteaf_n (0, backup),
            quoteaf_n (1, dst->name));
}

/* A link to make: to TARGET, symbolic or hard (following TARGET if
   it is a symbolic link and FOLLOW); a hard link's TARGET is relative
   to the descriptor TARGET_DIR.  */
struct new_link
{
  char const *target;
  bool symbolic;
  bool follow;
  int target_dir;
  int dir;			/* what the new link's name is relative to */
};

static int make_link (struct loc const *dst, struct new_link *l,
                      bool replace);

/* Remember DST, a symbolic link just made, where POSIX's rules could
   later have a copy written through it.  */
static void
remember_made_link_at (struct link_tables *t, struct loc const *dst)
{
  struct stat st;
  if (posixly_correct ()
      && fstatat (loc_fd (dst), dst->rel, &st, AT_SYMLINK_NOFOLLOW) == 0)
    remember_made_link (t, &st);
}

/* Recreate the symbolic link SRC as DST in session S, replacing DST if
   REPLACE.  */
static bool
copy_symlink (struct loc const *src, struct stat const *src_st,
              struct loc const *dst, bool replace, struct copy_session *s,
              struct cp_options const *x)
{
  char *target = areadlinkat (loc_fd (src), src->rel);
  if (!target)
    {
      error (0, errno, _("cannot read symbolic link %s"),
             quoteaf (src->name));
      return false;
    }
  struct new_link l = { target, true, false, AT_FDCWD, loc_fd (dst) };
  bool ok = 0 <= make_link (dst, &l, replace);
  if (!ok)
    error (0, errno, _("cannot create symbolic link %s"),
           quoteaf (dst->name));
  else
    remember_made_link_at (s->links, dst);
  free (target);
  /* Where a new file is sure to be its maker's, so is a link, and one
     whose source is its maker's too has the source's owner and group
     already: the attribute copy reads only those of the status it is
     given for a link, so SRC_ST serves, and no chown is made.  */
  struct attr_file link = loc_attr (dst, -1, true);
  if (owned_as_made (s, dst, src_st))
    link.st = src_st;
  return ok && copy_attributes (loc_attr (src, -1, false), src_st, link, x);
}

/* Recreate the FIFO, device or socket SRC as DST.  */
static bool
copy_special (struct loc const *src, struct stat const *src_st,
              struct loc const *dst, struct cp_options const *x)
{
  mode_t perms = new_file_mode (src_st, x);
  if (S_ISFIFO (src_st->st_mode))
    {
      if (mkfifoat (loc_fd (dst), dst->rel, perms) != 0)
        {
          error (0, errno, _("cannot create fifo %s"), quoteaf (dst->name));
          return false;
        }
    }
  else if (mknodat (loc_fd (dst), dst->rel, (src_st->st_mode & S_IFMT) | perms,
                    src_st->st_rdev) != 0)
    {
      error (0, errno, _("cannot create special file %s"),
             quoteaf (dst->name));
      return false;
    }
  return copy_attributes (loc_attr (src, -1, false), src_st,
                          loc_attr (dst, -1, true), x);
}

static int
make_link_at (char *name, void *arg)
{
  struct new_link const *l = arg;
  return (l->symbolic
          ? symlinkat (l->target, l->dir, name)
          : linkat (l->target_dir, l->target, l->dir, name,
                    l->follow ? AT_SYMLINK_FOLLOW : 0));
}

/* Make the link L at DST.  If DST exists and REPLACE (-f), make the
   link under a new name beside DST and rename it over DST, so that
   DST is never missing, and a target reached through DST itself is
   still there to be linked to.  Return 0, or 1 if DST was replaced,
   or -1 with errno set.  */
static int
make_link (struct loc const *dst, struct new_link *l, bool replace)
{
  if (make_link_at ((char *) dst->rel, l) == 0)
    return 0;
  if (! (replace && errno == EEXIST))
    return -1;

  char *dir = dir_name (dst->rel);
  char *tmp = file_name_concat (dir, "cpddXXXXXX", NULL);
  free (dir);
  int r = try_tempname (tmp, 0, l, make_link_at);
  if (r == 0)
    {
      r = renameat (l->dir, tmp, l->dir, dst->rel);
      int e = errno;
      /* rename does nothing if both are links to one file.  */
      if (unlinkat (l->dir, tmp, 0) != 0 && errno != ENOENT)
        r = -1;
      else
        errno = e;
    }
  free (tmp);
  return r == 0 ? 1 : r;
}

/* -s: make DST a symbolic link to SRC, replacing DST if REPLACE, and
   note it in T.  A
   relative SRC is only right if DST is in the working directory.  As
   in GNU cp, DST is refused only if both the working directory and
   DST's directory can be looked at and they differ: where either
   cannot, the link is tried, and its failure says why.  */
static bool
make_symlink (struct loc const *src, struct loc const *dst, bool replace,
              struct link_tables *t)
{
  if (src->name[0] != '/')
    {
      char *dir = dir_name (dst->name);
      struct stat dot, dir_st;
      bool here = (STREQ (dir, ".")
                   || stat (".", &dot) != 0 || stat (dir, &dir_st) != 0
                   || SAME_INODE (dot, dir_st));
      free (dir);
      if (!here)
        {
          error (0, 0,
                 _("%s: can make relative symbolic links only in current directory"),
                 quotef (dst->name));
          return false;
        }
    }
  struct new_link l = { src->name, true, false, AT_FDCWD, loc_fd (dst) };
  if (make_link (dst, &l, replace) < 0)
    {
      error (0, errno, _("cannot create symbolic link %s to %s"),
             quoteaf_n (0, dst->name), quoteaf_n (1, src->name));
      return false;
    }
  remember_made_link_at (t, dst);
  return true;
}

/* -l, or a further link under --preserve=links: make DST a hard link
   to TARGET (named TARGET_NAME), or to what it points to if FOLLOW;
   replace DST if REPLACE.  Return 0, or 1 if DST was replaced, or -1
   after a diagnostic.  */
static int
make_hard_link (int target_dir, char const *target, char const *target_name,
                struct loc const *dst, bool follow, bool replace)
{
  struct new_link l = { target, false, follow, target_dir, loc_fd (dst) };
  int r = make_link (dst, &l, replace);
  if (r < 0)
    error (0, errno, _("cannot create hard link %s to %s"),
           quoteaf_n (0, dst->name), quoteaf_n (1, target_name));
  return r;
}

/* Whether the copy of SRC_ST is remembered in the link map: with
   --preserve=links, that of a file which other links may reach (as
   GNU cp tells them, not with -l, which links anyway); and that of a
   directory given as an operand, to tell it when it is reached
   again.  */
bool
remembers_copy (struct stat const *src_st, struct copy_ctx const *ctx,
                struct cp_options const *x)
{
  /* Without following links, a directory below the operands is never
     reached again, so its copy is not remembered: a deep tree would
     keep the name of each of its directories.  */
  if (S_ISDIR (src_st->st_mode) && !ctx->command_line
      && !follows_links (ctx, x))
    return false;
  if (x->preserve_links && !x->hard_link
      && (1 < src_st->st_nlink || x->dereference == CP_DEREF_ALWAYS
          || (ctx->command_line
              && x->dereference == CP_DEREF_COMMAND_LINE)))
    return true;
  return S_ISDIR (src_st->st_mode) && ctx->command_line;
}

/* Make DST a hard link to EARLIER, the copy of another link to the
   same source file, replacing whatever is at DST, as GNU cp does even
   where it took DST to be new, and says with -v.  A copy whose rename
   waits in session S's batch is renamed first, lest the link be made
   to what its name named before.  */
static bool
link_to_earlier (char const *earlier, struct loc const *dst,
                 struct copy_session *s, struct cp_options const *x)
{
  if (!atomic_batch_settle (s->renames, earlier))
    return false;
  int r = make_hard_link (AT_FDCWD, earlier, earlier, dst, false, true);
  if (r < 0)
    return false;
  struct stat st;
  if (x->print_hash
      && fstatat (loc_fd (dst), dst->rel, &st, AT_SYMLINK_NOFOLLOW) == 0)
    copy_hash_linked (dst->name, &st, x);
  if (0 < r && x->verbose)
    printf (_("removed %s\n"), quoteaf (dst->name));
  return true;
}

/* -u skipped SRC_ST as up to date at DST.  DST still counts as its
   copy, as in GNU cp: further links to SRC_ST are linked to DST, and
   if another link was copied before, DST, up to date or not, becomes
   a link to its copy.  CTX's session says who keeps the links.  */
static bool
remember_skipped (struct stat const *src_st, struct loc const *dst,
                  struct copy_ctx const *ctx, struct cp_options const *x)
{
  struct copy_session *s = ctx->session;
  struct copy_helpers const *helpers = &s->helpers;
  if (links_owned (helpers))
    {
      char *first = helpers->remote->ops->first_copy (helpers->remote->job,
                                                      src_st, dst->name);
      if (!first)
        {
          helpers->remote->ops->first_done (helpers->remote->job, src_st,
                                            true);
          return true;
        }
      bool ok = link_to_earlier (first, dst, s, x);
      free (first);
      return ok;
    }
  char const *earlier = remember_first_copy (s->links, src_st, dst->name);
  return !earlier || link_to_earlier (earlier, dst, s, x);
}

/* Remember DST in T as made from an operand.  */
static void
remember_made_file_at (struct link_tables *t, struct loc const *dst)
{
  struct stat st;
  if (fstatat (loc_fd (dst), dst->rel, &st, AT_SYMLINK_NOFOLLOW) == 0)
    remember_made_file (t, &st, dst->name);
}

/* Make the copy of the non-directory SRC at DST, whose former file
   (if any) is still there when EXISTS.  If EARLIER, it is the copy of
   another link to the same file, to link DST to.  A regular file's
   data is copied where PLACE says.  */
static bool
make_copy (struct file_source const *src, struct loc const *dst,
           bool exists, char const *earlier, struct fill_place const *place,
           bool *recorded, struct cp_options const *x)
{
  struct loc const *sl = src->loc;
  struct stat const *src_st = src->st;
  /* Links replace what is in the way with -f, or for -l once the user
     agreed to replace the destination, as in GNU cp: even where the
     destination was taken to be new (copy_to) but is there.  */
  if (earlier)
    return link_to_earlier (earlier, dst, place->session, x);
  if (x->symbolic_link)
    return (make_symlink (sl, dst, x->force, place->session->links)
            && copy_link_attributes (loc_attr (sl, -1, false), src_st,
                                     loc_attr (dst, -1, true), x));
  if (x->hard_link)
    return 0 <= make_hard_link (loc_fd (sl), sl->rel, sl->name, dst,
                                src->follow,
                                x->force || x->interactive == CP_ASK);
  if (copies_data (src_st, x))
    {
      *recorded = true;
      return copy_data_file (src, dst, exists, place, x);
    }
  /* Only --attributes-only leaves DST there: -f still replaces it.  */
  if (S_ISLNK (src_st->st_mode))
    return copy_symlink (sl, src_st, dst, x->force, place->session, x);
  return copy_special (sl, src_st, dst, x);
}

/* Write MODE's permission bits as ls -l does, in BUF of 10 bytes.  */
static void
permission_string (mode_t mode, char *buf)
{
  static char const rwx[] = "rwxrwxrwx";
  for (int i = 0; i < 9; i++)
    buf[i] = mode & (S_IRUSR >> i) ? rwx[i] : '-';
  if (mode & S_ISUID)
    buf[2] = buf[2] == 'x' ? 's' : 'S';
  if (mode & S_ISGID)
    buf[5] = buf[5] == 'x' ? 's' : 'S';
  if (mode & S_ISVTX)
    buf[8] = buf[8] == 'x' ? 't' : 'T';
  buf[9] = '\0';
}

/* -i: ask whether to overwrite DST (status DST_ST), mentioning its
   permissions if we could not write it.  Return the answer.  */
static bool
ask_overwrite (struct loc const *dst, struct stat const *dst_st,
               struct cp_options const *x)
{
  if (!S_ISLNK (dst_st->st_mode)
      && faccessat (loc_fd (dst), dst->rel, W_OK, AT_EACCESS) != 0)
    {
      char perms[10];
      unsigned int mode = dst_st->st_mode & (S_ISUID | S_ISGID | S_ISVTX
                                             | S_IRWXU | S_IRWXG | S_IRWXO);
      permission_string (mode, perms);
      if (x->force || x->remove_destination)
        fprintf (stderr, _("%s: replace %s, overriding mode %04o (%s)? "),
                 program_name, quoteaf (dst->name), mode, perms);
      else
        fprintf (stderr, _("%s: unwritable %s (mode %04o, %s); try anyway? "),
                 program_name, quoteaf (dst->name), mode, perms);
    }
  else
    fprintf (stderr, _("%s: overwrite %s? "), program_name,
             quoteaf (dst->name));
  return yesno ();
}

/* Is SRC_ST newer than DST_ST, as -u asks?  */
static bool
newer_than (struct stat const *src_st, struct stat const *dst_st)
{
  struct timespec st = get_stat_mtime (src_st);
  struct timespec dt = get_stat_mtime (dst_st);
  return (dt.tv_sec < st.tv_sec
          || (dt.tv_sec == st.tv_sec && dt.tv_nsec < st.tv_nsec));
}

/* Whether DST, found as DST_ST, a regular file newer than its source
   SRC, is a copy of it an earlier run left unfinished, which --resume
   is to finish even with -u: a copy gets its source's time only once
   complete.  Its status tells when it is shorter than its source, or
   full size with holes where the source has none (ranges yet to be
   copied); else it is one when it holds only the source's data.  A
   file that can't be read to tell is kept, as -u would keep it.  */
static bool
unfinished_copy (struct file_source const *src, struct loc const *dst,
                 struct stat const *dst_st, struct cp_options const *x)
{
  struct stat const *src_st = src->st;
  if (! (x->resume && S_ISREG (src_st->st_mode)
         && S_ISREG (dst_st->st_mode) && dst_st->st_size <= src_st->st_size))
    return false;
  if (dst_st->st_size < src_st->st_size
      || (xfer_looks_sparse (dst_st) && !xfer_looks_sparse (src_st)))
    return true;

  int sfd = 0 <= src->fd ? src->fd : open_source (src->loc, src->follow);
  int dfd = openat (loc_fd (dst), dst->rel, O_RDONLY | O_BINARY);
  struct stat sst, dst2;
  bool unfinished = (0 <= sfd && 0 <= dfd
                     && fstat (sfd, &sst) == 0 && SAME_INODE (sst, *src_st)
                     && fstat (dfd, &dst2) == 0 && SAME_INODE (dst2, *dst_st)
                     && resume_holds_only_source (sfd, dfd,
                                                  src_st->st_size));
  if (0 <= dfd)
    close (dfd);
  if (0 <= sfd && sfd != src->fd)
    close (sfd);
  return unfinished;
}

/* Whether X keeps every destination that exists (-n, --update=none
   or --update=none-fail), without even looking at what it is.  */
static bool
keeps_every_destination (struct cp_options const *x)
{
  return x->update == CP_UPDATE_NONE || x->update == CP_UPDATE_NONE_FAIL;
}

/* How an existing destination is dealt with.  */
enum overwrite
{
  OVERWRITE,			/* replace it */
  KEEP,				/* leave it, which is no error */
  KEEP_UP_TO_DATE,		/* leave it, as -u finds it up to date */
  KEEP_DECLINED,		/* leave it as -i was told: an error */
  KEEP_REFUSED			/* leave it, an error already reported */
};

/* Whether the existing DST is to be replaced at all: -n keeps it;
   then --update=none keeps it, --update=none-fail keeps it and says
   so, --update=older keeps it unless SRC_ST is newer than DST_ST; then
   -i asks about it, a no being a failure.  DST_ST is what the copy
   finds there: the link itself if it replaces a link, else what the
   link leads to.  As in GNU cp, this comes before any complaint about
   what DST is, so a file kept is no such error.  */
static enum overwrite
wants_overwrite (struct file_source const *src, struct loc const *dst,
                 struct stat const *dst_st, struct cp_options const *x)
{
  if (x->update == CP_UPDATE_NONE)
    return KEEP;
  if (x->update == CP_UPDATE_NONE_FAIL)
    {
      error (0, 0, _("not replacing %s"), quoteaf (dst->name));
      return KEEP_REFUSED;
    }
  if (x->update == CP_UPDATE_OLDER && !newer_than (src->st, dst_st)
      && !unfinished_copy (src, dst, dst_st, x))
    return KEEP_UP_TO_DATE;
  if (x->interactive == CP_ASK && !ask_overwrite (dst, dst_st, x))
    return KEEP_DECLINED;
  return OVERWRITE;
}

/* Leave the existing DST (status DST_ST) as WHY says, not replacing it
   with SRC_ST; return whether that is no error.  --debug names each
   file so kept, but for those already reported.  The progress line's
   total, which counted the source's data, is told to leave it out.  */
static bool
keep_destination (enum overwrite why, struct stat const *src_st,
                  struct loc const *dst, struct stat const *dst_st,
                  struct copy_ctx const *ctx, struct cp_options const *x)
{
  struct xfer_sink *sink = x->xfer.sink;
  if (sink && S_ISREG (src_st->st_mode))
    sink->left (sink, src_st->st_size);
  bool ok = why == KEEP || why == KEEP_UP_TO_DATE;
  if (why == KEEP_UP_TO_DATE && !S_ISDIR (dst_st->st_mode))
    ok = remember_skipped (src_st, dst, ctx, x);
  if (x->debug && why != KEEP_REFUSED)
    printf (_("skipped %s\n"), quoteaf (dst->name));
  return ok;
}

/* Whether DST, whose entry D found, was made by this cp from an
   earlier operand, as T says; if so, say why SRC is not copied to it.
   A regular file would be written through such a link (THROUGH_LINK):
   to wherever an earlier source said, which is refused even where
   POSIX would have a planted link followed.  */
static bool
refuse_just_created (char const *src, char const *dst, struct dest const *d,
                     bool through_link, struct link_tables const *t,
                     struct cp_options const *x)
{
  /* Only numbered backups keep both copies of two operands with one
     name.  */
  if (x->backup_type == numbered_backups
      || !made_by_operand (t, dst, &d->lst))
    return false;
  if (through_link)
    error (0, 0, _("will not copy %s through just-created symlink %s"),
           quoteaf_n (0, src), quoteaf_n (1, dst));
  else
    error (0, 0, _("will not overwrite just-created %s with %s"),
           quoteaf_n (0, dst), quoteaf_n (1, src));
  return true;
}

/* Make room at DST, found as D says, for the non-directory SRC: move
   it aside as its backup, or unlink it if UNLINK_FIRST.  Set
   D->backup to the backup's name if one was made, and D->exists to
   whether DST is still there.  */
static bool
make_room (struct file_source const *src, struct loc const *dst,
           bool unlink_first, struct dest *d, struct cp_options const *x)
{
  d->backup = NULL;
  d->exists = true;
  if (x->backup_type != no_backups)
    {
      d->backup = make_backup (src->loc, src->st, dst, d->atomic,
                               &d->backup_linked, x);
      d->exists = d->backup_linked;
      return d->backup != NULL;
    }
  /* The rename of --atomic replaces the destination, links and all.  */
  if (unlink_first && !d->atomic)
    {
      d->exists = false;
      return remove_destination (dst, x->verbose);
    }
  return true;
}

/* The copy goes through the destination link D (DST): make D say
   what the link leads to.  A link leading nowhere is no destination
   yet (opening it refuses to write through it); with -f, a loop of
   links is replaced without a further look, as GNU cp does.  Return
   false after a diagnostic if the link can't be followed otherwise.  */
static bool
resolve_dest_link (struct loc const *dst, struct dest *d,
                   struct cp_options const *x)
{
  if (d->st_ok)
    return true;
  if (d->st_errno == ENOENT)
    d->exists = false;
  else if (d->st_errno == ELOOP && x->force)
    d->loops = true;
  else
    {
      error (0, d->st_errno, _("cannot stat %s"), quoteaf (dst->name));
      return false;
    }
  return true;
}

/* Make room at DST, where a non-directory is, for the directory SRC
   (status SRC_ST).  Only a backup does, as in GNU cp 9.10: it moves
   the non-directory aside, and the directory is made in its place.
   Return the backup's name, to be freed; or, if there is to be no
   backup or it can't be made, say why not and return NULL.  */
static char *
make_room_for_dir (struct loc const *src, struct stat const *src_st,
                   struct loc const *dst, struct cp_options const *x)
{
  if (x->backup_type == no_backups)
    {
      error (0, 0, _("cannot overwrite non-directory %s with directory %s"),
             quoteaf_n (0, dst->name), quoteaf_n (1, src->name));
      return NULL;
    }
  bool linked;
  return make_backup (src, src_st, dst, false, &linked, x);
}

/* Is there nothing at DST, not even a dangling link?  */
static bool
nothing_at (struct loc const *dst)
{
  struct stat st;
  return (fstatat (loc_fd (dst), dst->rel, &st, AT_SYMLINK_NOFOLLOW) != 0
          && errno == ENOENT);
}

/* Whether a worker can copy the file SRC_ST whole, opening its source
   and creating its copy: a regular file whose copy goes where this
   copy made the directory and so nothing EXISTS, and whose copy no
   later name links to (TRACK_LINKS), which needs it to exist at once.
   Copying only attributes is left to the walk, and so, with other
   ranks, is a file large enough to split: the walk makes its copy,
   then sends its ranges.  */
static bool
hands_over_whole (struct stat const *src_st, bool exists, bool track_links,
                  struct copy_ctx const *ctx, struct cp_options const *x)
{
  struct copy_helpers const *helpers = &ctx->session->helpers;
  return (sends_files (helpers) && ctx->files && ctx->dst_dir_made
          && !ctx->command_line && !exists
          && !track_links && S_ISREG (src_st->st_mode)
          && copies_data (src_st, x) && !x->attributes_only
          && ! (helpers->remote && helpers->chunk_size <= src_st->st_size));
}

/* Copy the entry SRC, which its directory lists as a regular file, to
   DST, where the copy made the directory and so nothing is in the way,
   as copy_internal would: but open SRC first, rather than look at it
   and then open it, here or in a worker.  Return false, having done
   nothing, if SRC is to be copied as copy_internal does it; else set
   *OK to whether the copy went well so far.  */
bool
copy_regular_entry (struct loc const *src, struct loc const *dst,
                    struct copy_ctx const *ctx, struct cp_options const *x,
                    bool *ok)
{
  struct copy_session *s = ctx->session;
  if (!ctx->dst_dir_made || ctx->command_line || s->helpers.remote
      || x->attributes_only || x->xfer.direct || x->xfer.uncached)
    return false;
  struct stat st;
  int fd = open_entry (src, &st);
  if (fd < 0)
    return false;
  if (remembers_copy (&st, ctx, x) || !copies_data (&st, x))
    {
      /* Nothing was read: its closing has nothing to say.  */
      close (fd);
      return false;
    }
  if (x->verbose)
    print_verbose (src->name, dst->name, NULL);
  struct file_source from = { src, &st, follows_links (ctx, x), fd, true };
  *ok = ((s->helpers.pool && hand_over_new_file (&from, dst, ctx->files, x))
         || copy_new_file (&from, dst, ctx->files, s, x));
  return true;
}

/* Look at DST, where SRC_ST is to be copied, into *D, as CTX and X
   say.  Return false after a diagnostic if that fails.  */
static bool
find_destination (struct loc const *dst, struct stat const *src_st,
                  struct dest *d, struct copy_ctx const *ctx,
                  struct cp_options const *x)
{
  /* As GNU cp does, a directory the copy made is not searched for
     what it cannot hold yet: every file is then made exclusively, so
     one that appeared there all the same is an error, not a
     destination.  So is an operand's destination taken to be new
     (copy_to).  */
  *d = (struct dest) { .exists = false };
  if (!ctx->dst_dir_made && !stat_destination (dst, d))
    return false;

  /* A regular file is copied through a destination link, so what the
     link leads to is the destination, and so is a directory with
     --keep-directory-symlink (replaces_dest_link).  Anything else
     replaces the link itself, whatever it leads to.  */
  d->had_entry = d->exists;
  d->through_link = (d->exists && S_ISLNK (d->lst.st_mode)
                     && !replaces_dest_link (src_st, x));
  if (d->through_link && !resolve_dest_link (dst, d, x))
    return false;
  d->found = d->through_link && !d->loops ? &d->st : &d->lst;
  d->known = d->exists && !d->loops;
  return true;
}

/* Copy the directory SRC to DST, found as D says.  A directory is
   copied through a destination link only for --keep-directory-symlink;
   a loop of links that -f has not looked through is then left for
   making the directory to fail on, as in GNU cp.  */
static bool
copy_dir_entry (struct file_source const *src, struct loc const *dst,
                struct dest const *d, struct copy_record *r,
                struct copy_ctx const *ctx, struct cp_options const *x)
{
  struct loc const *sl = src->loc;
  bool exists = d->known;
  char *backup = NULL;
  if (d->known && !S_ISDIR (d->found->st_mode))
    {
      /* A backup would make room for the directory, but not over a
         non-directory an earlier operand's copy made; without a
         backup the directory is refused anyway.  */
      if (x->backup_type != no_backups && ctx->command_line
          && refuse_just_created (sl->name, dst->name, d, false,
                                  ctx->session->links, x))
        return false;
      backup = make_room_for_dir (sl, src->st, dst, x);
      if (!backup)
        return false;
      exists = false;
    }
  bool skip;
  bool ok = dir_copied_before (sl, src->st, dst, ctx, x, &skip);
  if (!skip)
    ok = copy_directory (sl, src->st, dst, exists, r, ctx, x);
  /* A directory that could not even be made leaves the file it was
     to replace where it was, as in GNU cp.  */
  if (!ok && backup && nothing_at (dst))
    restore_backup (backup, false, dst, x);
  free (backup);
  return ok;
}

/* Whether the non-directory SRC may go to DST, found as D says: not if
   the destination is kept (-n, -u, -i), or refused.  Set *OK to
   whether that is no error.  */
static bool
may_replace (struct file_source const *src, struct loc const *dst,
             struct dest *d, struct copy_ctx const *ctx,
             struct cp_options const *x, bool *ok)
{
  struct loc const *sl = src->loc;
  *ok = false;
  /* With backups, GNU cp 9.10 does not refuse to put a non-directory
     where a directory is, but neither moves the directory aside nor
     removes it: the file is made as if the directory were not there,
     which fails as making such a file there fails.  */
  if (d->known)
    {
      enum overwrite what = wants_overwrite (src, dst, d->found, x);
      if (what != OVERWRITE)
        {
          d->kept = true;
          *ok = keep_destination (what, src->st, dst, d->found, ctx, x);
          return false;
        }
      if (S_ISDIR (d->found->st_mode) && x->backup_type == no_backups)
        {
          error (0, 0, _("cannot overwrite directory %s with non-directory %s"),
                 quoteaf_n (0, dst->name), quoteaf_n (1, sl->name));
          return false;
        }
    }
  /* Even a link leading nowhere, and so no destination yet, is
     refused if an earlier operand's copy made it.  */
  if (d->had_entry && ctx->command_line
      && refuse_just_created (sl->name, dst->name, d, d->through_link,
                              ctx->session->links, x))
    return false;
  /* Deeper in the tree, GNU cp 9.10 writes through such a dangling link
     when POSIXLY_CORRECT is set, out of the destination to wherever it
     leads; cpdd refuses, as for an operand.  */
  if (d->through_link && !d->exists
      && made_link (ctx->session->links, &d->lst))
    {
      error (0, 0, _("will not copy %s through just-created symlink %s"),
             quoteaf_n (0, sl->name), quoteaf_n (1, dst->name));
      return false;
    }
  *ok = true;
  return true;
}

/* What becomes of the hard links of a non-directory being copied.  */
struct link_plan
{
  bool track;			/* its copy is remembered for later links */
  bool owned;			/* the process owning it says which name
                                   is first (other ranks) */
  char *first;			/* if so, the first copy's name, else NULL */
  char const *earlier;		/* the copy to link to, if any */
  struct fill_outcome *handed;	/* a first copy's outcome, for workers */
};

/* Plan in *P how the copy of SRC to DST deals with the other links of
   its source.  */
static void
plan_links (struct link_plan *p, struct file_source const *src,
            struct loc const *dst, struct copy_ctx const *ctx,
            struct cp_options const *x)
{
  struct copy_session *s = ctx->session;
  struct copy_remote const *remote = s->helpers.remote;
  *p = (struct link_plan) { .track = remembers_copy (src->st, ctx, x) };
  p->owned = p->track && links_owned (&s->helpers);
  /* With links owned elsewhere, the owner says which name comes
     first.  */
  if (p->owned)
    p->first = remote->ops->first_copy (remote->job, src->st, dst->name);
  else if (p->track)
    p->earlier = earlier_copy (s->links, src->st,
                               remote ? remote->ops->wait : NULL,
                               remote ? remote->job : NULL);
  if (!p->earlier)
    p->earlier = p->first;
}

/* Make the copy of SRC at DST, found as D says, with its links as P
   plans: handed whole to a worker where it can be, else made here.
   A backup is put back at once if the copy fails, so that copy is not
   left to a worker.  */
static bool
make_non_dir (struct file_source const *src, struct loc const *dst,
              struct dest *d, struct link_plan *p,
              struct copy_ctx const *ctx, struct cp_options const *x)
{
  if (hands_over_whole (src->st, d->exists, p->track, ctx, x)
      && hand_over_new_file (src, dst, ctx->files, x))
    {
      d->recorded = true;
      return true;
    }
  /* A first copy that the owner of its links knows of is made here
     whole, not in ranges sent to other ranks: a rank walking a subtree
     takes ranges only while its walk waits for answers, not while it
     waits for this very copy to end, to link another name to it.  */
  struct fill_outcome *pending = NULL;
  if (has_helpers (&ctx->session->helpers) && p->track && !p->earlier
      && !p->owned)
    p->handed = pending = fill_outcome_new (ctx->session->links);
  struct fill_place place = { ctx->session,
                              d->backup || p->owned ? NULL : ctx->files,
                              false, &pending, d->backup != NULL };
  bool ok = make_copy (src, dst, d->exists, p->earlier, &place,
                       &d->recorded, x);
  if (!ok && d->backup)
    restore_backup (d->backup, d->backup_linked, dst, x);
  /* Unless a task took it, the copy is over, whole or failed.  */
  if (pending)
    {
      fill_outcome_release (p->handed);
      p->handed = NULL;
    }
  return ok;
}

/* The copy of SRC to DST, planned as P, has ended, well if OK: tell the
   owner of its links, and remember it.  */
static void
end_links (struct link_plan *p, struct file_source const *src,
           struct loc const *dst, bool ok, struct copy_ctx const *ctx)
{
  struct copy_session *s = ctx->session;
  if (p->owned && !p->first)
    s->helpers.remote->ops->first_done (s->helpers.remote->job, src->st,
                                        ok);
  if (ok)
    {
      if (p->track && !p->earlier && !p->owned)
        remember_copy (s->links, src->st, dst->name, p->handed);
      if (ctx->command_line)
        remember_made_file_at (s->links, dst);
    }
  else
    fill_outcome_release (p->handed);
  free (p->first);
}

/* Copy the non-directory SRC to DST, found as D says.  */
static bool
copy_non_dir (struct file_source const *src, struct loc const *dst,
              struct dest *d, struct copy_ctx const *ctx,
              struct cp_options const *x)
{
  bool ok;
  if (!may_replace (src, dst, d, ctx, x, &ok))
    return ok;
  struct link_plan plan;
  plan_links (&plan, src, dst, ctx, x);
  ok = true;
  d->backup = NULL;
  d->backup_linked = false;
  d->atomic = (!plan.earlier && copies_data (src->st, x)
               && atomic_replaces (x));
  if (d->atomic && d->through_link)
    {
      /* Writing through the link would put the temporary file beside
         the link, not beside what it leads to; replacing the link
         is what --remove-destination asks for.  */
      error (0, 0, _("not replacing %s, a symbolic link, with --atomic"),
             quoteaf (dst->name));
      ok = false;
    }
  else if (d->exists && ! (d->known && S_ISDIR (d->found->st_mode)))
    {
      copy_verify_settle (d->found, x);
      /* GNU cp unlinks the destination, and says so, rather than
         write into a file that has other links it would keep with
         --preserve=links, or give a link or special file copied as
         itself the destination's name; but not to copy attributes
         only, which keeps the destination's data and links.  A
         special file reached by following links (-L, or -H for an
         operand) is made where the destination still is, which fails
         with EEXIST, as in GNU cp: even -f does not remove it.
         --resume continues a regular file with other links, which an
         earlier run most likely made to it.  */
      bool recreate = !x->attributes_only;
      bool resumes = (x->resume && S_ISREG (d->found->st_mode)
                      && S_ISREG (src->st->st_mode));
      bool unlink_first = (x->remove_destination
                           || (recreate && x->preserve_links
                               && 1 < d->found->st_nlink && !resumes)
                           || (recreate && !src->follow
                               && !S_ISREG (src->st->st_mode)));
      ok = make_room (src, dst, unlink_first, d, x);
    }
  /* As in GNU cp, a file is named before it is copied, so that what
     goes wrong while copying it comes after its name.  */
  if (ok && x->verbose)
    print_verbose (src->loc->name, dst->name, d->backup);
  if (ok)
    ok = make_non_dir (src, dst, d, &plan, ctx, x);
  end_links (&plan, src, dst, ok, ctx);
  free (d->backup);
  return ok;
}

/* Copy SRC to DST, as copy_internal does, saying in *D what became
   of DST and in R what SRC is.  */
static bool
copy_entry (struct loc const *src, struct loc const *dst,
            struct copy_ctx const *ctx, struct cp_options const *x,
            struct dest *d, struct copy_record *r)
{
  bool follow = follows_links (ctx, x);
  struct stat src_st;
  if (fstatat (loc_fd (src), src->rel, &src_st,
               follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0)
    {
      error (0, errno, _("cannot stat %s"), quoteaf (src->name));
      return false;
    }
  r->type = src_st.st_mode & S_IFMT;
  bool is_dir = S_ISDIR (src_st.st_mode);
  if (is_dir && !x->recursive)
    {
      error (0, 0, _("-r not specified; omitting directory %s"),
             quoteaf (src->name));
      return false;
    }

  /* GNU cp copies a file given twice once, unless it makes backups.  */
  if (ctx->command_line && !is_dir && x->backup_type == no_backups
      && repeated_operand (ctx->session->links, src->name, &src_st))
    {
      error (0, 0, _("warning: source file %s specified more than once"),
             quoteaf (src->name));
      d->kept = true;
      return true;
    }

  if (!find_destination (dst, &src_st, d, ctx, x))
    return false;
  struct file_source from = { src, &src_st, follow, -1, false };
  if (d->known)
    {
      bool done = false;
      if (!keeps_every_destination (x)
          && !copy_onto_ok (&from, dst, d->found, x, &done))
        {
          error (0, 0, _("%s and %s are the same file"),
                 quoteaf_n (0, src->name), quoteaf_n (1, dst->name));
          return false;
        }
      if (done)
        return true;
    }
  return (is_dir ? copy_dir_entry (&from, dst, d, r, ctx, x)
          : copy_non_dir (&from, dst, d, ctx, x));
}

/* Copy SRC to DST; CTX says where in the tree they are.  The file is
   recorded here, unless the copy of its data does it.  */
bool
copy_internal (struct loc const *src, struct loc const *dst,
               struct copy_ctx const *ctx, struct cp_options const *x)
{
  struct copy_record r;
  copy_record_begin (&r, x->report, src->name, dst->name, 0);
  struct dest d = { .kept = false, .recorded = false };
  bool ok = copy_entry (src, dst, ctx, x, &d, &r);
  if (d.recorded)
    copy_record_drop (&r);
  else
    copy_record_end (&r, (ok && d.kept ? COPY_SKIPPED
                          : copy_record_outcome (&r, ok)));
  return ok;
}

bool
copy (struct copy_session *s, char const *src_name, char const *dst_name,
      struct cp_options const *x)
{
  return copy_to (s, src_name, dst_name, false, x);
}

bool
copy_to (struct copy_session *s, char const *src_name, char const *dst_name,
         bool dst_new, struct cp_options const *x)
{
  bool into_self = false;
  prepare_stack ();
  size_t max_open = walker_default_max ();
  struct walker src_walk, dst_walk;
  walker_init (&src_walk, max_open);
  walker_init (&dst_walk, max_open);
  struct name_buf src_names = { NULL, 0 };
  struct name_buf dst_names = { NULL, 0 };
  bool others = has_helpers (&s->helpers);
  struct copy_ctx ctx = { .top_src = src_name, .top_dst = dst_name,
                          .top_dev = 0, .command_line = true,
                          .into_self = &into_self, .ancestors = NULL,
                          .src_walk = &src_walk, .dst_walk = &dst_walk,
                          .src_names = &src_names, .dst_names = &dst_names,
                          .session = s,
                          .files = others ? file_group_new (s, NULL) : NULL,
                          .dst_dir_made = dst_new };
  struct stat st;
  if (x->one_file_system && stat (src_name, &st) == 0)
    ctx.top_dev = st.st_dev;
  struct loc src = { NULL, src_name, src_name };
  struct loc dst = { NULL, dst_name, dst_name };
  bool ok = copy_internal (&src, &dst, &ctx, x);
  if (others)
    ok &= file_group_wait (ctx.files);
  /* The entry of the operand's copy, in a directory the walk did not
     enter.  */
  if (ok && s->syncs)
    {
      char *dir = dir_name (dst_name);
      ok = copy_sync_dir_at (s->syncs, AT_FDCWD, dir, dir);
      free (dir);
    }
  free (src_names.buf);
  free (dst_names.buf);
  return ok;
}
