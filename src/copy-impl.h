/* copy-impl.h -- what the files of cp's tree copy share.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* copy.c decides what becomes of each file, copy-dir.c copies
   directories, copy-file.c opens and fills regular files, copy-hash.c
   hashes, verifies and syncs their data, copy-jobs.c hands files to
   workers or other ranks, copy-links.c keeps the tables of inodes, and
   copy-remote.c is what other ranks call.  */

#ifndef CPDD_COPY_IMPL_H
#define CPDD_COPY_IMPL_H

#include <stdbool.h>
#include <sys/stat.h>

#include "copy.h"
#include "copy-attr.h"
#include "copy-remote.h"
#include "walk.h"

/* Copy the data of IN to OUT, both just opened, as X asks: hashing it
   on the way, syncing, reading the copy back, printing its line
   (copy-hash.c).  Fill *REPORT.  Return true, or false after a
   diagnostic.  */
bool copy_file_data (struct xfer_file const *in, struct xfer_file const *out,
                     struct xfer_report *report, struct cp_options const *x);

/* The existing destination ST is about to be overwritten, replaced
   or moved aside: if --verify left its check for later, as X says,
   check it now, before the copy it awaits is gone (copy-hash.c).  */
void copy_verify_settle (struct stat const *st, struct cp_options const *x);

/* A file copied in ranges, SPLIT, has ended well: sync it, and read
   it back if it was cloned, as X asks (the ranges read themselves
   back).  Return true, or false after a diagnostic.  */
bool copy_split_checked (struct xfer_split *split,
                         struct cp_options const *x);

/* The outcome of a first copy that a worker fills (copy-links.c).  */
struct fill_outcome;

/* The files of one directory handed to others (copy-jobs.c).  */
struct file_group;

/* A large file copied in ranges (copy-jobs.c).  */
struct chunked_copy;

/* Who copies files besides the walk: with --jobs, the workers that
   copy regular files' data and attributes once the walk has opened
   both ends; with mpicp on more than one rank, what hands files and
   subtrees to the other ranks, and the options of the copy they take
   part in.  All the rest (the walk, the tables of inodes, every
   decision about a file and its name) stays in the walk's thread.  */
