/* copy-attr.c -- preserving a file's attributes in its copy.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include <sys/xattr.h>

#include "system.h"
#include "acl.h"
#include "copy-attr.h"
#include "ignore-value.h"
#include "stat-time.h"
#include "utimens.h"

/* Extended attributes that are not copied as such: ACLs travel with
   the permissions (and only when those are preserved), and security
   labels only with a security context, which cpdd cannot set.  */
static bool
xattr_is_copied (char const *name)
{
  return ! (strncmp (name, "system.", sizeof "system." - 1) == 0
            || STREQ (name, "security.selinux"));
}

/* The list of FILE's extended attribute names, NUL-separated, with its
   size in *SIZE; NULL if there are none or they can't be listed.  */
static char *
list_xattrs (struct attr_file file, ssize_t *size)
{
  for (;;)
    {
      ssize_t n = (0 <= file.fd ? flistxattr (file.fd, NULL, 0)
                   : listxattr (file.name, NULL, 0));
      if (n <= 0)
        return NULL;
      char *names = xmalloc (n);
      *size = (0 <= file.fd ? flistxattr (file.fd, names, n)
               : listxattr (file.name, names, n));
      if (0 <= *size)
        return names;
      free (names);
      if (errno != ERANGE)
        return NULL;
    }
}

/* The value of FILE's attribute NAME, with its size in *SIZE; NULL
   on failure, with errno set.  */
static char *
get_xattr (struct attr_file file, char const *name, ssize_t *size)
{
  for (;;)
    {
      ssize_t n = (0 <= file.fd ? fgetxattr (file.fd, name, NULL, 0)
                   : getxattr (file.name, name, NULL, 0));
      if (n < 0)
        return NULL;
      char *value = xmalloc (n + 1);
      *size = (0 <= file.fd ? fgetxattr (file.fd, name, value, n)
               : getxattr (file.name, name, value, n));
      if (0 <= *size)
        return value;
      int e = errno;
      free (value);
      errno = e;
      if (errno != ERANGE)
        return NULL;
    }
}

/* Copy SRC's extended attributes to DST.  Failures are reported only
   when X requires it, as with --preserve=xattr but not with -a.  */
static bool
copy_xattrs (struct attr_file src, struct attr_file dst,
             struct cp_options const *x)
{
  ssize_t list_size;
  char *names = list_xattrs (src, &list_size);
  if (!names)
    {
      if (errno == ENOTSUP || errno == ENOSYS || !x->require_preserve_xattr
          || errno == 0)
        return true;
      error (0, errno, _("listing attributes of %s"), quoteaf (src.name));
      return false;
    }

  bool ok = true;
  for (char const *name = names; name < names + list_size;
       name += strlen (name) + 1)
    {
      if (!xattr_is_copied (name))
        continue;
      ssize_t size;
      char *value = get_xattr (src, name, &size);
      int r = (!value ? -1
               : 0 <= dst.fd ? fsetxattr (dst.fd, name, value, size, 0)
               : setxattr (dst.name, name, value, size, 0));
      if (r != 0 && x->require_preserve_xattr)
        {
          error (0, errno, _("setting attribute %s for %s"), quote (name),
                 quoteaf (dst.name));
          ok = false;
        }
      free (value);
    }
  free (names);
  return ok;
}

/* Give DST the owner and group in SRC_ST.  Set *DROPPED if the owner
   could not be given, so that set-ID bits must not be copied.  */
static bool
copy_owner (struct attr_file dst, struct stat const *src_st, bool *dropped,
            struct cp_options const *x)
{
  bool is_link = S_ISLNK (src_st->st_mode);
  int r = (0 <= dst.fd ? fchown (dst.fd, src_st->st_uid, src_st->st_gid)
           : is_link ? lchown (dst.name, src_st->st_uid, src_st->st_gid)
           : chown (dst.name, src_st->st_uid, src_st->st_gid));
  if (r == 0)
    return true;

  /* Without the owner, the group alone may still be ours to give.  */
  int e = errno;
  if (0 <= dst.fd)
    ignore_value (fchown (dst.fd, -1, src_st->st_gid));
  else if (is_link)
    ignore_value (lchown (dst.name, -1, src_st->st_gid));
  else
    ignore_value (chown (dst.name, -1, src_st->st_gid));
  *dropped = true;

  /* An unprivileged user is not expected to be able to give files away.  */
  if (!x->owner_privileges && (e == EPERM || e == EINVAL))
    return true;
  error (0, e, _("failed to preserve ownership for %s"), quoteaf (dst.name));
  return !x->require_preserve;
}

/* Give DST the permissions in SRC_ST, and SRC's ACL if it has one.  */
static bool
copy_mode (struct attr_file src, struct stat const *src_st,
           struct attr_file dst, bool drop_set_id,
           struct cp_options const *x)
{
  mode_t mode = src_st->st_mode & (S_ISUID | S_ISGID | S_ISVTX
                                   | S_IRWXU | S_IRWXG | S_IRWXO);
  if (drop_set_id)
    mode &= ~(S_ISUID | S_ISGID);
  if (qcopy_acl (src.name, src.fd, dst.name, dst.fd, mode) == 0)
    return true;
  error (0, errno, _("preserving permissions for %s"), quoteaf (dst.name));
  return !x->require_preserve;
}

/* Give DST the access and modification times in SRC_ST.  */
static bool
copy_times (struct stat const *src_st, struct attr_file dst,
            struct cp_options const *x)
{
  struct timespec ts[2] = { get_stat_atime (src_st),
                            get_stat_mtime (src_st) };
  int r = (0 <= dst.fd ? futimens (dst.fd, ts)
           : S_ISLNK (src_st->st_mode) ? lutimens (dst.name, ts)
           : utimens (dst.name, ts));
  if (r == 0)
    return true;
  error (0, errno, _("preserving times for %s"), quoteaf (dst.name));
  return !x->require_preserve;
}

bool
copy_attributes (struct attr_file src, struct stat const *src_st,
                 struct attr_file dst, struct cp_options const *x)
{
  bool ok = true;
  bool is_link = S_ISLNK (src_st->st_mode);
  bool drop_set_id = false;

  if (x->preserve_xattr && !is_link)
    ok &= copy_xattrs (src, dst, x);
  if (x->preserve_ownership)
    ok &= copy_owner (dst, src_st, &drop_set_id, x);
  if (x->preserve_mode && !is_link)
    ok &= copy_mode (src, src_st, dst, drop_set_id, x);
  if (x->preserve_timestamps)
    ok &= copy_times (src_st, dst, x);
  return ok;
}
