/* xfer-hash.c -- digests of the data the engine moves.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "xfer-hash.h"

#include <stdlib.h>
#include <string.h>

#include "c-strcase.h"
#include "md5.h"
#include "sha1.h"
#include "sha256.h"
#include "sha512.h"
#include "xalloc.h"

#if HAVE_LIBXXHASH
# include <xxhash.h>
#endif

/* How one algorithm is driven: FINISH writes the digest, and DESTROY
   frees the state, finished or not.  */
struct algo
{
  char const *name;
  char const *tag;
  int digest_size;
  void *(*create) (void);
  void (*add) (void *state, void const *buf, idx_t n);
  void (*finish) (void *state, unsigned char *digest);
  void (*destroy) (void *state);
};

/* The gnulib contexts are plain structures: allocate, then start.  */
#define GNULIB_ALGO(fn, ctx, init_fn, finish_fn)                        \
  static void *fn##_create (void)                                       \
  {                                                                     \
    struct ctx *c = xmalloc (sizeof *c);                                \
    init_fn (c);                                                        \
    return c;                                                           \
  }                                                                     \
  static void fn##_finish (void *state, unsigned char *digest)          \
  {                                                                     \
    finish_fn (state, digest);                                          \
  }

GNULIB_ALGO (md5, md5_ctx, md5_init_ctx, md5_finish_ctx)
GNULIB_ALGO (sha1, sha1_ctx, sha1_init_ctx, sha1_finish_ctx)
GNULIB_ALGO (sha224, sha256_ctx, sha224_init_ctx, sha224_finish_ctx)
GNULIB_ALGO (sha256, sha256_ctx, sha256_init_ctx, sha256_finish_ctx)
GNULIB_ALGO (sha384, sha512_ctx, sha384_init_ctx, sha384_finish_ctx)
GNULIB_ALGO (sha512, sha512_ctx, sha512_init_ctx, sha512_finish_ctx)

static void
md5_add (void *state, void const *buf, idx_t n)
{
  md5_process_bytes (buf, n, state);
}

static void
sha1_add (void *state, void const *buf, idx_t n)
{
  sha1_process_bytes (buf, n, state);
}

static void
sha256_add (void *state, void const *buf, idx_t n)
{
  sha256_process_bytes (buf, n, state);
}

static void
sha512_add (void *state, void const *buf, idx_t n)
{
  sha512_process_bytes (buf, n, state);
}

#if HAVE_LIBXXHASH
/* xxHash's states want an alignment of their own, which its create
   functions give.  */
static void *
xxh64_create (void)
{
  XXH64_state_t *s = XXH64_createState ();
  if (!s)
    xalloc_die ();
  XXH64_reset (s, 0);
  return s;
}

static void
xxh64_add (void *state, void const *buf, idx_t n)
{
  XXH64_update (state, buf, n);
}

static void
xxh64_finish (void *state, unsigned char *digest)
{
  XXH64_canonical_t c;
  XXH64_canonicalFromHash (&c, XXH64_digest (state));
  memcpy (digest, c.digest, sizeof c.digest);
}

static void
xxh64_destroy (void *state)
{
  XXH64_freeState (state);
}

static void *
xxh128_create (void)
{
  XXH3_state_t *s = XXH3_createState ();
  if (!s)
    xalloc_die ();
  XXH3_128bits_reset (s);
  return s;
}

static void
xxh128_add (void *state, void const *buf, idx_t n)
{
  XXH3_128bits_update (state, buf, n);
}

static void
xxh128_finish (void *state, unsigned char *digest)
{
  XXH128_canonical_t c;
  XXH128_canonicalFromHash (&c, XXH3_128bits_digest (state));
  memcpy (digest, c.digest, sizeof c.digest);
}

static void
xxh128_destroy (void *state)
{
  XXH3_freeState (state);
}
# define XXH_OPS(fn) fn##_create, fn##_add, fn##_finish, fn##_destroy
#else
# define XXH_OPS(fn) NULL, NULL, NULL, NULL
#endif

/* The gnulib contexts hold no pointers.  */
static void
gnulib_destroy (void *state)
{
  free (state);
}

