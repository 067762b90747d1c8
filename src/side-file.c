/* side-file.c -- the files cp and dd write besides their copies.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The side file is opened, made if need be, before it is checked: then
   it exists, and every comparison is one of device and inode, whether
   it had been there or not.  A destination not made yet that has the
   side file's name finds the side file when it is looked up, and an
   ancestor directory is found however the side file's name was
   spelled, through links or "..".  Only files that hold data are
   checked: a side file that is a pipe or a terminal loses nothing.  */

#include <config.h>

#include "system.h"
#include "same-inode.h"
#include "side-file.h"

/* The identities of the directories above a file, up to the root.  */
struct above
{
  struct stat *v;
  idx_t n;
  idx_t alloc;
};

/* Fill *A with the directories above the file NAME.  Leave it empty
   if NAME's whole name cannot be known: then nothing is found inside
   a tree, which can only be where the name has gone meanwhile.  */
static void
find_above (char const *name, struct above *a)
{
  *a = (struct above) { NULL, 0, 0 };
  char *path = realpath (name, NULL);
  if (!path)
    return;
  for (char *slash = strrchr (path, '/'); slash; slash = strrchr (path, '/'))
    {
      if (slash == path)
        slash[1] = '\0';
      else
        *slash = '\0';
      struct stat st;
      if (stat (path, &st) == 0)
        {
          if (a->n == a->alloc)
            a->v = xpalloc (a->v, &a->alloc, 1, -1, sizeof *a->v);
          a->v[a->n++] = st;
        }
      if (slash == path)
        break;
    }
  free (path);
}

/* Whether the directory DIR is among those of A.  */
static bool
is_above (struct stat const *dir, struct above const *a)
{
  for (idx_t i = 0; i < a->n; i++)
    if (SAME_INODE (*dir, a->v[i]))
      return true;
  return false;
}

/* The status of the bound B into *ST; false if it has none, being
   gone or not made yet.  */
static bool
bound_status (struct side_bound const *b, struct stat *st)
{
  if (0 <= b->fd)
    return fstat (b->fd, st) == 0;
  return (b->follow ? stat (b->name, st) : lstat (b->name, st)) == 0;
}

/* Say that F is the file B, or if INSIDE is inside the directory B,
   remove F if it was made here, and exit.  */
static void
refuse (struct side_file *f, struct side_bound const *b, bool inside)
{
  char const *side = quoteaf_n (0, f->name);
  char const *label = b->name ? quoteaf_n (1, b->name) : NULL;
  if (f->created && unlink (f->name) != 0)
    error (0, errno, _("cannot remove %s"), side);
  switch (b->role)
    {
    case SIDE_SOURCE:
      if (inside)
        error (EXIT_FAILURE, 0, _("%s %s is inside the source directory %s"),
               f->option, side, label);
      error (EXIT_FAILURE, 0, _("%s %s is the same file as the source %s"),
             f->option, side, label);
      break;
    case SIDE_DEST:
      if (inside)
        error (EXIT_FAILURE, 0,
               _("%s %s is inside the destination directory %s"),
               f->option, side, label);
      error (EXIT_FAILURE, 0,
             _("%s %s is the same file as the destination %s"),
             f->option, side, label);
      break;
    case SIDE_INPUT:
      if (!b->name)
        error (EXIT_FAILURE, 0, _("%s %s is standard input"),
               f->option, side);
      error (EXIT_FAILURE, 0, _("%s %s is the same file as the input %s"),
             f->option, side, label);
      break;
    case SIDE_OUTPUT:
      if (!b->name)
        error (EXIT_FAILURE, 0, _("%s %s is standard output"),
               f->option, side);
      error (EXIT_FAILURE, 0, _("%s %s is the same file as the output %s"),
             f->option, side, label);
      break;
    }
}

/* Open F->name for writing as it is, made if missing; exit after a
   diagnostic if it cannot be.  */
static void
open_side (struct side_file *f)
{
  int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC;
  mode_t mode = S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH;
  f->created = true;
  f->fd = open (f->name, flags | O_CREAT | O_EXCL, mode);
  if (f->fd < 0 && errno == EEXIST)
    {
      f->created = false;
      f->fd = open (f->name, flags, mode);
      /* A symbolic link that leads nowhere yet: make what it names, as
         fopen would.  */
      if (f->fd < 0 && errno == ENOENT)
        f->fd = open (f->name, flags | O_CREAT, mode);
    }
  if (f->fd < 0)
    error (EXIT_FAILURE, errno, _("failed to open %s"), quoteaf (f->name));
}

void
side_file_check (struct side_file *f, char const *name, char const *option,
                 struct side_bound const *bounds, idx_t n)
{
  *f = (struct side_file) { name, option, -1, false };
  open_side (f);
  struct stat st;
  if (fstat (f->fd, &st) != 0)
    error (EXIT_FAILURE, errno, _("cannot fstat %s"), quoteaf (name));
  if (! (S_ISREG (st.st_mode) || S_ISBLK (st.st_mode)))
    return;

  struct above above;
  find_above (name, &above);
  for (idx_t i = 0; i < n; i++)
    {
      struct side_bound const *b = &bounds[i];
      struct stat bst;
      if (!bound_status (b, &bst))
        continue;
      if (SAME_INODE (bst, st))
        refuse (f, b, false);
      if (b->tree && S_ISDIR (bst.st_mode) && is_above (&bst, &above))
        refuse (f, b, true);
    }
  free (above.v);
}

FILE *
side_file_stream (struct side_file *f)
{
  struct stat st;
  if (!f->created && fstat (f->fd, &st) == 0 && S_ISREG (st.st_mode)
      && ftruncate (f->fd, 0) != 0)
    error (EXIT_FAILURE, errno, _("failed to truncate %s"),
           quoteaf (f->name));
  FILE *stream = fdopen (f->fd, "w");
  if (!stream)
    error (EXIT_FAILURE, errno, _("failed to open %s"), quoteaf (f->name));
  return stream;
}
