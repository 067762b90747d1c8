/* copy-links.c -- the inodes a tree copy has seen and made.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Tables of files by device and inode: the copies made so far, for
   hard links and for directories reached again, and what this cp
   made, which it must not copy into or through.  Only the walk's
   thread touches them; workers only end a first copy's outcome.  */

#include <config.h>

#include "system.h"
#include "copy-links.h"
#include "dirname.h"
#include "hash.h"
#include "same-inode.h"
#include "workers.h"

#include <pthread.h>
#include <stdatomic.h>

/* A file identified by its inode, with a name: of its copy, or the
   name it was reached by.  A tree has an entry for each directory, so
   the name is kept in the entry itself.  */
struct inode_entry
{
  ino_t ino;
  dev_t dev;
  struct fill_outcome *outcome;	/* of a copy workers still fill, or NULL */
  char name[];
};

/* The outcome of the first copy of a file with other links, which a
   worker fills after the walk has gone on.  A later name is linked to
   that copy only once it is whole, and is copied afresh if it failed,
   as without workers (and in GNU cp), where a file whose copy failed
   is not remembered.  The link map's entry and the task each hold a
   reference.  */
struct fill_outcome
{
  struct link_tables *tables;	/* whose lock guards its ending */
  atomic_int state;
  atomic_int refs;
};

enum { FILL_PENDING, FILL_OK, FILL_FAILED };

/* The tables of one copy session.  Only the walk's thread touches the
   tables; workers only end a first copy's outcome, under LOCK.  */
struct link_tables
{
  /* Signalled whenever a fill_outcome stops being pending.  */
  pthread_mutex_t lock;
  pthread_cond_t fill_ended;

  /* Source inodes already copied, with the name of their copy, so that
     further links to them become links to that copy, and a directory
     reached again is not copied again.  */
  Hash_table *link_map;

  /* Directories this cp created, to stop copying a directory into
     itself.  Their entries have no name.  */
  Hash_table *made_dirs;

  /* The non-directory operands, by inode and name, to tell one given
     twice.  */
  Hash_table *operands;

  /* The files made from non-directory operands, by inode and name as
     spelt, which a later operand must not overwrite.  */
  Hash_table *made_files;

  /* With POSIXLY_CORRECT set, the symbolic links this cp made, which
     it must not write through later: POSIX says to write through a
     dangling link where a file is copied, but not through one that
     copying an earlier part of the tree put there.  Their entries have
     no name.  */
  Hash_table *made_links;
};

static size_t
inode_hash (void const *p, size_t n_buckets)
{
  struct inode_entry const *e = p;
  return (e->ino ^ e->dev) % n_buckets;
}

static bool
inode_equal (void const *a, void const *b)
{
  struct inode_entry const *x = a;
  struct inode_entry const *y = b;
  return x->ino == y->ino && x->dev == y->dev;
}

/* Do the names A and B stand for the same directory entry, their
   directories compared as they are rather than as what links among
   them lead to?  This is how GNU cp tells a name given twice.  */
bool
same_dir_entry (char const *a, char const *b)
{
  char const *a_base = last_component (a);
  char const *b_base = last_component (b);
  size_t len = base_len (a_base);
  if (! (len == base_len (b_base) && memcmp (a_base, b_base, len) == 0))
    return false;
  char *a_dir = dir_name (a);
  char *b_dir = dir_name (b);
  struct stat a_st, b_st;
  bool same = (lstat (a_dir, &a_st) == 0 && lstat (b_dir, &b_st) == 0
               && SAME_INODE (a_st, b_st));
  free (a_dir);
  free (b_dir);
  return same;
}

/* Whether A and B are one file reached by one directory entry, as GNU
   cp tells an operand given twice.  */
static bool
inode_name_equal (void const *a, void const *b)
{
  struct inode_entry const *x = a;
  struct inode_entry const *y = b;
  return inode_equal (x, y) && same_dir_entry (x->name, y->name);
}

/* Whether A and B are one file under one name spelt alike.  GNU cp
   finds a file an earlier operand made by the name spelt as it is,
   so --parents with "d/f" then "d/./f" does not find the first copy.  */
