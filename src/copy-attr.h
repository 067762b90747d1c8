/* copy-attr.h -- preserving a file's attributes in its copy.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_COPY_ATTR_H
#define CPDD_COPY_ATTR_H

#include <stdbool.h>
#include <sys/stat.h>

#include "copy.h"

/* One end of an attribute copy: a name, and an open descriptor for it
   or -1 to work by name.  */
struct attr_file
{
  char const *name;
  int fd;
};

/* Give DST the attributes of SRC (status SRC_ST) that X asks to
   preserve: extended attributes, owner and group, permissions with
   any ACL, then timestamps, in that order, because changing the owner
   can clear set-user-ID bits and writing attributes can change times.
   Symbolic links get only owner and timestamps.  Return false if a
   failure X requires to be reported happened.  */
bool copy_attributes (struct attr_file src, struct stat const *src_st,
                      struct attr_file dst, struct cp_options const *x);

#endif /* CPDD_COPY_ATTR_H */
