/* copy-hash.h -- hashing and reading back the copies' data.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* What --print-hash, --hash-file and --verify add to a regular file's
   copy (copy-hash.c).  A copy none of them asks for goes straight to
   the engine, and never through here.  Their state
   for one session is X->hashing (copy.h).  */

#ifndef CPDD_COPY_HASH_H
#define CPDD_COPY_HASH_H

#include <stdbool.h>
#include <sys/stat.h>

#include "copy.h"
#include "xfer-range.h"

/* Whether the copy of IN to OUT is hashed as X asks: only regular
   files have data to hash and read back.  */
bool copy_hashes (struct xfer_file const *in, struct xfer_file const *out,
                  struct cp_options const *x);

/* Copy the data of IN to OUT, both just opened, hashing it on the way,
   reading the copy back, printing its line, as X asks.  Fill *REPORT,
   and HEX with the source's digest.  Return true, or false after a
   diagnostic.  */
bool copy_file_data (struct xfer_file const *in, struct xfer_file const *out,
                     struct xfer_report *report,
                     char hex[XFER_HASH_HEX_MAX],
                     struct cp_options const *x);

/* The existing destination ST is about to be overwritten, replaced
   or moved aside: if --verify left its check for later, as X says,
   check it now, before the copy it awaits is gone.  */
void copy_verify_settle (struct stat const *st, struct cp_options const *x);

/* A file copied in ranges, SPLIT, has ended well: read it back if it
   was cloned, as X asks (the ranges read themselves back).  Return
   true, or false after a diagnostic.  */
bool copy_split_checked (struct xfer_split *split,
                         struct cp_options const *x);

/* The copy IN to OUT was finished by --resume, which kept some of
   OUT's data as an earlier run left it, as REPORT says: read it back
   whole and compare, print its line, as X asks (finish_copy syncs
   it).  Return true, or false after a diagnostic.  */
bool copy_resumed_checked (struct xfer_file const *in,
                           struct xfer_file const *out,
                           struct xfer_report *report,
                           struct cp_options const *x);

/* Read back the small files whose check --verify left for later, once
   no worker copies any more.  Return false if any failed its check,
   after a diagnostic.  */
bool copy_verify_finish (struct cp_options const *x);

/* Print the lines held back to the end, under the names their copies
   have now, and those of further hard links to copies; then close the
   file copy_hash_start opened as HASH_FILE, if any, and free
   X->hashing.  Return false after a diagnostic if writing failed.  */
bool copy_hash_finish (struct cp_options *x, char const *hash_file);

#endif /* CPDD_COPY_HASH_H */
