/* copy-attr.c -- preserving a file's attributes in its copy.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include <fnmatch.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#if HAVE_LINUX_XATTR
# include <sys/xattr.h>
#endif
#if USE_LIBATTR
# include <attr/error_context.h>
# include <attr/libattr.h>
#endif

#include "system.h"
#include "acl.h"
#include "copy-attr.h"
#include "ignore-value.h"
#include "stat-time.h"
#include "utimens.h"

/* How failures to copy extended attributes are reported.  */
enum xattr_reports
{
  XATTR_REPORT_NONE,		/* -a: not at all */
  XATTR_REPORT_SOME,		/* all but a lack of support for them */
  XATTR_REPORT_ALL		/* --preserve=xattr, --attributes-only */
};

/* The reports X asks for.  With --attributes-only the attributes are
   the whole point of the copy, so every failure is told, but it fails
   the copy only if --preserve=xattr asked for them by name.  */
static enum xattr_reports
xattr_reports (struct cp_options const *x)
{
  if (x->require_preserve_xattr || x->attributes_only)
    return XATTR_REPORT_ALL;
  return x->quiet_xattr_failures ? XATTR_REPORT_NONE : XATTR_REPORT_SOME;
}

/* Whether FILE, reached by name, is to be looked at itself rather
   than followed: a symbolic link, as is IS_LINK, or anything below an
   operand, where a link can only have been swapped in meanwhile.  */
static bool
no_follow (struct attr_file file, bool is_link)
{
  return is_link || file.dirfd != AT_FDCWD;
}

static int
at_flags (struct attr_file file, bool is_link)
{
  return no_follow (file, is_link) ? AT_SYMLINK_NOFOLLOW : 0;
}

/* Whether /proc gives each descriptor a name.  The answer is kept
   atomically, as the workers of cp --jobs set attributes too; two may
   both ask /proc, and get the same answer.  */
static bool
proc_fd_names (void)
{
  static atomic_int known;	/* 0 not yet, 1 yes, -1 no */
  int k = atomic_load_explicit (&known, memory_order_relaxed);
  if (!k)
    {
      k = access ("/proc/self/fd", X_OK) == 0 ? 1 : -1;
      atomic_store_explicit (&known, k, memory_order_relaxed);
    }
  return 0 < k;
}

/* A name for FILE for the library functions that work by name (ACLs,
   libattr): the name /proc gives its descriptor, or its entry in its
   directory's descriptor, which lead to what cp opened rather than
   through the names above it; else, without /proc, its name.  Free
   the result.  */
static char *
path_of (struct attr_file file)
{
  bool by_fd = 0 <= file.fd;
  if (!by_fd && file.dirfd == AT_FDCWD)
    return xstrdup (file.rel);
  if (!proc_fd_names ())
    return xstrdup (file.name);
  char const *rel = by_fd ? "" : file.rel;
  size_t size = (sizeof "/proc/self/fd//" + INT_STRLEN_BOUND (int)
                 + strlen (rel));
  char *path = xmalloc (size);
  snprintf (path, size, "/proc/self/fd/%d%s%s", by_fd ? file.fd : file.dirfd,
            by_fd ? "" : "/", rel);
  return path;
}

/* Without calls of Linux's form, a file is treated as one on a file
   system without extended attributes: there are none to copy, as in
   GNU cp built without libattr, and no ACL to find among them.  */
#if !HAVE_LINUX_XATTR
static ssize_t
no_xattrs (void)
{
  errno = ENOTSUP;
  return -1;
}
#endif

/* List FILE's extended attribute names into BUF of SIZE bytes (with
   SIZE 0, tell how many bytes they take), through its descriptor, or
   else PATH not followed.  */
static ssize_t
xattr_list (struct attr_file file, char const *path, char *buf, size_t size)
{
#if HAVE_LINUX_XATTR
  return (0 <= file.fd ? flistxattr (file.fd, buf, size)
          : llistxattr (path, buf, size));
#else
  return no_xattrs ();
#endif
}

/* Whether the error E says that there are no extended attributes, or
   not the one asked for: Linux's calls say the latter with ENODATA,
   which some other systems do not have.  */
