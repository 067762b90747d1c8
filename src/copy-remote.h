/* copy-remote.h -- files a tree copy hands to other processes.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* mpicp's rank 0 walks the tree as cp does and, where cp --jobs would
   give a regular file going into a directory the copy made to a worker
   thread, gives it to another rank through this interface.  copy.c
   knows nothing of MPI: the calls go through a struct of functions
   that mpi-cp.c supplies, and cp has none.  */

#ifndef CPDD_COPY_REMOTE_H
#define CPDD_COPY_REMOTE_H

#include <stdbool.h>
#include <sys/stat.h>

#include "copy.h"
#include "walk.h"

/* A regular file for another process to copy whole: the entry
   SRC_REL of the open directory SRC_DIR (whose chain of walk_dir up
   to the operand says how to reach it again) to the new entry DST_REL
   of DST_DIR.  The names are whole, for messages.  GROUP is the
   walk's, to hand back in copy_remote_ended.  */
struct remote_file
{
  struct walk_dir const *src_dir;
  struct walk_dir const *dst_dir;
  char const *src_name;
  char const *src_rel;
  char const *dst_name;
  char const *dst_rel;
  struct stat const *src_st;	/* as the walk saw it */
  bool follow;			/* whether SRC_REL's link is followed */
  void *group;
};

/* What the walk calls to give files away.  */
struct copy_remote
{
  /* Send F to another process, after waiting for an answer if all
     are busy.  Return false to have the walk copy F itself.  */
  bool (*send) (struct remote_file const *f);

  /* Wait for one answer, and act on it through copy_remote_ended.  */
  void (*wait) (void);
};

/* From now on, hand files to R's processes, in place of workers.  */
void copy_use_remote (struct copy_remote const *r);

/* The file sent with GROUP was copied (if OK) or not, and its
   messages printed: end its piece of GROUP.  */
void copy_remote_ended (void *group, bool ok);

/* On the process the file was sent to: copy the regular file SRC_REL
   in the directory open as SRC_FD, expected to be SRC_ST, to the new
   entry DST_REL in the directory open as DST_FD, as a worker of
   cp --jobs would, data and attributes.  SRC_NAME and DST_NAME are the
   whole names, for messages.  Return true on success; otherwise print
   diagnostics and return false.  */
bool copy_remote_file (int src_fd, char const *src_name, char const *src_rel,
                       struct stat const *src_st, bool follow, int dst_fd,
                       char const *dst_name, char const *dst_rel,
                       struct cp_options const *x);

#endif /* CPDD_COPY_REMOTE_H */
