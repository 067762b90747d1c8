/* copy-scout.h -- reading a source tree's directories ahead of the walk
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_COPY_SCOUT_H
#define CPDD_COPY_SCOUT_H

struct copy_scout;

/* Start a thread that reads the directories below the one open as
   DIRFD, in the order the walk copies them and a bounded number of
   directories ahead of it, so that the walk finds them in the cache.
   Return NULL if no thread could be had: the walk then reads them
   itself, as it always does.  */
struct copy_scout *copy_scout_start (int dirfd);

/* The walk has read one more directory; CACHED tells whether it finds
   the files' data cached.  SC may be NULL.  */
void copy_scout_step (struct copy_scout *sc, bool cached);

/* Stop SC's thread and free it.  SC may be NULL.  */
void copy_scout_stop (struct copy_scout *sc);

#endif
