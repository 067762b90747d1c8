/* copy-file.h -- a regular file's two ends, opened and filled.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* What any thread does with one regular file, whoever decided it is
   to be copied and wherever that happens (copy-file.c): open its
   source and make or open its copy, copy the data and the attributes,
   close both.  Below the hand-outs and the walk; it calls only the
   tables, the hashing and the engine.  */

#ifndef CPDD_COPY_FILE_H
#define CPDD_COPY_FILE_H

#include <stdbool.h>
#include <sys/stat.h>

#include "copy-impl.h"
#include "copy-report.h"
#include "copy-sync.h"

/* Remove DST to make room for its copy, saying so if VERBOSE.  Return
   false after a diagnostic if it can't be.  */
bool remove_destination (struct loc const *dst, bool verbose);

/* The permissions to create a non-directory copy of SRC_ST with,
   before the umask: the source's, or with --no-preserve=mode the
   default ones.  */
mode_t new_file_mode (struct stat const *src_st, struct cp_options const *x);

/* Whether POSIX's rules, which write through a dangling symbolic link
   in the destination, are asked for (POSIXLY_CORRECT).  */
bool posixly_correct (void);

/* Open SRC to read it, following a symbolic link if FOLLOW.  */
int open_source (struct loc const *src, bool follow);

/* Whether FD, opened as NAME, is still the file WANT the walk looked
   at; set *ST to its status.  Say why not if not.  */
bool still_same_file (int fd, char const *name, struct stat *st,
                      struct stat const *want);

/* Open both ends of the copy of SRC to DST, which EXISTS still or is
   to be made, into *C, as session S and X say; return false after a
   diagnostic if either can't be, having closed both.  With
   DEFER_RESUME, how to finish a copy --resume found there is left for
   fill_copy to decide, in whichever thread fills it, where that needs
   nothing but the open files.  With --atomic, the copy's rename waits
   for S's batch where it can, unless RENAME_NOW.  */
bool open_copy_ends (struct file_source const *src, struct loc const *dst,
                     bool exists, bool defer_resume, bool rename_now,
                     struct copy_session const *s,
                     struct cp_options const *x, struct open_copy *c);

/* Copy the data, then the attributes, of C's source to its
   destination, and close both; say in R how the data moved.  Return
   whether all went well.  */
bool fill_copy (struct open_copy *c, struct cp_options const *x,
                struct copy_record *r);

/* After C's data was copied (successfully if OK), copy its
   attributes, and close both ends.  Return whether all went well.  */
bool finish_copy (struct open_copy *c, bool ok, struct cp_options const *x);

/* Whether a new regular file made in DST's directory has at once the
   owner and group in ST: the directory gives its new files the owner
   and group that S's process makes them as (copy-dir.c found so).  */
bool owned_as_made (struct copy_session const *s, struct loc const *dst,
                    struct stat const *st);

#endif /* CPDD_COPY_FILE_H */
