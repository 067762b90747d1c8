/* mpicp-links.h -- hard links kept across mpicp's ranks.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_MPICP_LINKS_H
#define CPDD_MPICP_LINKS_H

#include "mpicp-comm.h"

/* mpicp-links.c: hard links kept across ranks.  */

/* Whether TAG is that of a message about links.  */
bool mpicp_is_link_tag (int tag);

/* Receive the message about links that STATUS announces, and act on
   it.  */
void mpicp_handle_link_message (struct remote_job *j,
                                MPI_Status const *status);

/* The operations first_copy and first_done of struct copy_remote_ops,
   for J's rank (copy-remote.h says what they do).  */
char *mpicp_first_copy (struct remote_job *j, struct stat const *src_st,
                        char const *dst_name);
void mpicp_first_done (struct remote_job *j, struct stat const *src_st,
                       bool ok);

#endif /* CPDD_MPICP_LINKS_H */
