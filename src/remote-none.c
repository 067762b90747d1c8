/* remote-none.c -- cp, a job of one process.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "remote.h"

void
remote_init (int *argc, char ***argv)
{
}

struct copy_remote const *
remote_start (struct cp_options *x)
{
  return NULL;
}

void
remote_session (struct copy_session *s)
{
}

void
remote_finish (void)
{
}
