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

/* Which bytes of a file xfer_hash_back hashes, and how: the LEN bytes
   (all up to its end if LEN < 0) at START, with ALGO (see
   xfer-hash.h), in pieces of about BUFSIZE bytes.  If FROM_STORAGE,
   what storage holds rather than what the page cache does: read with
   direct I/O where the file system allows it, else after syncing the
   file and dropping it from the cache.  The bytes read count in SINK,
   if not NULL, as read back to check a copy.  */
struct xfer_hash_read
{
  off_t start;
  off_t len;
  idx_t bufsize;
  int algo;
  bool from_storage;
  struct xfer_sink *sink;
};

/* Hash the bytes of the regular file FILE that R says into HEX,
   reading them through a descriptor of its own; bytes past its end
   count as zeros.  Set *HOW to the way it was read.  Return true, or
   false after a diagnostic.  */
bool xfer_hash_back (struct xfer_file const *file,
                     struct xfer_hash_read const *r, char *hex,
                     enum xfer_readback *how);

/* The bytes of a copy xfer_verify_part checks: the LEN bytes (all up
   to the end if LEN < 0) at START, hashed with ALGO; HASH saw them as
   they were copied, or is NULL.  SINK, if not NULL, counts what is
   read back.  */
struct xfer_check
{
  off_t start;
  off_t len;
  int algo;
  struct xfer_hash *hash;
  struct xfer_sink *sink;
};

/* Check C's bytes of DST, which were just copied there from SRC as
   REPORT says, by reading them back from storage (cp --verify).  Their
   digest is compared with WANT, the source's: C's hash's, unless
   REPORT says it missed some or there is none: then SRC is read again.
   The hash is finished or discarded.  If they differ, say so and set
   REPORT->differs.  Note in REPORT how DST was read.  Return false
   after a diagnostic if either could not be read.  */
bool xfer_verify_part (struct xfer_file const *src,
                       struct xfer_file const *dst,
                       struct xfer_check const *c, char *want,
                       struct xfer_report *report);

#endif /* CPDD_XFER_READBACK_H */