static bool
xattr_missing (int e)
{
#if HAVE_LINUX_XATTR
  if (e == ENODATA)
    return true;
#endif
  return e == ENOTSUP;
}

/* Report, as REPORTS says, the failure with errno whose message is
   FORMAT and ARGS.  */
static void
report_xattr_failure (enum xattr_reports reports, char const *format,
                      va_list args)
{
  int e = errno;
  if (reports == XATTR_REPORT_NONE
      || (reports == XATTR_REPORT_SOME && xattr_missing (e)))
    return;

  /* libattr's messages come ready to format, so make one string of
     them for error.  */
  va_list size_args;
  va_copy (size_args, args);
  int len = vsnprintf (NULL, 0, format, size_args);
  va_end (size_args);
  if (len < 0)
    {
      error (0, e, "%s", format);
      return;
    }
  char *message = xmalloc (len + 1);
  vsnprintf (message, len + 1, format, args);
  error (0, e, "%s", message);
  free (message);
}

#if USE_LIBATTR

/* What libattr is given to report failures through.  */
struct xattr_context
{
  struct error_context ctx;	/* first, as libattr knows only it */
  enum xattr_reports reports;
  char const *paths[2];		/* names libattr was given ... */
  char const *names[2];		/* ... and those to show instead */
};

static void
libattr_error (struct error_context *ctx, char const *format, ...)
{
  struct xattr_context *c = (struct xattr_context *) ctx;
  va_list args;
  va_start (args, format);
  report_xattr_failure (c->reports, format, args);
  va_end (args);
}

/* libattr quotes each name just before its message, into quoteaf's
   one buffer; a message with both an attribute and a file name thus
   shows the attribute twice, exactly as GNU cp's do.  */
static char const *
libattr_quote (struct error_context *ctx, char const *name)
{
  struct xattr_context *c = (struct xattr_context *) ctx;
  for (int i = 0; i < 2; i++)
    if (c->paths[i] && STREQ (name, c->paths[i]))
      return quoteaf (c->names[i]);
  return quoteaf (name);
}

/* Copy SRC's extended attributes to DST with libattr, which leaves out
   those /etc/xattr.conf says to skip or to handle with the
   permissions.  */
static bool
copy_xattrs (struct attr_file src, struct attr_file dst,
             enum xattr_reports reports)
{
  struct xattr_context c = { { libattr_error, libattr_quote, NULL },
                             reports, { NULL, NULL },
                             { src.name, dst.name } };
  if (0 <= src.fd && 0 <= dst.fd)
    return attr_copy_fd (src.name, src.fd, dst.name, dst.fd,
                         NULL, &c.ctx) == 0;
  char *src_path = path_of (src);
  char *dst_path = path_of (dst);
  c.paths[0] = src_path;
  c.paths[1] = dst_path;
  int r = attr_copy_file (src_path, dst_path, NULL, &c.ctx);
  free (src_path);
  free (dst_path);
  return r == 0;
}

#else /* !USE_LIBATTR */

/* Report a failure to copy extended attributes, as libattr would.  */
static void
xattr_failure (enum xattr_reports reports, char const *format, ...)
{
  va_list args;
  va_start (args, format);
  report_xattr_failure (reports, format, args);
  va_end (args);
}

/* Extended attributes not copied as such, as in libattr's default
   /etc/xattr.conf: ACLs travel with the permissions, and the others
   are the business of their file system or of the kernel.  */
static char const *const skipped_xattrs[] =
{
  "system.posix_acl_access", "system.posix_acl_default",
  "system.nfs4_acl", "system.nfs4acl",
  "trusted.SGI_*", "xfsroot.*", "user.Beagle.*", "security.evm", "afs.*"
};

static bool
xattr_is_copied (char const *name)
{
  for (size_t i = 0; i < sizeof skipped_xattrs / sizeof *skipped_xattrs; i++)
    if (fnmatch (skipped_xattrs[i], name, 0) == 0)
      return false;
  return true;
}

