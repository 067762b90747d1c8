/* side-file.h -- the files cp and dd write besides their copies.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* A side file is one that an option names for the command to write
   besides its copies: cp's --hash-file, dd's hashlog=.  One rule
   holds for all of them, checked before any destination or output is
   opened: a side file is not a file the command reads or writes, nor
   inside a tree it copies from or into, and it can be created.  A side
   file that breaks the rule is left as it was, and the command stops
   with a diagnostic, having touched nothing.  */

#ifndef CPDD_SIDE_FILE_H
#define CPDD_SIDE_FILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "idx.h"

/* What a file the command copies from or to is to it.  */
enum side_role
{
  SIDE_SOURCE,			/* cp: a source operand */
  SIDE_DEST,			/* cp: where an operand is copied to */
  SIDE_INPUT,			/* dd: if= or standard input */
  SIDE_OUTPUT			/* dd: of= or standard output */
};

/* A file the command copies from or to, called NAME in messages (if
   NULL, by its role): the one open as FD, or if FD is -1 the one NAME
   names, looked up through symbolic links if FOLLOW.  If TREE, what is
   below it is copied too, where it is a directory.  */
struct side_bound
{
  char const *name;
  int fd;
  enum side_role role;
  bool follow;
  bool tree;
};

/* A side file being opened: its name, the option that named it, the
   descriptor it is open on, and whether the check made it.  */
struct side_file
{
  char const *name;
  char const *option;
  int fd;
  bool created;
};

/* Open NAME, named by OPTION (as "--hash-file"), for writing without
   emptying it, into *F, and check it against the N files of BOUNDS.
   If it breaks the rule, remove it if it was made here, and exit after
   a diagnostic.  */
void side_file_check (struct side_file *f, char const *name,
                      char const *option, struct side_bound const *bounds,
                      idx_t n);

/* Empty the side file F, checked, and return a stream that writes it;
   exit after a diagnostic if it cannot be.  */
FILE *side_file_stream (struct side_file *f);

#endif /* CPDD_SIDE_FILE_H */
