/* test-dd-conv.c -- dd's conversions give the same result however the
   input is split into buffers.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "dd.h"
#include "dd-conv.h"

void
usage (int status)
{
  exit (status);
}

struct collect
{
  char buf[256];
  int len;
};

static void
put (void *ctx, char c)
{
  struct collect *out = ctx;
  if (out->len < (int) sizeof out->buf)
    out->buf[out->len++] = c;
}

static int failures;

static void
expect (char const *what, struct collect const *out, char const *want)
{
  if (out->len != (int) strlen (want) || memcmp (out->buf, want, out->len))
    {
      fprintf (stderr, "%s: got '%.*s', want '%s'\n",
               what, out->len, out->buf, want);
      failures++;
    }
}

/* Run IN through block (or unblock) with record size CBS, CHUNK bytes
   at a time.  */
static void
records (bool block, char const *in, idx_t cbs, idx_t chunk,
         char const *want, intmax_t want_truncated)
{
  struct dd_record_state st = { .cbs = cbs, .newline = '\n', .space = ' ' };
  struct collect out = { .len = 0 };
  struct dd_sink sink = { put, &out };
  idx_t n = strlen (in);

  for (idx_t i = 0; i < n; i += chunk)
    (block ? dd_block : dd_unblock) (&st, in + i, MIN (chunk, n - i), &sink);
  (block ? dd_block_finish : dd_unblock_finish) (&st, &sink);
  expect (block ? "block" : "unblock", &out, want);
  if (st.truncated != want_truncated)
    {
      fprintf (stderr, "block: %jd truncated, want %jd\n",
               st.truncated, want_truncated);
      failures++;
    }
}

static void
swab_chunks (char const *in, idx_t chunk, char const *want)
{
  char carry;
  bool have = false;
  struct collect out = { .len = 0 };
  idx_t n = strlen (in);

  for (idx_t i = 0; i < n; i += chunk)
    {
      char buf[64];
      idx_t len = MIN (chunk, n - i);
      memcpy (buf, in + i, len);
      char *p = dd_swab (buf, &len, &carry, &have);
      for (idx_t j = 0; j < len; j++)
        put (&out, p[j]);
    }
  if (have)
    put (&out, carry);
  expect ("swab", &out, want);
}

int
main (void)
{
  for (idx_t chunk = 1; chunk <= 8; chunk++)
    {
      records (true, "ab\nlonger\n\nx", 4, chunk,
               "ab  long    x   ", 1);
      records (false, "ab  long    x   ", 4, chunk, "ab\nlong\n\nx\n", 0);
      records (false, "a  b", 4, chunk, "a  b\n", 0);
      swab_chunks ("abcdefg", chunk, "badcfeg");
    }

  struct dd_translation t;
  dd_translation_init (&t, DD_CONV_EBCDIC);
  struct dd_translation back;
  dd_translation_init (&back, DD_CONV_ASCII);
  for (int i = 0; i < 256; i++)
    if (back.table[t.table[i]] != i)
      {
        fprintf (stderr, "ascii does not undo ebcdic at %d\n", i);
        failures++;
      }
  if (t.newline != 0x25 || t.space != 0x40)
    {
      fprintf (stderr, "EBCDIC newline or space wrong\n");
      failures++;
    }

  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