static bool
inode_spelling_equal (void const *a, void const *b)
{
  struct inode_entry const *x = a;
  struct inode_entry const *y = b;
  return inode_equal (x, y) && STREQ (x->name, y->name);
}

/* A new entry for ST, named NAME.  */
static struct inode_entry *
inode_entry_new (struct stat const *st, char const *name)
{
  size_t size = strlen (name) + 1;
  struct inode_entry *e = xmalloc (offsetof (struct inode_entry, name)
                                   + size);
  e->ino = st->st_ino;
  e->dev = st->st_dev;
  e->outcome = NULL;
  memcpy (e->name, name, size);
  return e;
}

void
fill_outcome_release (struct fill_outcome *o)
{
  if (o && atomic_fetch_sub (&o->refs, 1) == 1)
    free (o);
}

static void
inode_entry_free (void *p)
{
  struct inode_entry *e = p;
  fill_outcome_release (e->outcome);
  free (e);
}

/* The entry for ST in TABLE, which tells files by inode alone, or
   NULL.  */
static struct inode_entry const *
inode_lookup (Hash_table const *table, struct stat const *st)
{
  struct inode_entry key = { .ino = st->st_ino, .dev = st->st_dev };
  return table ? hash_lookup (table, &key) : NULL;
}

/* The entry for ST reached as NAME in TABLE, which tells files by
   inode and name, or NULL.  */
static struct inode_entry const *
inode_name_lookup (Hash_table const *table, struct stat const *st,
                   char const *name)
{
  if (!table)
    return NULL;
  struct inode_entry *key = inode_entry_new (st, name);
  struct inode_entry const *e = hash_lookup (table, key);
  free (key);
  return e;
}

/* Add ST named NAME to *TABLE, made with EQUAL if it does not exist
   yet.  Return the entry that was already there for it, or NULL.  */
static struct inode_entry const *
inode_remember (Hash_table **table, Hash_comparator equal,
                struct stat const *st, char const *name)
{
  if (!*table)
    {
      *table = hash_initialize (0, NULL, inode_hash, equal, inode_entry_free);
      if (!*table)
        xalloc_die ();
    }
  struct inode_entry *e = inode_entry_new (st, name);
  struct inode_entry const *found;
  switch (hash_insert_if_absent (*table, e, (void const **) &found))
    {
    case -1:
      xalloc_die ();
    case 0:
      free (e);
      return found;
    default:
      return NULL;
    }
}

static void
inode_table_free (Hash_table *table)
{
  if (table)
    hash_free (table);
}

struct link_tables *
copy_links_new (void)
{
  struct link_tables *t = xzalloc (sizeof *t);
  workers_lock_init (&t->lock, &t->fill_ended);
  return t;
}

void
copy_links_free (struct link_tables *t)
{
  inode_table_free (t->link_map);
  inode_table_free (t->made_dirs);
  inode_table_free (t->made_links);
  inode_table_free (t->operands);
  inode_table_free (t->made_files);
  pthread_cond_destroy (&t->fill_ended);
  pthread_mutex_destroy (&t->lock);
  free (t);
}

struct fill_outcome *
fill_outcome_new (struct link_tables *t)
{
  struct fill_outcome *o = xmalloc (sizeof *o);
  o->tables = t;
  atomic_init (&o->state, FILL_PENDING);
  atomic_init (&o->refs, 1);
  return o;
}

/* Remember that SRC_ST was copied to NAME, which a worker still fills
   if PENDING, whose reference the link map takes.  */
void
remember_copy (struct link_tables *t, struct stat const *src_st,
               char const *name, struct fill_outcome *pending)
{
  inode_remember (&t->link_map, inode_equal, src_st, name);
  if (pending)
    {
      struct inode_entry *e
        = (struct inode_entry *) inode_lookup (t->link_map, src_st);
      e->outcome = pending;
    }
}

/* Give the task being made the outcome *PENDING, if any: that of the
   first copy of a file with other links, which the walk makes and
   then waits for before linking another name to it.  PENDING is NULL
   where there is none to take.  */
