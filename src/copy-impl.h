/* copy-impl.h -- what the files of cp's tree copy share.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The tree copy's layers, each calling only those below it (doc/HACKING
   draws them):
     copy-serve.c                what other ranks of mpicp call
     copy.c <-> copy-dir.c       the walk: each file, each directory
     copy-jobs.c, copy-send.c    files handed to workers, other ranks
     copy-file.c                 a regular file's ends, opened, filled
     copy-links.c, copy-attr.c,  tables of inodes, attributes,
     copy-hash.c                 hashing, read-back and sync
   This header holds the types they share, the session first; each
   layer declares its functions in a header of its own.  */

#ifndef CPDD_COPY_IMPL_H
#define CPDD_COPY_IMPL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "copy.h"
#include "copy-attr.h"
#include "copy-links.h"
#include "copy-remote.h"
#include "walk.h"

/* The files of one directory handed to others (copy-jobs.c).  */
struct file_group;

/* A large file copied in ranges (copy-jobs.c).  */
struct chunked_copy;

/* The temporary file a copy with --atomic fills, and the batch of
   those whose renames wait for one sync (copy-atomic.c).  */
struct atomic_temp;
struct atomic_batch;
/* How a copy an earlier run began is finished (copy-resume.h).  */
struct resume_plan;

/* The file systems --fsync syncs at the end (copy-sync.c).  */
struct copy_syncs;

/* Who copies files besides the walk: with --jobs, the workers that
   copy regular files' data and attributes once the walk has opened
   both ends; with mpicp on more than one rank, what hands files and
   subtrees to the other ranks, and the options of the copy they take
   part in.  All the rest (the walk, the tables of inodes, every
   decision about a file and its name) stays in the walk's thread.  */
struct copy_helpers
{
  struct workers *pool;
  idx_t batch_files;		/* the most new files a task of POOL copies */
  off_t chunk_size;		/* the ranges large files are split in,
                                   read once: not an environment lookup
                                   per file */
  struct copy_remote const *remote;
  struct cp_options const *remote_x;
};

/* The copies the operands made of directories, so far: a subtree
   given to another rank must not be copied into them.  */
struct made_tops
{
  struct remote_inode *v;
  size_t n;
  idx_t alloc;
};

/* Whether the sources the walk opens are found in the page cache, as
   prefetch_source guesses (copy-jobs.c).  */
struct cache_guess
{
  int cached_run;		/* files found cached in a row */
  bool cannot_tell;		/* the kernel can't say */
};

/* One copy session: all that lives from cp's first operand to its
   last, or through a rank's part of mpicp's job.  copy_session_new
   makes it and copy_session_free frees it; the walk reaches it through
   its copy_ctx, and a task through the group of files it is part of.
   Only the walk's thread writes it, but for what says otherwise.  */
struct copy_session
{
  struct copy_helpers helpers;	/* who copies files besides the walk */
  bool report_pool;		/* --debug: say where the workers' time
                                   went */
  atomic_ptrdiff_t finishes_held; /* directories whose attributes wait
                                     for their files, any thread */
  ptrdiff_t finishes_max;	/* and the most that may */
  struct cache_guess cache;
  struct new_file_batch *gathered; /* new files the walk gathers for a
                                      worker, or NULL: the walk's own */
  struct copy_scout *scout;	/* what reads ahead of the walk, or NULL */
  struct link_tables *links;
  struct made_tops tops;
  uid_t maker_uid;		/* whom this process makes files as, once */
  gid_t maker_gid;		/* a directory shows it (copy-dir.c) */
  struct copy_syncs *syncs;	/* with --fsync, what to sync at the end;
                                   any thread adds to it */
  struct atomic_batch *renames;	/* with --atomic, the renames that wait
                                   for a sync; any thread adds to it */
};

/* What copy_internal knows about where it is in the tree.  */
struct copy_ctx
{
  char const *top_src;		/* the operands, for diagnostics */
  char const *top_dst;
  dev_t top_dev;		/* the operand's device, for -x */
  bool command_line;		/* this file is an operand */
  bool *into_self;		/* set when the operand is found in its copy */
  struct ancestor const *ancestors; /* the source directories above */
  struct walker *src_walk;	/* the open directories of each side */
  struct walker *dst_walk;
  struct name_buf *src_names;	/* the names of each side's files */
  struct name_buf *dst_names;
  struct copy_session *session;	/* the copy this walk is part of */
  struct file_group *files;	/* with workers, where files are counted */
  bool dst_dir_made;		/* the copy made the destination directory,
                                   so nothing is in it but what it puts;
                                   for an operand, its destination is
                                   taken to be new (copy_to) */
};