static struct algo const algos[XFER_HASH_ALGOS] =
{
  [XFER_HASH_MD5] = {"md5", "MD5", 16, md5_create, md5_add, md5_finish,
                     gnulib_destroy},
  [XFER_HASH_SHA1] = {"sha1", "SHA1", 20, sha1_create, sha1_add,
                      sha1_finish, gnulib_destroy},
  [XFER_HASH_SHA224] = {"sha224", "SHA224", 28, sha224_create, sha256_add,
                        sha224_finish, gnulib_destroy},
  [XFER_HASH_SHA256] = {"sha256", "SHA256", 32, sha256_create, sha256_add,
                        sha256_finish, gnulib_destroy},
  [XFER_HASH_SHA384] = {"sha384", "SHA384", 48, sha384_create, sha512_add,
                        sha384_finish, gnulib_destroy},
  [XFER_HASH_SHA512] = {"sha512", "SHA512", 64, sha512_create, sha512_add,
                        sha512_finish, gnulib_destroy},
  [XFER_HASH_XXH64] = {"xxh64", "XXH64", 8, XXH_OPS (xxh64)},
  [XFER_HASH_XXH128] = {"xxh128", "XXH128", 16, XXH_OPS (xxh128)},
};

int
xfer_hash_lookup (char const *name)
{
  for (int i = 0; i < XFER_HASH_ALGOS; i++)
    if (c_strcasecmp (name, algos[i].name) == 0)
      return i;
  return -1;
}

char const *
xfer_hash_name (enum xfer_hash_algo algo)
{
  return algos[algo].name;
}

bool
xfer_hash_available (enum xfer_hash_algo algo)
{
  return algos[algo].create != NULL;
}

char const *
xfer_hash_library (enum xfer_hash_algo algo)
{
  return algo == XFER_HASH_XXH64 || algo == XFER_HASH_XXH128
         ? "libxxhash" : "gnulib";
}

char const *
xfer_hash_list (void)
{
  /* Which algorithms a build computes is known when it is built, so
     the list is a constant, in the order of the table above.  */
  return ("md5, sha1, sha224, sha256, sha384, sha512"
#if HAVE_LIBXXHASH
          ", xxh64, xxh128"
#endif
          );
}

void
xfer_hash_init (struct xfer_hash *h, enum xfer_hash_algo algo)
{
  h->algo = algo;
  h->state = algos[algo].create ();
}

void
xfer_hash_add (struct xfer_hash *h, void const *buf, idx_t n)
{
  if (n)
    algos[h->algo].add (h->state, buf, n);
}

void
xfer_hash_add_zeros (struct xfer_hash *h, off_t n)
{
  static char const zeros[64 * 1024];
  while (0 < n)
    {
      idx_t part = n < (off_t) sizeof zeros ? n : (idx_t) sizeof zeros;
      algos[h->algo].add (h->state, zeros, part);
      n -= part;
    }
}

void
xfer_hash_finish (struct xfer_hash *h, char hex[XFER_HASH_HEX_MAX])
{
  static char const digits[] = "0123456789abcdef";
  struct algo const *a = &algos[h->algo];
  unsigned char digest[XFER_HASH_MAX];
  a->finish (h->state, digest);
  a->destroy (h->state);
  h->state = NULL;
  for (int i = 0; i < a->digest_size; i++)
    {
      hex[2 * i] = digits[digest[i] >> 4];
      hex[2 * i + 1] = digits[digest[i] & 15];
    }
  hex[2 * a->digest_size] = '\0';
}

void
xfer_hash_discard (struct xfer_hash *h)
{
  if (h->state)
    algos[h->algo].destroy (h->state);
  h->state = NULL;
}

/* Print NAME as the checksum programs read it back in a line that
   starts with a backslash.  */
static void
print_escaped (FILE *out, char const *name)
{
  for (char const *p = name; *p; p++)
    switch (*p)
      {
      case '\\': fputs ("\\\\", out); break;
      case '\n': fputs ("\\n", out); break;
      case '\r': fputs ("\\r", out); break;
      default: putc (*p, out); break;
      }
}

void
xfer_hash_print (FILE *out, enum xfer_hash_algo algo, char const *hex,
                 char const *name, bool tagged)
{
  bool escaped = name[strcspn (name, "\\\n\r")] != '\0';
  if (escaped)
    putc ('\\', out);
  if (tagged)
    fprintf (out, "%s (", algos[algo].tag);
  else
    fprintf (out, "%s  ", hex);
  if (escaped)
    print_escaped (out, name);
  else
    fputs (name, out);
  if (tagged)
    fprintf (out, ") = %s", hex);
  putc ('\n', out);
}