struct fill_outcome *
claim_outcome (struct fill_outcome **pending)
{
  struct fill_outcome *o = pending ? *pending : NULL;
  if (o)
    {
      atomic_fetch_add (&o->refs, 1);
      *pending = NULL;
    }
  return o;
}

/* Record that the copy O stands for is done, whole if OK.  */
void
fill_outcome_end (struct fill_outcome *o, bool ok)
{
  if (!o)
    return;
  struct link_tables *t = o->tables;
  pthread_mutex_lock (&t->lock);
  atomic_store (&o->state, ok ? FILL_OK : FILL_FAILED);
  pthread_cond_broadcast (&t->fill_ended);
  pthread_mutex_unlock (&t->lock);
  fill_outcome_release (o);
}

/* The name of the copy of an earlier name of the file SRC_ST, to link
   a new name to, or NULL.  Wait for one that a worker still fills, and
   forget one that failed, so that the new name is copied afresh.  With
   other ranks, whose answers come to this thread, WAIT (JOB) waits for
   the next of them; else WAIT is NULL.  */
char const *
earlier_copy (struct link_tables *t, struct stat const *src_st,
              void (*wait) (struct remote_job *), struct remote_job *job)
{
  struct inode_entry *e = (struct inode_entry *) inode_lookup (t->link_map,
                                                               src_st);
  if (!e || !e->outcome)
    return e ? e->name : NULL;
  if (wait)
    while (atomic_load (&e->outcome->state) == FILL_PENDING)
      wait (job);
  pthread_mutex_lock (&t->lock);
  while (atomic_load (&e->outcome->state) == FILL_PENDING)
    pthread_cond_wait (&t->fill_ended, &t->lock);
  pthread_mutex_unlock (&t->lock);
  if (atomic_load (&e->outcome->state) == FILL_OK)
    return e->name;
  inode_entry_free (hash_remove (t->link_map, e));
  return NULL;
}

/* Whether SRC (SRC_ST) is an operand given before by the same
   directory entry, remembering it if not.  */
bool
repeated_operand (struct link_tables *t, char const *src,
                  struct stat const *src_st)
{
  return inode_remember (&t->operands, inode_name_equal, src_st, src) != NULL;
}

/* Whether DST, found with status DST_ST, was made from an earlier
   operand.  */
bool
made_by_operand (struct link_tables const *t, char const *dst,
                 struct stat const *dst_st)
{
  return inode_name_lookup (t->made_files, dst_st, dst) != NULL;
}

/* Remember NAME as the copy of SRC_ST, unless another name already is:
   return that one, or NULL.  */
char const *
remember_first_copy (struct link_tables *t, struct stat const *src_st,
                     char const *name)
{
  struct inode_entry const *e = inode_remember (&t->link_map, inode_equal,
                                                src_st, name);
  return e ? e->name : NULL;
}

/* The name of the copy made of SRC_ST so far, or NULL.  */
char const *
remembered_copy (struct link_tables const *t, struct stat const *src_st)
{
  struct inode_entry const *e = inode_lookup (t->link_map, src_st);
  return e ? e->name : NULL;
}

/* Remember ST as a directory this cp made.  */
void
remember_made_dir (struct link_tables *t, struct stat const *st)
{
  inode_remember (&t->made_dirs, inode_equal, st, "");
}

/* Whether ST is a directory this cp made.  */
bool
made_dir (struct link_tables const *t, struct stat const *st)
{
  return inode_lookup (t->made_dirs, st) != NULL;
}

/* Remember ST as a symbolic link this cp made.  */
void
remember_made_link (struct link_tables *t, struct stat const *st)
{
  inode_remember (&t->made_links, inode_equal, st, "");
}

/* Whether ST is a symbolic link this cp made.  */
bool
made_link (struct link_tables const *t, struct stat const *st)
{
  return inode_lookup (t->made_links, st) != NULL;
}

/* Remember ST, named NAME, as made from an operand.  */
void
remember_made_file (struct link_tables *t, struct stat const *st,
                    char const *name)
{
  inode_remember (&t->made_files, inode_spelling_equal, st, name);
}