/* FILE's extended attribute names, NUL-separated, with their total
   size in *SIZE; NULL with errno set if they can't be listed.  A file
   without a descriptor is looked at itself, not followed if it is a
   symbolic link.  */
static char *
list_xattrs (struct attr_file file, char const *path, ssize_t *size)
{
  for (;;)
    {
      ssize_t n = xattr_list (file, path, NULL, 0);
      if (n < 0)
        return NULL;
      char *names = xmalloc (n + 1);
      *size = n == 0 ? 0 : xattr_list (file, path, names, n);
      if (0 <= *size)
        return names;
      int e = errno;
      free (names);
      errno = e;
      if (errno != ERANGE)
        return NULL;
    }
}

/* Read FILE's attribute NAME into BUF of SIZE bytes (with SIZE 0,
   tell its size), as xattr_list reaches FILE.  */
static ssize_t
xattr_get (struct attr_file file, char const *path, char const *name,
           char *buf, size_t size)
{
#if HAVE_LINUX_XATTR
  return (0 <= file.fd ? fgetxattr (file.fd, name, buf, size)
          : lgetxattr (path, name, buf, size));
#else
  return no_xattrs ();
#endif
}

/* The value of FILE's attribute NAME, with its size in *SIZE; NULL
   on failure, with errno set.  */
static char *
get_xattr (struct attr_file file, char const *path, char const *name,
           ssize_t *size)
{
  for (;;)
    {
      ssize_t n = xattr_get (file, path, name, NULL, 0);
      if (n < 0)
        return NULL;
      char *value = xmalloc (n + 1);
      *size = n == 0 ? 0 : xattr_get (file, path, name, value, n);
      if (0 <= *size)
        return value;
      int e = errno;
      free (value);
      errno = e;
      if (errno != ERANGE)
        return NULL;
    }
}

static int
set_xattr (struct attr_file file, char const *path, char const *name,
           char const *value, ssize_t size)
{
#if HAVE_LINUX_XATTR
  return (0 <= file.fd ? fsetxattr (file.fd, name, value, size, 0)
          : lsetxattr (path, name, value, size, 0));
#else
  return no_xattrs ();
#endif
}

/* Copy SRC's extended attributes to DST, which the functions working
   by name reach as SRC_PATH and DST_PATH, with cpdd's own code, where
   libattr is missing.  The messages are libattr's, as GNU cp shows
   them: its quoting names the attribute where the file would be.  A
   file system without extended attributes on either side is told once
   per file.  */
static bool
copy_xattrs_by (struct attr_file src, char const *src_path,
                struct attr_file dst, char const *dst_path,
                enum xattr_reports reports)
{
  ssize_t list_size;
  char *names = list_xattrs (src, src_path, &list_size);
  if (!names)
    {
      if (errno == ENOTSUP || errno == ENOSYS)
        return true;
      xattr_failure (reports, _("listing attributes of %s"),
                     quoteaf (src.name));
      return false;
    }

  bool ok = true;
  bool unsupported = false;
  for (char const *name = names; name < names + list_size;
       name += strlen (name) + 1)
    {
      if (!*name || !xattr_is_copied (name))
        continue;
      ssize_t size;
      char *value = get_xattr (src, src_path, name, &size);
      if (!value)
        {
          char const *q = quoteaf (name);
          xattr_failure (reports, _("getting attribute %s of %s"), q, q);
          ok = false;
          continue;
        }
      int r = set_xattr (dst, dst_path, name, value, size);
      free (value);
      if (r == 0)
        continue;
      ok = false;
      if (errno == ENOTSUP)
        unsupported = true;
      else if (errno == ENOSYS)
        {
          xattr_failure (reports, _("setting attributes for %s"),
                         quoteaf (dst.name));
          break;
        }
      else
        {
          char const *q = quoteaf (name);
          xattr_failure (reports, _("setting attribute %s for %s"), q, q);
        }
    }
  free (names);
  if (unsupported)
    {
      errno = ENOTSUP;
      xattr_failure (reports, _("setting attributes for %s"),
                     quoteaf (dst.name));
    }
  return ok;
}

