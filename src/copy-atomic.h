/* copy-atomic.h -- cp --atomic: a file's copy made aside, then renamed.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* With --atomic, a regular file's data goes to a temporary file in its
   destination's directory, whose name atomic_temp_name gives, and only
   once its data and attributes are set and synced is the temporary
   renamed over the destination: whoever opens the destination's name,
   before or after a crash, finds the old file or the whole new one.
   These functions are what the file layer (copy-file.c) and the walk
   (copy.c) call for it; they are the only ones that know the
   temporary's name.  */

#ifndef CPDD_COPY_ATOMIC_H
#define CPDD_COPY_ATOMIC_H

#include <stdbool.h>
#include <sys/stat.h>

#include "copy-impl.h"

/* The temporary file of one copy, from its making to its renaming
   (or removal): made in the directory DIRFD (a descriptor of the
   copy's own, or AT_FDCWD) as TEMP_REL, to be renamed to FINAL_REL
   there.  TEMP_NAME is the temporary's whole name, for messages and
   for other ranks of mpicp, which open it by name: TEMP_REL is its
   end.  If BATCH, the rename waits for BATCH's flush, and DIRFD was
   device DIR_DEV, inode DIR_INO when the walk opened it.  */
struct atomic_temp
{
  int dirfd;
  char *final_rel;
  char *temp_name;
  char const *temp_rel;
  struct atomic_batch *batch;
  dev_t dir_dev;
  ino_t dir_ino;
};

/* On a file system that one syncfs makes durable whole (copy-sync.h),
   a session's temporary files are synced together and renamed after,
   rather than synced one by one: a batch of them.  Any thread may add
   to it, and flush it, which syncs the file systems of its files,
   renames them into place and sets again the times of the directories
   whose times were set before those renames.  */
struct atomic_batch *atomic_batch_new (void);

/* If the copy to be named NAME is a temporary file of B, not yet
   renamed, flush B, before a copy is made to that name again or a
   hard link to it.  B may be NULL.  Return true, or false after a
   diagnostic.  */
bool atomic_batch_settle (struct atomic_batch *b, char const *name);

/* The directory NAME, device DEV, inode INO, which was copied from
   SRC_ST, is about to get its attributes as X says, and MODE if
   SET_MODE: note its times to set again after the renames into it
   that B holds, or flush them first if its owner may no longer write
   to it.  B may be NULL.  Return true, or false after a diagnostic.  */
bool atomic_batch_dir_finishing (struct atomic_batch *b, dev_t dev,
                                 ino_t ino, char const *name,
                                 struct stat const *src_st, bool set_mode,
                                 mode_t mode, struct cp_options const *x);

/* Flush B, saying with DEBUG how the copies were made durable, and
   free B.  Return true, or false after a diagnostic.  */
bool atomic_batch_end (struct atomic_batch *b, bool debug);

/* Whether X asks for the copies whose data is copied (regular files,
   and what -R without --copy-contents does not make as itself) to be
   written aside and renamed into place.  Not to copy attributes only,
   which leaves the destination's data as it is.  */
bool atomic_replaces (struct cp_options const *x);

/* The name of the temporary file for the entry BASE (a last component,
   no slash in it): ".BASE.cpdd-part", or where that would be longer
   than a name may be (NAME_MAX), or SHORTENED asks for it as the file
   system refused the long one, ".HASH.cpdd-part", HASH being 16 hex
   digits of a hash of BASE.  Both depend on BASE alone, so that a
   later run finds what an interrupted one left (cp --atomic removes
   it, and --resume may continue into it).  Return a new string.  */
char *atomic_temp_name (char const *base, bool shortened);

/* Make the temporary file for copying SRC_ST to DST, with permissions
   MODE, open for writing, and set *T to it; return its descriptor, or
   -1 after a diagnostic.  Its rename is left to BATCH, if not NULL,
   where its file system allows.  With RESUME, a regular file an interrupted
   run left under the temporary's name is opened as it is, to be read
   and written, and *KEPT set, for the copy to be continued in it;
   without, it is removed and made anew.  */
int atomic_temp_open (struct loc const *dst, struct stat const *src_st,
                      mode_t mode, bool resume, struct atomic_batch *batch,
                      bool *kept, struct atomic_temp **t);

/* The temporary file T, open as FD, was filled (well if OK) and its
   attributes set: sync it and rename it into place if OK, or leave
   that to its batch, else remove it; close FD and free T.  Return whether all went
   well; FINAL_NAME is the destination's whole name, for messages.  */
bool atomic_temp_end (struct atomic_temp *t, int fd, bool ok,
                      char const *final_name);

/* How make_backup_link made the backup.  */
enum atomic_backup { BACKUP_FAILED, BACKUP_LINKED, BACKUP_RENAMED };

/* Give the file at DST its backup's name REL (in DST's directory) too,
   so that its own name goes on naming it until the new copy is renamed
   over it; where the file system cannot link (or DST is a directory),
   rename it as a backup is made without --atomic.  Say why and return
   BACKUP_FAILED if neither can be done.  */
enum atomic_backup atomic_backup_link (struct loc const *dst,
                                       char const *rel);

#endif /* CPDD_COPY_ATOMIC_H */
