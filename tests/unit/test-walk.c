/* test-walk.c -- walk.c alone.  A walker holds no more directories
   open than its limit, and takes one back through ".." of the one
   below it, refusing it if that one was moved elsewhere meanwhile;
   a link is opened as a directory only when asked; names are built
   one level on another as file_name_concat would make them, also far
   deeper than the buffer at first, and are whole again on the way up;
   read_names lists a directory's entries.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "walk.h"
#include "unit.h"

#include <dirent.h>
#include <stdio.h>


/* Make the directory NAME, or fail the test.  */
static void
make_dir (char const *name)
{
  if (mkdir (name, 0755) != 0)
    {
      perror (name);
      exit (99);
    }
}

enum { DEPTH = 6, LIMIT = 2 };

/* Descend DEPTH directories "d" below TOP with at most LIMIT held,
   then come back up, each directory taken back as the one below it is
   left.  */
static void
holds_at_most_its_limit (char const *top)
{
  struct walker w;
  walker_init (&w, LIMIT);
  struct walk_dir d[DEPTH + 1];
  struct stat st[DEPTH + 1];
  expect (walk_open (&w, NULL, top, 0, &d[0], &st[0]),
          "the operand opens");
  for (int i = 1; i <= DEPTH; i++)
    {
      expect (walk_open (&w, &d[i - 1], "d", 0, &d[i], &st[i]),
              "each level opens");
      expect (w.n_open <= LIMIT, "no more than the limit held");
      int held = 0;
      for (int j = 1; j <= i; j++)
        held += 0 <= d[j].fd;
      expect (held == MIN (i, LIMIT), "the deepest ones are held");
      expect (0 <= d[0].fd, "the operand is always held");
    }
  for (int i = DEPTH; 1 <= i; i--)
    {
      expect (walk_hold_up (&w, &d[i]), "the level above is taken back");
      expect (0 <= d[i - 1].fd, "it has a descriptor again");
      struct stat again;
      expect (fstat (d[i - 1].fd, &again) == 0
              && again.st_ino == st[i - 1].st_ino
              && again.st_dev == st[i - 1].st_dev,
              "it is the directory that was left");
      walk_close (&w, &d[i]);
      expect (d[i].fd < 0, "a closed level holds nothing");
    }
  expect (w.n_open == 0, "nothing is counted once all is closed");
  walk_close (&w, &d[0]);
}

/* With only the deepest directory held, the one it was in cannot be
   taken back once the deepest was moved into another: ESTALE.  */
static void
refuses_a_moved_level (char const *top)
{
  char a[PATH_MAX], b_c[PATH_MAX], x[PATH_MAX], x_c[PATH_MAX];
  snprintf (a, sizeof a, "%s/a", top);
  snprintf (b_c, sizeof b_c, "%s/a/b/c", top);
  snprintf (x, sizeof x, "%s/a/x", top);
  snprintf (x_c, sizeof x_c, "%s/a/x/c", top);
  struct walker w;
  walker_init (&w, 1);
  struct walk_dir d[4];
  struct stat st;
  bool ok = (walk_open (&w, NULL, a, 0, &d[0], &st)
             && walk_open (&w, &d[0], "b", 0, &d[1], &st)
             && walk_open (&w, &d[1], "c", 0, &d[2], &st));
  expect (ok, "a/b/c opens");
  if (!ok)
    return;
  expect (d[1].fd < 0, "b is let go when c is opened");
  make_dir (x);
  if (rename (b_c, x_c) != 0)
    {
      perror (b_c);
      exit (99);
    }
  errno = 0;
  expect (!walk_hold_up (&w, &d[2]) && errno == ESTALE,
          "b is not taken back through the .. of c, now in x");
  walk_close (&w, &d[2]);
  walk_close (&w, &d[0]);
}

/* A symbolic link to a directory is one only if followed.  */
static void
follows_links_when_asked (char const *top)
{
  char link[PATH_MAX];
  snprintf (link, sizeof link, "%s/link", top);
  if (symlink ("a", link) != 0)
    {
      perror (link);
      exit (99);
    }
  struct walker w;
  walker_init (&w, LIMIT);
  struct walk_dir d;
  struct stat st;
  expect (!walk_open (&w, NULL, link, 0, &d, &st),
          "a link is not opened unless followed");
  expect (walk_open (&w, NULL, link, WALK_FOLLOW, &d, &st)
          && S_ISDIR (st.st_mode), "a link followed opens its directory");
  walk_close (&w, &d);
}

/* Enter each of DEPTH levels named LEVEL below the operand OPERAND,
   checking each entry's name against the one built by hand, then
   leave them, checking the names above are whole again.  */
