/* xfer-readback.h -- a file read again, to hash what it holds.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The I/O layer (see doc/HACKING): a file hashed by reading it
   through an end of its own, from storage when asked, and a copied
   range checked against its source so (cp --verify).  */

#ifndef CPDD_XFER_READBACK_H
#define CPDD_XFER_READBACK_H

#include <stdbool.h>
#include <sys/types.h>

#include "idx.h"
#include "xfer-hash.h"
#include "xfer-types.h"

/* Hash the LEN bytes (all up to its end if LEN < 0) of the regular
   file FILE at START with ALGO into HEX (see xfer-hash.h), reading
   them through a descriptor of its own in pieces of about BUFSIZE
   bytes; bytes past its end count as zeros.  If FROM_STORAGE, read what
   storage holds rather than what the page cache does: with direct I/O
   where the file system allows it, else after syncing the file and
   dropping it from the cache.  Set *HOW to the way it was read.
   Return true, or false after a diagnostic.  */
bool xfer_hash_back (struct xfer_file const *file, bool from_storage,
                     off_t start, off_t len, idx_t bufsize, int algo,
                     char *hex, enum xfer_readback *how);

/* Check the LEN bytes (all up to the end if LEN < 0) at START of DST,
   which were just copied there from SRC as REPORT says, by reading
   them back from storage (cp --verify).  Their digest with ALGO is
   compared with WANT, the source's: HASH's, which saw the data as it
   was copied, unless REPORT says it missed some or HASH is NULL: then
   SRC is read again.  HASH is finished or discarded.  If they differ,
   say so and set REPORT->differs.  Note in REPORT how DST was read.
   Return false after a diagnostic if either could not be read.  */
bool xfer_verify_part (struct xfer_file const *src,
                       struct xfer_file const *dst, off_t start, off_t len,
                       int algo, struct xfer_hash *hash, char *want,
                       struct xfer_report *report);

#endif /* CPDD_XFER_READBACK_H */