static bool
copy_xattrs (struct attr_file src, struct attr_file dst,
             enum xattr_reports reports)
{
  char *src_path = path_of (src);
  char *dst_path = path_of (dst);
  bool ok = copy_xattrs_by (src, src_path, dst, dst_path, reports);
  free (src_path);
  free (dst_path);
  return ok;
}

#endif /* !USE_LIBATTR */

/* Whether FILE, open, has no extended attributes at all, and so no
   ACL: one call, where listing them to copy none takes two.  */
static bool
has_no_xattrs (struct attr_file file)
{
  return 0 <= file.fd && xattr_list (file, NULL, NULL, 0) == 0;
}

/* Without Linux's calls whether there is one cannot be told, and the
   directory is taken to have one.  */
bool
has_no_default_acl (int fd)
{
#if HAVE_LINUX_XATTR
  return (fgetxattr (fd, "system.posix_acl_default", NULL, 0) < 0
          && (errno == ENODATA || errno == ENOTSUP || errno == EOPNOTSUPP));
#else
  return false;
#endif
}

/* Copy SRC's extended attributes to DST, reporting failures as X asks;
   return false only if X requires them.  */
static bool
preserve_xattrs (struct attr_file src, struct attr_file dst,
                 struct cp_options const *x)
{
  return (copy_xattrs (src, dst, xattr_reports (x))
          || !x->require_preserve_xattr);
}

/* Give DST the owner and group in SRC_ST.  Set *DROPPED if the owner
   could not be given, so that set-ID and sticky bits must not be
   copied.  */
static bool
copy_owner (struct attr_file dst, struct stat const *src_st, bool *dropped,
            struct cp_options const *x)
{
  int flags = at_flags (dst, S_ISLNK (src_st->st_mode));
  int r = (0 <= dst.fd ? fchown (dst.fd, src_st->st_uid, src_st->st_gid)
           : fchownat (dst.dirfd, dst.rel, src_st->st_uid, src_st->st_gid,
                       flags));
  if (r == 0)
    return true;

  /* Without the owner, the group alone may still be ours to give.  */
  int e = errno;
  if (0 <= dst.fd)
    ignore_value (fchown (dst.fd, -1, src_st->st_gid));
  else
    ignore_value (fchownat (dst.dirfd, dst.rel, -1, src_st->st_gid, flags));
  *dropped = true;

  /* An unprivileged user is not expected to be able to give files away.  */
  if (!x->owner_privileges && (e == EPERM || e == EINVAL))
    return true;
  error (0, e, _("failed to preserve ownership for %s"), quoteaf (dst.name));
  return !x->require_preserve;
}

/* Whether DST already has the owner and group in SRC_ST.  GNU cp
   leaves such a file's owner alone, and so do we: for a file that was
   there before the copy a chown, even to the same owner, would clear
   its set-ID bits, and for a new one it would be a wasted call.  A new
   file whose status the caller does not have is taken to need one.  */
static bool
has_owner (struct attr_file dst, struct stat const *src_st)
{
  struct stat st;
  struct stat const *dst_st = dst.st;
  if (!dst_st)
    {
      if (dst.created
          || (0 <= dst.fd ? fstat (dst.fd, &st)
              : fstatat (dst.dirfd, dst.rel, &st, AT_SYMLINK_NOFOLLOW)) != 0)
        return false;
      dst_st = &st;
    }
  return dst_st->st_uid == src_st->st_uid && dst_st->st_gid == src_st->st_gid;
}

/* The set-user-ID, set-group-ID and sticky bits.  */
enum { SPECIAL_BITS = S_ISUID | S_ISGID | S_ISVTX };

/* Change the permissions of DST, not a symbolic link, to MODE.  */
static int
change_mode (struct attr_file dst, mode_t mode)
{
  return (0 <= dst.fd ? fchmod (dst.fd, mode)
          : fchmodat (dst.dirfd, dst.rel, mode, at_flags (dst, false)));
}

/* Before the existing file DST is given to SRC_ST's owner, narrow its
   permissions to the owner's part of those it is to get, so that no
   one else can use it in between, as GNU cp does.  Its set-ID bits are
   left as they are, for the chown to clear or keep.  */
