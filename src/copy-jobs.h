/* copy-jobs.h -- files of a tree copy handed to workers or other ranks.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The layer between the walk and one file's copy: it decides where a
   regular file is filled (here, by a worker of cp --jobs, by another
   rank of mpicp, in ranges if large) and counts what was handed out
   by groups, one per directory, whose end lets the directory's own
   attributes be set (copy-jobs.c); and it gives other ranks whole
   subtrees (copy-send.c).  */

#ifndef CPDD_COPY_JOBS_H
#define CPDD_COPY_JOBS_H

#include <stdbool.h>
#include <sys/stat.h>

#include "copy-impl.h"

/* copy-jobs.c */

/* Have JOBS workers copy S's files from now on, if more than one.  */
void copy_jobs_start (struct copy_session *s, int jobs);

/* Stop S's workers, once the copy is over; with --debug, say where
   their time went.  */
void copy_jobs_finish (struct copy_session *s);

/* The most directories whose attributes may wait for their files at
   once, each holding two descriptors.  */
ptrdiff_t copy_finishes_max (void);

/* A new group of files of session S, of one piece: the walk's; itself
   a piece of PARENT, if not null, which thus ends after it.  */
struct file_group *file_group_new (struct copy_session *s,
                                   struct file_group *parent);

/* Count one more piece of FG; end one, which failed unless OK.  */
void file_group_hold (struct file_group *fg);
void file_group_end_piece (struct file_group *fg, bool ok);

/* The walk leaves the directory of FG's files: its tasks alone keep
   their directories open now.  FG may be NULL.  */
void file_group_leave_dirs (struct file_group *fg);

/* End the walk's piece of FG, wait until every file handed out in it
   is done, and free it; return whether all were copied.  */
bool file_group_wait (struct file_group *fg);

/* The range RANGE of F, which another rank copied (if OK) saying SAID
   and reporting REPORT, is over.  */
void chunked_copy_range_ended (struct chunked_copy *f, intmax_t range,
                               bool ok, struct held_errors *said,
                               struct xfer_report const *report);

/* Copy the data and attributes of the regular file SRC to DST, which
   EXISTS still or is to be made, where PLACE says.  Return false
   after a diagnostic if it failed here; what fails in others' hands
   is their group's.  */
bool copy_data_file (struct file_source const *src, struct loc const *dst,
                     bool exists, struct fill_place const *place,
                     struct cp_options const *x);

/* Copy the regular file SRC to DST, a new name in a directory the copy
   made, from opening the source to closing both ends: what a worker
   or another rank of session S does with a file handed over whole.
   With workers and a GROUP, a large file is copied by them in
   ranges.  */
bool copy_new_file (struct file_source const *src, struct loc const *dst,
                    struct file_group *group, struct copy_session *s,
                    struct cp_options const *x);

/* Have a worker or another rank copy the regular file SRC to DST, a
   name in a directory this copy made, as a piece of FG.  Return false,
   leaving SRC (and its descriptor) to the walk, if the directories
   can't be shared.  */
bool hand_over_new_file (struct file_source const *src, struct loc const *dst,
                         struct file_group *fg, struct cp_options const *x);

/* Open the entry SRC, which its directory lists as a regular file, to
   copy it, and set *ST to its status; return the descriptor, or -1 if
   it is to be looked at as any entry is.  */
int open_entry (struct loc const *src, struct stat *st);

/* Leave the attributes of the directory D to whoever ends FG, the
   group of its files, giving it MODE at last if SET_MODE, and end the
   walk's piece of FG; D's report record goes with them, to say
   whether the directory was copied once they are set, and WALKED_OK
   whether the walk of it went well.  Return false, with nothing done,
   if the directories can't be held for it.  */
bool defer_finish (struct file_group *fg, struct dir_copy const *d,
                   bool set_mode, mode_t mode, bool walked_ok,
                   struct cp_options const *x);

/* Whether session S's walk found the data of the last files it handed
   over in the page cache: a tree read before, whose directories are
   likely cached too.  */
bool source_data_cached (struct copy_session const *s);

/* On a file system where every lookup is a round trip, the workers
   look up a directory's next names ahead of the walk, which then finds
   their status in the kernel's cache: the walk's lookups, one after
   another, would otherwise limit a copy from such a file system.  */
struct lookahead
{
  struct workers *pool;		/* who looks up, or NULL */
  char const *next;		/* the first name not handed out */
  idx_t ahead;			/* names handed out the walk has not met */
  bool on;
};

/* Start LA on NAMES, read from SDIR, of status ST, with S's
   workers.  */
void lookahead_start (struct lookahead *la, struct copy_session const *s,
                      struct walk_dir const *sdir, struct stat const *st,
                      char const *names);

/* The walk is at its next name of SDIR: keep LA's lookups ahead.  */
void lookahead_step (struct lookahead *la, struct walk_dir const *sdir);

/* copy-send.c */

/* Remember ST, the copy an operand made of a directory, for the
   subtrees S gives away: they must not be copied into it.  */
void remember_made_top (struct copy_session *s, struct stat const *st);

/* If another rank asks for work, give it what is below the directory
   D's source, to copy into D's destination, just made, as a piece of
   the group of files the destination is in, and return true; else
   return false.  */
bool send_subtree (struct dir_copy const *d, struct copy_ctx const *ctx,
                   struct cp_options const *x);

#endif /* CPDD_COPY_JOBS_H */
