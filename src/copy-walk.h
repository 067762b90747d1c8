/* copy-walk.h -- the walk of cp's tree copy: each file, each directory.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* copy.c and copy-dir.c call each other, as a directory's entries are
   files of the tree in turn: the one circle the tree copy has.  */

#ifndef CPDD_COPY_WALK_H
#define CPDD_COPY_WALK_H

#include "copy-impl.h"

/* copy.c: one file of the tree, whatever its type.  */

/* Copy SRC to DST; CTX says where in the tree they are.  */
bool copy_internal (struct loc const *src, struct loc const *dst,
                    struct copy_ctx const *ctx, struct cp_options const *x);

/* Copy SRC, which its directory lists as a regular file, to DST in a
   directory the copy made, opening SRC first; return false, having
   done nothing, if it is to be copied as copy_internal does, else set
   *OK to how it went.  */
bool copy_regular_entry (struct loc const *src, struct loc const *dst,
                         struct copy_ctx const *ctx,
                         struct cp_options const *x, bool *ok);

/* Whether links are followed where CTX is (-L, or -H for an
   operand).  */
bool follows_links (struct copy_ctx const *ctx, struct cp_options const *x);

/* Whether the copy of SRC_ST is remembered in the session's link map:
   for further hard links to it, or a directory reached again.  */
bool remembers_copy (struct stat const *src_st, struct copy_ctx const *ctx,
                     struct cp_options const *x);

/* -v: say that SRC is copied to DST, and to which BACKUP DST went.  */
void print_verbose (char const *src, char const *dst, char const *backup);

/* copy-dir.c: a directory, what is in it, then its attributes.  */

/* The directory SRC (SRC_ST) to be copied to DST was copied before in
   this run: say what GNU cp says, set *SKIP unless it is to be copied
   again (through links followed), and return false if that is a
   failure.  */
bool dir_copied_before (struct loc const *src, struct stat const *src_st,
                        struct loc const *dst, struct copy_ctx const *ctx,
                        struct cp_options const *x, bool *skip);

/* Copy the directory SRC (SRC_ST) to DST, which EXISTS already or is
   made here.  RECORD is the directory's report record: whoever sets
   its attributes ends it.  */
bool copy_directory (struct loc const *src, struct stat const *src_st,
                     struct loc const *dst, bool exists,
                     struct copy_record *record,
                     struct copy_ctx const *ctx, struct cp_options const *x);

/* Copy what is in D's source into its destination, open as D->ddir,
   then give the destination its attributes, and close it.  */
bool copy_dir_below (struct dir_copy *d, struct copy_ctx const *ctx,
                     struct cp_options const *x);

#endif /* CPDD_COPY_WALK_H */