/* A file as the copy reaches it: REL in the open directory DIR, or
   from the working directory if DIR is NULL (an operand).  NAME is
   its whole name from the operand on, for messages only: system calls
   get DIR and REL, so that no directory above is looked up again,
   whatever was put in its place, and a name longer than PATH_MAX
   still works.  REL is the end of NAME.  */
struct loc
{
  struct walk_dir *dir;
  char const *rel;
  char const *name;
};

/* The descriptor L's REL is relative to: its directory's, or
   AT_FDCWD.  */
static inline int
loc_fd (struct loc const *l)
{
  return walk_fd (l->dir);
}

/* L as an end of an attribute copy, open as FD or -1.  */
static inline struct attr_file
loc_attr (struct loc const *l, int fd, bool created)
{
  return (struct attr_file) { l->name, fd, created, loc_fd (l), l->rel,
                              NULL };
}

/* A source directory being copied, and the one it is in.  */
struct ancestor
{
  ino_t ino;
  dev_t dev;
  struct ancestor const *up;
};

/* A regular file's source, as the walk or a worker has it: LOC, of
   status ST as the walk saw it, reached by following a symbolic link
   if FOLLOW, and open already as FD unless that is negative; ST is
   FD's own status if FD_CHECKED.  */
struct file_source
{
  struct loc const *loc;
  struct stat const *st;
  bool follow;
  int fd;
  bool fd_checked;
};

/* Where a regular file's data may be copied: with workers or other
   ranks and a GROUP, by them as a piece of GROUP, or only the ranges
   of a large one if HERE says this thread copies it (a worker's, or a
   rank's given the file whole); else here.  The task that fills it
   takes the first copy's outcome *PENDING, if any, which only the walk
   has.  With --atomic, the copy is renamed into place as soon as it is
   complete if RENAME_NOW, not with the session's batch: the caller
   must know whether that failed (to put a backup back).  */
struct fill_place
{
  struct copy_session *session;
  struct file_group *group;
  bool here;
  struct fill_outcome **pending;
  bool rename_now;
};

struct copy_record;

/* A directory being copied: SRC, of status SRC_ST and open as SDIR
   while it is read, into DST, open as DDIR, which EXISTS already or
   was made as DST_ST.  */
struct dir_copy
{
  struct loc const *src;
  struct stat const *src_st;
  struct walk_dir sdir;
  struct loc const *dst;
  struct walk_dir *ddir;
  bool exists;
  struct stat const *dst_st;
  struct copy_record *record;	/* the directory's report record, to go
                                   with its attributes to whoever sets
                                   them */
};

/* A regular file whose both ends are open, to fill.  */
struct open_copy
{
  struct attr_file src;
  struct attr_file dst;
  struct stat src_st;
  struct stat dst_st;
  bool made_final_mode;		/* DST was made with the permissions it is
                                   to have, not the owner's alone */
  bool src_size_true;		/* SRC's data ends at its size */
  struct atomic_temp *atomic;	/* with --atomic, the temporary file DST
                                   is, to rename once filled; else NULL */
  struct resume_plan *resume;	/* --resume: how to finish DST, which an
                                   earlier run began; NULL to copy all */
  bool resume_pending;		/* whether that is still to be decided */
  struct copy_syncs *syncs;	/* with --fsync, where DST is synced */
};

/* Whether files are copied by others than the walk: workers or other
   ranks.  */
static inline bool
has_helpers (struct copy_helpers const *h)
{
  return h->pool || h->remote;
}

/* Whether regular files, and the ranges of large ones, may be copied
   by others than the walk.  */
static inline bool
sends_files (struct copy_helpers const *h)
{
  return h->pool || (h->remote && h->remote->ops->send);
}

/* Whether the hard links of non-directories are kept through the
   processes owning their devices and inodes rather than this one's
   map: where subtrees may be given away, which -L prevents (and with
   which every file would cost a question to its owner).  */
static inline bool
links_owned (struct copy_helpers const *h)
{
  return (h->remote && h->remote->ops->first_copy
          && h->remote_x->dereference != CP_DEREF_ALWAYS);
}

#endif /* CPDD_COPY_IMPL_H */