static void
names_level_on_level (char const *operand, char const *first,
                      char const *level, int depth)
{
  struct name_buf nb = { NULL, 0 };
  struct name_level *lv = xnmalloc (depth + 1, sizeof *lv);
  char const **dirs = xnmalloc (depth + 1, sizeof *dirs);
  char **want = xnmalloc (depth + 1, sizeof *want);
  char const *rel;

  name_enter (&nb, &lv[0], operand, operand);
  char *name = name_entry (&nb, &lv[0], level, &rel);
  want[0] = xmalloc (strlen (first) + strlen (level) + 1);
  stpcpy (stpcpy (want[0], first), level);
  expect (strcmp (name, want[0]) == 0, "an operand's entry is named");
  expect (strcmp (rel, level) == 0, "REL is the entry's own name");
  for (int i = 1; i <= depth; i++)
    {
      dirs[i] = nb.buf;
      name_enter (&nb, &lv[i], dirs[i], rel);
      name = name_entry (&nb, &lv[i], level, &rel);
      size_t n = strlen (want[i - 1]);
      want[i] = xmalloc (n + 1 + strlen (level) + 1);
      stpcpy (stpcpy (stpcpy (want[i], want[i - 1]), "/"), level);
      expect (strcmp (name, want[i]) == 0, "a deeper entry is named");
      expect (strcmp (rel, level) == 0, "REL is the deeper entry's name");
    }
  for (int i = depth; 1 <= i; i--)
    {
      name_leave (&nb, &lv[i], dirs[i]);
      expect (strcmp (nb.buf, want[i - 1]) == 0,
              "the name above is whole again");
    }
  name_leave (&nb, &lv[0], operand);
  for (int i = 0; i <= depth; i++)
    free (want[i]);
  free (want);
  free (dirs);
  free (lv);
  free (nb.buf);
}

/* read_names gives every entry, and nothing else.  */
static void
lists_entries (char const *top)
{
  char dir[PATH_MAX];
  snprintf (dir, sizeof dir, "%s/list", top);
  make_dir (dir);
  char const *names[] = { "one", "two", "three", ".hidden" };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    {
      char f[PATH_MAX];
      snprintf (f, sizeof f, "%s/%s", dir, names[i]);
      make_dir (f);
    }
  struct walker w;
  walker_init (&w, LIMIT);
  struct walk_dir d;
  struct stat st;
  if (!walk_open (&w, NULL, dir, 0, &d, &st))
    {
      expect (false, "the list directory opens");
      return;
    }
  unsigned char *types;
  char *list = read_names (&d, &types);
  expect (list != NULL, "the names are read");
  size_t seen = 0;
  ino_t last = 0;
  for (char const *p = list; p && *p; p += strlen (p) + 1)
    {
      bool known = false;
      for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        known |= strcmp (p, names[i]) == 0;
      expect (known, "each name listed is an entry");
#ifdef DT_DIR
      expect (!types || types[seen] == DT_DIR || types[seen] == DT_UNKNOWN,
              "each entry's type is a directory's, if known");
#endif
#if D_INO_IN_DIRENT
      struct stat est;
      expect (fstatat (d.fd, p, &est, AT_SYMLINK_NOFOLLOW) == 0
              && last <= est.st_ino, "the entries come by inode number");
      last = est.st_ino;
#endif
      seen++;
    }
  expect (seen == sizeof names / sizeof *names, "every entry is listed");
  free (list);
  free (types);
  walk_close (&w, &d);
}

int
main (void)
{
  char top[] = "test-walk.XXXXXX";
  if (!mkdtemp (top))
    {
      perror ("mkdtemp");
      return 99;
    }
  char path[PATH_MAX];
  size_t n = snprintf (path, sizeof path, "%s", top);
  for (int i = 0; i < DEPTH; i++)
    {
      n += snprintf (path + n, sizeof path - n, "/d");
      make_dir (path);
    }
  snprintf (path, sizeof path, "%s/a", top);
  make_dir (path);
  snprintf (path, sizeof path, "%s/a/b", top);
  make_dir (path);
  snprintf (path, sizeof path, "%s/a/b/c", top);
  make_dir (path);

  holds_at_most_its_limit (top);
  refuses_a_moved_level (top);
  follows_links_when_asked (top);
  lists_entries (top);

  /* Names: after operands with and without a slash, and far deeper
     than a first buffer, with long names, so that it grows while
     levels above still use the one before.  */
  names_level_on_level ("src", "src/", "x", 3);
  names_level_on_level ("src/", "src/", "x", 3);
  names_level_on_level (".", "./", "entry", 3);
  names_level_on_level ("/", "/", "entry", 3);
  char long_name[201];
  memset (long_name, 'n', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  names_level_on_level ("deep", "deep/", long_name, 300);

  char cmd[sizeof top + 16];
  snprintf (cmd, sizeof cmd, "rm -rf %s", top);
  if (system (cmd) != 0)
    fprintf (stderr, "could not remove %s\n", top);
  return failures ? 1 : 0;
}