static bool
narrow_before_chown (struct attr_file dst, struct stat const *src_st)
{
  struct stat st;
  if ((0 <= dst.fd ? fstat (dst.fd, &st)
       : fstatat (dst.dirfd, dst.rel, &st, at_flags (dst, false))) != 0)
    return false;
  return change_mode (dst, ((st.st_mode & SPECIAL_BITS)
                            | (src_st->st_mode & S_IRWXU))) == 0;
}

/* Whether DST, given the permissions MODE by qcopy_acl, may still have
   set-ID or sticky bits that MODE lacks.  qcopy_acl sets permissions
   through the ACL, which leaves those bits alone unless MODE has some.
   A file that was there before the copy may have them, and so may a
   new directory, which inherits the set-group-ID bit of the one it is
   in; a new file of another kind has none.  */
static bool
may_keep_special_bits (struct attr_file dst, struct stat const *src_st,
                       mode_t mode)
{
  if (mode & SPECIAL_BITS)
    return false;
  if (dst.st)
    return (dst.st->st_mode & SPECIAL_BITS) != 0;
  return !dst.created || S_ISDIR (src_st->st_mode);
}

/* Whether DST is a regular file this copy made, whose status taken
   then says it has the permissions MODE already.  Setting them again
   would change nothing, not even an ACL it inherited: a mode sets the
   entries its bits show, to what they show.  */
static bool
made_with_mode (struct attr_file dst, mode_t mode)
{
  return (dst.created && dst.st && S_ISREG (dst.st->st_mode)
          && (dst.st->st_mode & (SPECIAL_BITS | S_IRWXU | S_IRWXG | S_IRWXO))
             == mode);
}

/* Give DST the permissions in SRC_ST, and SRC's ACL if it has one:
   exactly those, as GNU cp 9.10 does, with none of the set-ID or
   sticky bits DST had, nor those of SRC_ST if DROP_SPECIAL.  SRC_BARE
   says SRC has no ACL: then, as in GNU cp 9.10, DST's mode is set and
   nothing else, so that an ACL DST inherited from its directory's
   default ACL, or had before, keeps its entries with the mode's mask;
   one call, where the ACL functions make three.  */
static bool
copy_mode (struct attr_file src, struct stat const *src_st,
           struct attr_file dst, bool drop_special, bool src_bare,
           struct cp_options const *x)
{
  mode_t mode = src_st->st_mode & (SPECIAL_BITS
                                   | S_IRWXU | S_IRWXG | S_IRWXO);
  if (drop_special)
    mode &= ~SPECIAL_BITS;
  if (src_bare)
    {
      if (made_with_mode (dst, mode) || change_mode (dst, mode) == 0)
        return true;
      error (0, errno, _("preserving permissions for %s"),
             quoteaf (dst.name));
      return !x->require_preserve;
    }
  char *src_path = path_of (src);
  char *dst_path = path_of (dst);
  int r = qcopy_acl (src_path, src.fd, dst_path, dst.fd, mode);
  int e = errno;
  free (src_path);
  free (dst_path);
  /* Changing the mode keeps the ACL just copied: its mask is the
     group's part of MODE already.  */
  if (r == 0 && may_keep_special_bits (dst, src_st, mode))
    {
      r = change_mode (dst, mode);
      e = errno;
    }
  if (r == 0)
    return true;
  error (0, e, _("preserving permissions for %s"), quoteaf (dst.name));
  return !x->require_preserve;
}

/* With --no-preserve=mode, give the new file DST the default
   permissions less the umask: those of a directory, also a socket's
   as in GNU cp, or of a file.  Any ACL DST inherited goes, leaving
   only what the permissions say.  */
static bool
set_default_mode (struct stat const *src_st, struct attr_file dst,
                  struct cp_options const *x)
{
  mode_t perms = (S_ISDIR (src_st->st_mode) || S_ISSOCK (src_st->st_mode)
                  ? S_IRWXU | S_IRWXG | S_IRWXO
                  : (S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP
                     | S_IROTH | S_IWOTH));
  char *dst_path = path_of (dst);
  int r = qset_acl (dst_path, dst.fd, perms & ~x->umask);
  int e = errno;
  free (dst_path);
  if (r == 0)
    return true;
  error (0, e, _("setting permissions for %s"), quoteaf (dst.name));
  return false;
}

