/* xfer-hash.h -- digests of the data the engine moves.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* One interface over the hash functions of gnulib's crypto modules
   (which use OpenSSL's libcrypto where configure found it) and of
   libxxhash, so that dd's hash= and cp's --print-hash and --verify
   need not know which library computes what.  A hole counts as the
   zeros it reads as.  */

#ifndef CPDD_XFER_HASH_H
#define CPDD_XFER_HASH_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "idx.h"

enum xfer_hash_algo
{
  XFER_HASH_MD5,
  XFER_HASH_SHA1,
  XFER_HASH_SHA224,
  XFER_HASH_SHA256,
  XFER_HASH_SHA384,
  XFER_HASH_SHA512,
  XFER_HASH_XXH64,
  XFER_HASH_XXH128,
  XFER_HASH_ALGOS
};

/* The longest digest, in bytes (SHA-512's), and as hexadecimal text
   with its terminating null.  */
enum { XFER_HASH_MAX = 64, XFER_HASH_HEX_MAX = 2 * XFER_HASH_MAX + 1 };

struct xfer_hash
{
  enum xfer_hash_algo algo;
  void *state;			/* the library's context, allocated */
};

/* The algorithm named NAME ("sha256", "xxh128"...; case is ignored),
   or -1 if there is none of that name.  */
int xfer_hash_lookup (char const *name);

/* The lower-case name of ALGO, as xfer_hash_lookup takes it.  */
char const *xfer_hash_name (enum xfer_hash_algo algo);

/* Whether this build can compute ALGO (the xxHash ones need
   libxxhash).  */
bool xfer_hash_available (enum xfer_hash_algo algo);

/* The library that computes ALGO, which a build without it lacks.  */
char const *xfer_hash_library (enum xfer_hash_algo algo);

/* The names of the algorithms this build computes, separated by
   ", ", for --help and diagnostics.  */
char const *xfer_hash_list (void);

/* Start H on ALGO, which must be available; exit if memory is short.  */
void xfer_hash_init (struct xfer_hash *h, enum xfer_hash_algo algo);

/* Add the N bytes at BUF to H.  */
void xfer_hash_add (struct xfer_hash *h, void const *buf, idx_t n);

/* Add N zero bytes to H, as a hole of that length reads.  */
void xfer_hash_add_zeros (struct xfer_hash *h, off_t n);

/* Finish H, write its digest as lower-case hexadecimal into HEX, and
   free what it held.  H may then be started again.  */
void xfer_hash_finish (struct xfer_hash *h, char hex[XFER_HASH_HEX_MAX]);

/* Free what H holds without finishing it.  */
void xfer_hash_discard (struct xfer_hash *h);

/* Print to OUT the line that the checksum programs ("sha256sum -c",
   "xxhsum -c"...) check the file NAME against the digest HEX of ALGO
   with: in the tagged form "SHA256 (NAME) = HEX" if TAGGED, else
   "HEX  NAME".  A name with a backslash or a line break in it is
   escaped, and its line starts with a backslash, as they expect.  */
void xfer_hash_print (FILE *out, enum xfer_hash_algo algo, char const *hex,
                      char const *name, bool tagged);

#endif
