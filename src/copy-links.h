/* copy-links.h -- the inodes a tree copy has seen and made.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The lowest layer of the tree copy: tables of files by device and
   inode, one set per copy session.  They answer the walk's questions
   "was this source copied already, and under which name?" (hard links,
   directories reached again) and "did this cp make that?" (a directory
   copied into itself, a link or file an earlier operand made).  */

#ifndef CPDD_COPY_LINKS_H
#define CPDD_COPY_LINKS_H

#include <stdbool.h>
#include <sys/stat.h>

/* One session's tables (copy-links.c).  */
struct link_tables;

/* The outcome of a first copy of a file with other links, which a
   worker may still be filling when the walk meets a further link.  */
struct fill_outcome;

/* The job of the other processes, if any (copy-remote.h).  */
struct remote_job;

/* New, empty tables, and their end.  */
struct link_tables *copy_links_new (void);
void copy_links_free (struct link_tables *t);

/* A pending outcome, reported to T's waiters, with one reference; drop
   a reference to O (which may be NULL).  */
struct fill_outcome *fill_outcome_new (struct link_tables *t);
void fill_outcome_release (struct fill_outcome *o);

/* Take *PENDING, if PENDING and it are not null, for a task: a new
   reference, and *PENDING is cleared.  */
struct fill_outcome *claim_outcome (struct fill_outcome **pending);

/* The copy O stands for is done, whole if OK; O may be NULL.  Drops
   the task's reference.  */
void fill_outcome_end (struct fill_outcome *o, bool ok);

/* Whether the names A and B are the same directory entry, their
   directories compared as they are: how GNU cp tells a name given
   twice.  */
bool same_dir_entry (char const *a, char const *b);

/* SRC_ST was copied to NAME, which a worker still fills if PENDING
   (whose reference T takes).  */
void remember_copy (struct link_tables *t, struct stat const *src_st,
                    char const *name, struct fill_outcome *pending);

/* Remember NAME as the copy of SRC_ST unless another name is: return
   that one, or NULL.  */
char const *remember_first_copy (struct link_tables *t,
                                 struct stat const *src_st,
                                 char const *name);

/* The name of the copy made of SRC_ST so far, or NULL.  */
char const *remembered_copy (struct link_tables const *t,
                             struct stat const *src_st);

/* Like remembered_copy, but wait for a copy a worker still fills, and
   forget it (returning NULL) if it failed.  Where other ranks answer
   to this thread, WAIT (JOB) waits for the next answer; else WAIT is
   NULL.  */
char const *earlier_copy (struct link_tables *t, struct stat const *src_st,
                          void (*wait) (struct remote_job *),
                          struct remote_job *job);

/* Directories and symbolic links this cp made, by inode.  */
void remember_made_dir (struct link_tables *t, struct stat const *st);
bool made_dir (struct link_tables const *t, struct stat const *st);
void remember_made_link (struct link_tables *t, struct stat const *st);
bool made_link (struct link_tables const *t, struct stat const *st);

/* Files made from non-directory operands, by inode and name as spelt,
   which a later operand must not overwrite.  */
void remember_made_file (struct link_tables *t, struct stat const *st,
                         char const *name);
bool made_by_operand (struct link_tables const *t, char const *dst,
                      struct stat const *dst_st);

/* Whether SRC (SRC_ST) is an operand given before by the same
   directory entry; remember it if not.  */
bool repeated_operand (struct link_tables *t, char const *src,
                       struct stat const *src_st);

#endif /* CPDD_COPY_LINKS_H */
