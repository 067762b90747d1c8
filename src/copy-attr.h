/* copy-attr.h -- preserving a file's attributes in its copy.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_COPY_ATTR_H
#define CPDD_COPY_ATTR_H

#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "copy.h"

/* One end of an attribute copy: its name for messages, and an open
   descriptor for it, or -1 to reach it as REL in the directory DIRFD
   (AT_FDCWD for an operand).  A file below an operand is never reached
   through a symbolic link.  */
struct attr_file
{
  char const *name;
  int fd;
  bool created;			/* the destination is new, made by cp */
  int dirfd;
  char const *rel;
  struct stat const *st;	/* its status if the caller has it, or NULL */
};

/* The file NAME as an operand, reached from the working directory.  */
static inline struct attr_file
attr_operand (char const *name, bool created)
{
  return (struct attr_file) { name, -1, created, AT_FDCWD, name, NULL };
}

/* Give DST the attributes of SRC (status SRC_ST) that X asks to
   preserve: owner and group, extended attributes, permissions with
   any ACL, then timestamps, in that order, because changing the owner
   clears file capabilities (an extended attribute) and can clear
   set-user-ID bits, and an unprivileged user needs write permission to
   set extended attributes.  With --no-preserve=mode, a DST that is
   created gets the default permissions instead.  Symbolic links get
   all but permissions.  Return false if a failure X requires to be
   reported happened.  */
bool copy_attributes (struct attr_file src, struct stat const *src_st,
                      struct attr_file dst, struct cp_options const *x);

/* Permissions a new regular file must be created with besides those
   it is to have, because an unprivileged owner can set extended
   attributes only on a file it may write; copy_attributes then takes
   them back.  */
mode_t xattr_write_access (struct cp_options const *x);

/* -s: give LINK, the symbolic link just made to SRC (status SRC_ST),
   the timestamps and extended attributes of SRC that X asks to
   preserve, as GNU cp does; its owner stays cp's.  Return false if a
   failure X requires to be reported happened.  */
bool copy_link_attributes (struct attr_file src, struct stat const *src_st,
                           struct attr_file link, struct cp_options const *x);

/* Whether the directory open as FD surely has no default ACL, which
   would add entries to what is made in it.  */
bool has_no_default_acl (int fd);

#endif /* CPDD_COPY_ATTR_H */
