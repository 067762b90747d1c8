/* copy-remote.h -- files a tree copy hands to other processes.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* mpicp's rank 0 walks the tree as cp does and, where cp --jobs would
   give a regular file (or the ranges of a large one) to a worker
   thread, gives it to another rank through this interface; a rank
   that asks for work may be given a new directory's subtree instead,
   which it walks and shares out in turn.  The copy knows nothing of
   MPI: the calls go through a table of functions that mpi-cp.c
   supplies, with the job they act on, and cp has none.  */

#ifndef CPDD_COPY_REMOTE_H
#define CPDD_COPY_REMOTE_H

#include <stdbool.h>
#include <sys/stat.h>

#include "system.h"
#include "copy.h"
#include "walk.h"

/* A regular file for another process to copy: the entry SRC_REL of
   the open directory SRC_DIR (whose chain of walk_dir up to the
   operand says how to reach it again; NULL for an operand) to the
   entry DST_REL of DST_DIR.  The names are whole, for messages.
   TOKEN is the walk's, to hand back in copy_remote_ended.  Either the
   whole file, to a new name in a directory the copy made, or, with
   SPLIT, its range RANGE, once the walk has created the copy, as
   DST_ST.  */
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
  void *token;
  struct xfer_split const *split; /* NULL for the whole file */
  intmax_t range;
  struct stat const *dst_st;	/* with SPLIT */
};

/* The devices and inodes of directories, for a subtree's walk to
   recognize: the copies the operands have made so far.  */
struct remote_inode
{
  dev_t dev;
  ino_t ino;
};

/* A directory the walk has just made, for another process to copy
   what is in it into and then set its attributes: the subtree of the
   source directory SRC_REL in SRC_DIR (named as a remote_file's file)
   to the new directory DST_REL in DST_DIR, made as DST_ST.  Nothing
   is below it at the destination yet, so nothing there bears on what
   is copied.  TOP_SRC and TOP_DST are the operands, for messages,
   TOP_DEV the source operand's device (for -x), and MADE the MADE_LEN
   copies of operands made so far, which the subtree must not copy
   into themselves.  */
struct remote_dir
{
  struct walk_dir const *src_dir;
  struct walk_dir const *dst_dir;
  char const *src_name;
  char const *src_rel;
  char const *dst_name;
  char const *dst_rel;
  struct stat const *src_st;
  struct stat const *dst_st;
  void *token;
  char const *top_src;
  char const *top_dst;
  dev_t top_dev;
  struct remote_inode const *made;
  size_t made_len;
};

/* The processes a copy gives work to, as their supplier keeps them
   (in mpicp, a rank's part of the MPI job).  The copy knows no more
   of it than a pointer to hand back to the operations below, so that
   they keep their state in it rather than in the process.  */
struct remote_job;

/* What the walk calls to give work away, each with the job of the
   struct copy_remote it came with.  */
struct copy_remote_ops
{
  /* Send F to another process and return true, or return false,
     leaving F to this process: on rank 0, F when every process has
     as many files as it may wait on, and a whole file when every
     process is walking; on a rank given a subtree, which gives only
     to those that ask for work, F when none has asked.  NULL if this
     process copies all its files itself.  */
  bool (*send) (struct remote_job *job, struct remote_file const *f);

  /* Wait for an answer, and act on it and on any others already
     there through copy_remote_ended or copy_remote_dir_ended; copy,
     meanwhile, what other processes send this one.  */
  void (*wait) (struct remote_job *job);

  /* If a process has asked for work, send it D and return true; else
     return false at once.  */
  bool (*give) (struct remote_job *job, struct remote_dir const *d);

  /* Do what other processes ask of this one, between two entries of
     the walk.  */
  void (*poll) (struct remote_job *job);

  /* Hard links kept across processes, through the process that owns
     SRC_ST's device and inode: return NULL if DST_NAME is to be the
     first copy of SRC_ST, which this process must then report through
     first_done, else the name of the first copy, whole, to link
     DST_NAME to (to be freed).  */
  char *(*first_copy) (struct remote_job *job, struct stat const *src_st,
                       char const *dst_name);

  /* The first copy of SRC_ST, which first_copy gave this process to
     make, is over: whole if OK, else to be made afresh by the next
     name.  */
  void (*first_done) (struct remote_job *job, struct stat const *src_st,
                      bool ok);
};

/* A job and its operations.  The table is constant, one for each way
   of giving work away; the job is what differs from one process to
   the next, and every call is given it: R->ops->wait (R->job).  */
struct copy_remote
{
  struct copy_remote_ops const *ops;
  struct remote_job *job;
};

/* The file or range sent with TOKEN and RANGE was copied (if OK) or
   not, and SAID is what was said meanwhile: print it or keep it for
   when the file is done, and end the piece of work it was.  REPORT
   says how a range was copied, for the file's own report.  */
void copy_remote_ended (void *token, intmax_t range, bool ok,
                        struct held_errors *said,
                        struct xfer_report const *report);

/* The subtree sent with TOKEN was copied (if OK) or not, and SAID is
   what was said meanwhile: print it and end the piece of work it
   was.  */
void copy_remote_dir_ended (void *token, bool ok, struct held_errors *said);

/* A file as the process it was sent to reaches it: a remote_file's
   names in the directories open as SRC_FD and DST_FD.  */
struct remote_at
{
  int src_fd;
  char const *src_name;
  char const *src_rel;
  struct stat src_st;
  bool follow;
  int dst_fd;
  char const *dst_name;
  char const *dst_rel;
  struct stat dst_st;		/* for a range */
};

/* Copy F's source to the new entry that is its destination, as a
   worker of cp --jobs would, data and attributes, in session S.
   Return true on success; otherwise print diagnostics and return
   false.  */
bool copy_remote_file (struct copy_session *s, struct remote_at const *f,
                       struct cp_options const *x);

/* Which range of a large file to copy: the range RANGE of RANGES, of
   CHUNK bytes each, with the direct I/O DIRECT that the walk's process
   kept.  */
struct remote_range
{
  off_t chunk;
  intmax_t ranges;
  int direct;
  intmax_t range;
};

/* Copy the range R of F into the copy the walk made, with X's options
   but R's direct I/O.  Set *SAID to what was said and *REPORT to what
   was done; return whether the range was copied.  */
bool copy_remote_range (struct remote_at const *f,
                        struct remote_range const *r,
                        struct held_errors *said, struct xfer_report *report,
                        struct cp_options const *x);

/* Where a subtree's process finds its directories: the names of the
   operands from the working directory, then of the directories below
   them up to the one the subtree is in, joined by '/', and the device
   and inode that directory must have.  */
struct remote_path
{
  char const *root;
  char const *path;
  dev_t dir_dev;
  ino_t dir_ino;
};

/* Copy the subtree D (whose directories SRC and DST are reached as
   they say) as the walk would have, in session S with the options X,
   and set the directory's attributes once all in it is copied.  Return
   true on success; otherwise print diagnostics and return false.  */
bool copy_remote_dir (struct copy_session *s, struct remote_dir const *d,
                      struct remote_path const *src,
                      struct remote_path const *dst,
                      struct cp_options const *x);

/* Whether the directory DIR (its name, for messages), opened again by
   another process with status ST unless OPENED is false (ERR then says
   why not), is still the one of device DEV and inode INO that the walk
   had open.  Say why not if not.  */
bool copy_remote_same_dir (char const *dir, bool opened, int err,
                           struct stat const *st, dev_t dev, ino_t ino);

#endif /* CPDD_COPY_REMOTE_H */
