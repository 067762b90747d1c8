/* copy-session.c -- one copy session: made, finished, freed.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* cp's main and each rank of mpicp make one session, and every part
   of the tree copy reaches it from there: nothing of a copy is kept
   anywhere else, so this is the one place it is set up and torn
   down.  */

#include <config.h>

#include "system.h"
#include "copy-atomic.h"
#include "copy-hash.h"
#include "copy-jobs.h"
#include "copy-sync.h"
#include "xfer-range.h"

struct copy_session *
copy_session_new (struct cp_options const *x,
                  struct copy_remote const *remote)
{
  struct copy_session *s = xzalloc (sizeof *s);
  s->report_pool = x->debug;
  s->helpers.chunk_size = xfer_chunk_size ();
  atomic_init (&s->finishes_held, 0);
  s->links = copy_links_new ();
  s->syncs = x->fsync ? copy_syncs_new () : NULL;
  /* Other ranks rename their own files, and may not share this one's
     file systems, which its syncfs would have to cover.  */
  s->renames = atomic_replaces (x) && !remote ? atomic_batch_new () : NULL;
  /* Other ranks take the workers' place.  */
  if (remote)
    {
      s->helpers.remote = remote;
      s->helpers.remote_x = x;
      s->finishes_max = copy_finishes_max ();
    }
  else
    copy_jobs_start (s, x->jobs);
  return s;
}

bool
copy_session_finish (struct copy_session *s, struct cp_options const *x)
{
  copy_jobs_finish (s);
  /* The renames before --fsync's syncs, which make them durable.  */
  bool ok = !s->renames || atomic_batch_end (s->renames, x->debug);
  s->renames = NULL;
  ok &= copy_verify_finish (x);
  return copy_session_sync (s, x) && ok;
}

bool
copy_session_sync (struct copy_session *s, struct cp_options const *x)
{
  bool ok = !s->syncs || copy_syncs_end (s->syncs, x->debug);
  s->syncs = NULL;
  return ok;
}

bool
copy_session_sync_dir (struct copy_session *s, char const *name)
{
  return !s->syncs || copy_sync_dir_at (s->syncs, AT_FDCWD, name, name);
}

bool
copy_session_free (struct copy_session *s, struct cp_options *x,
                   char const *hash_file)
{
  copy_links_free (s->links);
  free (s->tops.v);
  free (s);
  return copy_hash_finish (x, hash_file);
}