/* Give DST the access and modification times in SRC_ST; DST is looked
   at itself, not followed, if DST_IS_LINK.  */
static bool
copy_times (struct stat const *src_st, struct attr_file dst,
            bool dst_is_link, struct cp_options const *x)
{
  struct timespec ts[2] = { get_stat_atime (src_st),
                            get_stat_mtime (src_st) };
  int r = (0 <= dst.fd ? futimens (dst.fd, ts)
           : utimensat (dst.dirfd, dst.rel, ts,
                        at_flags (dst, dst_is_link)));
  if (r == 0)
    return true;
  error (0, errno, _("preserving times for %s"), quoteaf (dst.name));
  return !x->require_preserve;
}

mode_t
xattr_write_access (struct cp_options const *x)
{
  return x->preserve_xattr && !x->owner_privileges ? S_IWUSR : 0;
}

/* Give the new file DST, made writable by its owner only for its
   extended attributes to be set, the permissions it was to have: the
   source's less the umask.  */
static bool
drop_xattr_write_access (struct stat const *src_st, struct attr_file dst,
                         struct cp_options const *x)
{
  mode_t perms = src_st->st_mode & (S_IRWXU | S_IRWXG | S_IRWXO);
  if (! (dst.created && 0 <= dst.fd && (xattr_write_access (x) & ~perms)))
    return true;
  if (fchmod (dst.fd, perms & ~x->umask) == 0)
    return true;
  error (0, errno, _("setting permissions for %s"), quoteaf (dst.name));
  return false;
}

/* Give DST the permissions X asks for, those of SRC (status SRC_ST)
   or the default ones, or else take back what it was created with
   only for its extended attributes.  */
static bool
set_permissions (struct attr_file src, struct stat const *src_st,
                 struct attr_file dst, bool drop_special, bool src_bare,
                 struct cp_options const *x)
{
  if (x->preserve_mode)
    return copy_mode (src, src_st, dst, drop_special, src_bare, x);
  if (x->explicit_no_preserve_mode)
    return !dst.created || set_default_mode (src_st, dst, x);
  return drop_xattr_write_access (src_st, dst, x);
}

bool
copy_attributes (struct attr_file src, struct stat const *src_st,
                 struct attr_file dst, struct cp_options const *x)
{
  bool ok = true;
  bool is_link = S_ISLNK (src_st->st_mode);
  bool drop_special = false;

  if (x->preserve_ownership && !has_owner (dst, src_st))
    {
      if (x->preserve_mode && !dst.created && !is_link
          && !narrow_before_chown (dst, src_st))
        {
          error (0, errno, _("clearing permissions for %s"),
                 quoteaf (dst.name));
          ok &= !x->require_preserve;
        }
      ok &= copy_owner (dst, src_st, &drop_special, x);
    }
  /* A source without extended attributes, asked once, has none to
     copy and no ACL to carry with its permissions.  */
  bool src_bare = ((x->preserve_xattr || x->preserve_mode) && !is_link
                   && has_no_xattrs (src));
  if (x->preserve_xattr && !src_bare)
    ok &= preserve_xattrs (src, dst, x);
  /* A symbolic link has no permissions of its own.  */
  if (!is_link)
    ok &= set_permissions (src, src_st, dst, drop_special, src_bare, x);
  if (x->preserve_timestamps)
    ok &= copy_times (src_st, dst, is_link, x);
  return ok;
}

bool
copy_link_attributes (struct attr_file src, struct stat const *src_st,
                      struct attr_file link, struct cp_options const *x)
{
  bool ok = true;
  if (x->preserve_timestamps)
    ok &= copy_times (src_st, link, true, x);
  if (x->preserve_xattr)
    ok &= preserve_xattrs (src, link, x);
  return ok;
}