struct copy_hands
{
  struct workers *pool;
  struct copy_remote const *remote;
  struct cp_options const *remote_x;
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
  struct copy_hands const *hands; /* who copies files besides the walk */
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

/* The descriptor L's REL is relative to.  */
static inline int
at (struct loc const *l)
{
  return walk_fd (l->dir);
}

/* L as an end of an attribute copy, open as FD or -1.  */
static inline struct attr_file
loc_attr (struct loc const *l, int fd, bool created)
{
  return (struct attr_file) { l->name, fd, created, at (l), l->rel, NULL };
}

/* A source directory being copied, and the one it is in.  */
struct ancestor
{
  ino_t ino;
  dev_t dev;
  struct ancestor const *up;
};

/* A regular file whose both ends are open, to fill.  */
struct open_copy
{
  struct attr_file src;
  struct attr_file dst;
  struct stat src_st;
  struct stat dst_st;
  bool made_wide;		/* DST was made with the permissions it is
                                   to have, not the owner's alone */
  bool src_size_true;		/* SRC's data ends at its size */
};

/* Whether files are copied by others than the walk: workers or other
   ranks.  */
static inline bool
hands_off (struct copy_hands const *h)
{
  return h->pool || h->remote;
}

/* Whether regular files, and the ranges of large ones, may be copied
   by others than the walk.  */
static inline bool
sends_files (struct copy_hands const *h)
{
  return h->pool || (h->remote && h->remote->send);
}

/* Whether the hard links of non-directories are kept through the
   processes owning their devices and inodes rather than this one's
   map: where subtrees may be given away, which -L prevents (and with
   which every file would cost a question to its owner).  */
static inline bool
links_owned (struct copy_hands const *h)
{
  return (h->remote && h->remote->first_copy
          && h->remote_x->dereference != CP_DEREF_ALWAYS);
}

/* copy.c */
bool copy_internal (struct loc const *src, struct loc const *dst,
                    struct copy_ctx const *ctx, struct cp_options const *x);
bool copy_regular_entry (struct loc const *src, struct loc const *dst,
                         struct copy_ctx const *ctx,
                         struct cp_options const *x, bool *ok);
bool follows_links (struct copy_ctx const *ctx, struct cp_options const *x);
bool remembers_copy (struct stat const *src_st, struct copy_ctx const *ctx,
                     struct cp_options const *x);
void print_verbose (char const *src, char const *dst, char const *backup);

/* copy-dir.c */
bool dir_copied_before (struct loc const *src, struct stat const *src_st,
                        struct loc const *dst, struct copy_ctx const *ctx,
                        struct cp_options const *x, bool *skip);
bool copy_directory (struct loc const *src, struct stat const *src_st,
                     struct loc const *dst, bool exists,
                     struct copy_ctx const *ctx, struct cp_options const *x);
bool copy_dir_below (struct loc const *src, struct stat const *src_st,
                     struct loc const *dst, struct walk_dir *ddir,
                     bool exists, struct stat const *dst_st,
                     struct copy_ctx const *ctx, struct cp_options const *x);
/* Whether a new regular file made in DST's directory has at once the
   owner and group in ST.  */
bool owned_as_made (struct loc const *dst, struct stat const *st);
/* Give ST the owner and group of a new file made where owned_as_made
   can tell.  */
void give_maker (struct stat *st);

/* copy-file.c */
bool remove_destination (struct loc const *dst, bool verbose);
mode_t new_file_mode (struct stat const *src_st, struct cp_options const *x);
bool posixly_correct (void);
int open_source (struct loc const *src, bool follow);
bool still_same_file (int fd, char const *name, struct stat *st,
                      struct stat const *want);
bool finish_copy (struct open_copy *c, bool ok, struct cp_options const *x);
bool fill_copy (struct open_copy *c, struct cp_options const *x);
bool copy_data_file (struct loc const *src, struct stat const *src_st,
                     bool follow, int src_fd, bool fd_checked,
                     struct loc const *dst,
                     bool exists, struct file_group *group, bool here,
                     struct fill_outcome **pending,
                     struct cp_options const *x);
bool copy_new_file (struct loc const *src, struct stat const *src_st,
                    bool follow, int src_fd, bool fd_checked,
                    struct loc const *dst, struct file_group *group,
                    struct cp_options const *x);

/* copy-jobs.c */

/* What the copy makes of a file system.  FS_FAR: it answers over a
   network or through a daemon, so that each lookup the walk makes
   there waits for a round trip.  FS_MEMORY: its files are in memory
   alone (tmpfs), and need no reading ahead.  FS_PLAIN: a local one
   known to keep files as plainly as can be, where a new file gets the
   user and group its maker runs as, or the directory's group, and
   nothing else of its own, and a file's size is where its data ends;
   not a network file system, which may map owners and learn of sizes
   late, nor one that fixes owners at mount, nor /proc and its like.  */
enum { FS_FAR = 1, FS_MEMORY = 2, FS_PLAIN = 4 };

/* What the copy makes of the file system of the directory open as FD,
   on device DEV.  The last answer is kept, per thread, as a walk stays
   on one file system for long.  */
unsigned int file_system_kind (int fd, dev_t dev);

/* On a file system where every lookup is a round trip, the workers
   look up a directory's next names ahead of the walk, which then finds
   their status in the kernel's cache: the walk's lookups, one after
   another, would otherwise limit a copy from such a file system.  */
struct lookahead
{
  char const *next;		/* the first name not handed out */
  idx_t ahead;			/* names handed out the walk has not met */
  bool on;
};

/* Start LA on NAMES, read from SDIR, of status ST.  */
void lookahead_start (struct lookahead *la, struct walk_dir const *sdir,
                      struct stat const *st, char const *names);

/* The walk is at its next name of SDIR: keep LA's lookups ahead.  */
void lookahead_step (struct lookahead *la, struct walk_dir const *sdir);

struct copy_hands const *copy_hands (void);
void copy_jobs_finish (void);
struct file_group *file_group_new (struct file_group *parent);
void file_group_hold (struct file_group *fg);
void file_group_end_piece (struct file_group *fg, bool ok);
void file_group_leave_dirs (struct file_group *fg);
bool file_group_wait (struct file_group *fg);
void chunked_copy_range_ended (struct chunked_copy *f, intmax_t range,
                               bool ok, struct held_errors *said,
                               struct xfer_report const *report);
void hand_over (struct open_copy const *c, struct file_group *group,
                struct fill_outcome **pending, struct cp_options const *x);
bool hand_over_chunks (struct open_copy const *c, struct loc const *src,
                       bool follow, struct loc const *dst,
                       struct file_group *group,
                       struct fill_outcome **pending,
                       struct cp_options const *x);
bool hand_over_new_file (struct loc const *src, struct stat const *src_st,
                         bool follow, int src_fd, struct loc const *dst,
                         struct file_group *fg, struct cp_options const *x);
int open_entry (struct loc const *src, struct stat *st);
bool defer_finish (struct file_group *fg, struct walk_dir const *sdir,
                   struct loc const *src, struct stat const *src_st,
                   struct walk_dir const *ddir, struct loc const *dst,
                   struct stat const *made_st, bool set_mode, mode_t mode,
                   struct cp_options const *x);

/* copy-links.c */
struct fill_outcome *fill_outcome_new (void);
void fill_outcome_release (struct fill_outcome *o);
struct fill_outcome *claim_outcome (struct fill_outcome **pending);
void fill_outcome_end (struct fill_outcome *o, bool ok);
bool same_dir_entry (char const *a, char const *b);
void remember_copy (struct stat const *src_st, char const *name,
                    struct fill_outcome *pending);
char const *remember_first_copy (struct stat const *src_st,
                                 char const *name);
char const *remembered_copy (struct stat const *src_st);
char const *earlier_copy (struct stat const *src_st, void (*wait) (void));
void remember_made_dir (struct stat const *st);
bool made_dir (struct stat const *st);
void remember_made_link (struct stat const *st);
bool made_link (struct stat const *st);
void remember_made_file (struct stat const *st, char const *name);
bool made_by_operand (char const *dst, struct stat const *dst_st);
bool repeated_operand (char const *src, struct stat const *src_st);
void copy_links_forget (void);

/* copy-remote.c */
void remember_made_top (struct stat const *st);
void forget_made_tops (void);
bool give_dir (struct loc const *src, struct stat const *src_st,
               struct loc const *dst, struct stat const *dst_st,
               struct copy_ctx const *ctx, struct cp_options const *x);

#endif /* CPDD_COPY_IMPL_H */
