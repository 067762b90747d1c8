/* copy-sync.h -- what a file system is; cp --fsync's syncs.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* With --fsync, what the copy wrote must be on storage when cp ends:
   the files' data and attributes, and the directory entries that name
   them.  A file system whose syncfs writes all of that (a local one,
   FS_PLAIN) is synced once, at the end of the session; on any other
   (a network or FUSE file system, which syncfs may not reach, or one
   not known) each file is synced once its attributes are set, and
   each directory once its entries and attributes are (copy-sync.c).
   Any thread may call these but copy_syncs_end.  What the copy makes
   of a file system, which decides that, decides more for the walk and
   the hand-outs too.  */

#ifndef CPDD_COPY_SYNC_H
#define CPDD_COPY_SYNC_H

#include <stdbool.h>
#include <sys/stat.h>

#include "copy-impl.h"

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
   on device DEV.  */
unsigned int file_system_kind (int fd, dev_t dev);

/* The file systems of one session to sync at its end, empty.  */
struct copy_syncs *copy_syncs_new (void);

/* The copy NAME, open as FD with status ST, is about to be written:
   if its file system is to be synced at the end of S, keep a
   descriptor for that now, while it has not been written to, as a
   descriptor's syncfs reports only the write errors since it was
   opened.  */
void copy_sync_start (struct copy_syncs *s, int fd, struct stat const *st,
                      char const *name);

/* The copy NAME, open as FD with status ST, is complete, attributes
   included: sync it now (a device, or a file on a file system synced
   file by file), or leave it to the sync of its file system at the
   end of S.  Return true, or false after a diagnostic.  */
bool copy_sync_file (struct copy_syncs *s, int fd, struct stat const *st,
                     char const *name);

/* The directory NAME, open for reading as FD on device DEV, has its
   entries and attributes: sync it, or leave it to the end of S, as
   copy_sync_file does.  */
bool copy_sync_dir (struct copy_syncs *s, int fd, dev_t dev,
                    char const *name);

/* As copy_sync_dir, for the directory REL in DIRFD, named NAME, which
   this opens.  */
bool copy_sync_dir_at (struct copy_syncs *s, int dirfd, char const *rel,
                       char const *name);

/* Another process wrote a range of the file NAME, open as FD with
   status ST, whose attributes the process that made it sets and which
   it syncs: sync the data written through FD where that process's
   sync may not reach it (a file system synced file by file: a network
   one, where the writer may be another client).  */
bool copy_sync_range (int fd, struct stat const *st, char const *name);

/* Whether the file NAME (a regular file or a directory), open as FD
   on device DEV, is on a file system that S syncs whole, noted in S
   now if it was not.  Call it before writing through FD: a
   descriptor's syncfs reports only the write errors since it was
   opened.  */
bool copy_syncs_cover (struct copy_syncs *s, int fd, dev_t dev,
                       char const *name);

/* Sync the file systems S noted so far, which stay noted.  Return
   true, or false after a diagnostic.  */
bool copy_syncs_now (struct copy_syncs *s);

/* Sync the file systems S noted, saying how with DEBUG, and free S.
   Return true, or false after a diagnostic.  */
bool copy_syncs_end (struct copy_syncs *s, bool debug);

/* Free S without syncing, once nothing was written since
   copy_syncs_now.  */
void copy_syncs_free (struct copy_syncs *s);

#endif /* CPDD_COPY_SYNC_H */
