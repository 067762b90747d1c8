/* walk.h -- walking a tree: its directories held open, its names.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_WALK_H
#define CPDD_WALK_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/stat.h>

/* A directory of one side of a copy (source or destination), held
   open so that every name in it is looked up relative to it, never
   through the names above it again.  */
struct walk_dir
{
  int fd;			/* -1 while its descriptor is released */
  bool search_only;		/* FD (O_PATH) only looks names up */
  char const *rel;		/* its name in UP, or an operand's name */
  dev_t dev;			/* what was opened, to tell it when */
  ino_t ino;			/* it is opened again */
  struct walk_dir *up;		/* the directory it is in, or NULL */
  struct walk_dir *down;	/* the directory opened in it, or NULL */
  /* Set by the copy for a directory it made, where a new regular file
     is known to get this process's owner and group, the permissions
     it is made with less the umask and no ACL, and FILE_BLKSIZE.  */
  bool plain_files;
  blksize_t file_blksize;
  /* Set by the copy for a source directory whose file system tells
     files' sizes truly.  */
  bool sizes_true;
};

/* One side's open directories.  Those opened from the working
   directory (operands) are always held; of the others, only the
   MAX_OPEN deepest are: the one highest up goes first.  */
struct walker
{
  struct walk_dir *oldest;	/* highest directory holding a descriptor,
                                   of those that can be released */
  size_t n_open;		/* descriptors that can be released */
  size_t max_open;
};

/* Start W, holding at most MAX_OPEN (at least 1) descriptors of
   directories below operands.  */
void walker_init (struct walker *w, size_t max_open);

/* How many descriptors a walker may hold, given the process's limit
   and the two walkers of a copy.  */
size_t walker_default_max (void);

/* Open REL in DIRFD as a directory, following a symbolic link only if
   FOLLOW; with SEARCH_OK, fall back on a descriptor that only looks
   names up.  Set *SEARCH_ONLY to which.  */
int walk_open_dir (int dirfd, char const *rel, bool follow, bool search_ok,
                   bool *search_only);

/* How walk_open opens a directory: following a symbolic link there,
   and falling back on a descriptor that can only search it, to make
   files in a directory that can't be read.  */
enum { WALK_FOLLOW = 1, WALK_SEARCH_OK = 2 };

/* Open the directory REL in UP (in the working directory if UP is
   NULL) as D, as HOW says (WALK_FOLLOW, WALK_SEARCH_OK, or 0), and set
   *ST to its status.  Return false with errno set on failure.  */
bool walk_open (struct walker *w, struct walk_dir *up, char const *rel,
                unsigned int how, struct walk_dir *d, struct stat *st);

/* Make sure that the directory D is in holds a descriptor again, now
   that D is the deepest directory of W.  Return false with errno set
   if it could not be opened again, or was replaced meanwhile
   (ESTALE).  */
bool walk_hold_up (struct walker *w, struct walk_dir *d);

/* Close D, the deepest directory of W.  */
void walk_close (struct walker *w, struct walk_dir *d);

/* The names of one side's files, for messages, built one on another:
   an entry's name is its directory's followed by its own, so only the
   deepest is whole at any time, and a tree deeper than PATH_MAX costs
   memory in proportion to its depth, not to its square.  */
struct name_buf
{
  char *buf;
  size_t size;
};

/* Where the entries of one directory are named in a name_buf.  */
struct name_level
{
  size_t prefix;		/* bytes of the directory's name and '/' */
  bool replaced;		/* the buffer grew while at this level */
  char *outer;			/* the buffer before: the names above */
  size_t outer_size;		/* are in it */
};

/* Start naming, in NB, the entries of the directory DIR, which is an
   operand or the deepest name in NB, and ends with DIR_REL.  An entry
   is named as file_name_concat would name it.  */
void name_enter (struct name_buf *nb, struct name_level *lv, char const *dir,
                 char const *dir_rel);

/* Name in NB the entry NAME of the directory of LV, with *REL set to
   where NAME starts in it.  */
char *name_entry (struct name_buf *nb, struct name_level *lv,
                  char const *name, char const **rel);

/* Stop naming the entries of DIR, as name_enter began.  */
void name_leave (struct name_buf *nb, struct name_level *lv, char const *dir);

/* The names in the directory SDIR, as savedir gives them, or NULL
   with errno set.  SDIR's descriptor must not have been read from
   before.  Set *TYPES to the entries' types (DT_REG...) as the
   directory gives them, one byte per name, to be freed; or to NULL
   where they are not known.  */
char *read_names (struct walk_dir const *sdir, unsigned char **types);

/* Make the stack ready for a deep walk, once per process, from the
   frame the walks start below.  */
void prepare_stack (void);

/* Whether the stack has room to copy the entries of directory NAME;
   if not, say so.  */
bool stack_allows_level (char const *name);

/* The descriptor names in D are relative to.  */
static inline int
walk_fd (struct walk_dir const *d)
{
  return d ? d->fd : AT_FDCWD;
}

#endif /* CPDD_WALK_H */
