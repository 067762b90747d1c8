/* dd-conv.c -- character sets, case, swab, block and unblock.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include <ctype.h>

#include "system.h"
#include "dd.h"
#include "dd-conv.h"

/* ASCII to EBCDIC, the table that POSIX gives for dd's conv=ebcdic.
   It is a permutation, so conv=ascii is its inverse.  */
static unsigned char const ascii_to_ebcdic[256] =
{
  0x00, 0x01, 0x02, 0x03, 0x37, 0x2d, 0x2e, 0x2f,
  0x16, 0x05, 0x25, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
  0x10, 0x11, 0x12, 0x13, 0x3c, 0x3d, 0x32, 0x26,
  0x18, 0x19, 0x3f, 0x27, 0x1c, 0x1d, 0x1e, 0x1f,
  0x40, 0x5a, 0x7f, 0x7b, 0x5b, 0x6c, 0x50, 0x7d,
  0x4d, 0x5d, 0x5c, 0x4e, 0x6b, 0x60, 0x4b, 0x61,
  0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
  0xf8, 0xf9, 0x7a, 0x5e, 0x4c, 0x7e, 0x6e, 0x6f,
  0x7c, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
  0xc8, 0xc9, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6,
  0xd7, 0xd8, 0xd9, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6,
  0xe7, 0xe8, 0xe9, 0xad, 0xe0, 0xbd, 0x9a, 0x6d,
  0x79, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
  0x88, 0x89, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96,
  0x97, 0x98, 0x99, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6,
  0xa7, 0xa8, 0xa9, 0xc0, 0x4f, 0xd0, 0x5f, 0x07,
  0x20, 0x21, 0x22, 0x23, 0x24, 0x15, 0x06, 0x17,
  0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x09, 0x0a, 0x1b,
  0x30, 0x31, 0x1a, 0x33, 0x34, 0x35, 0x36, 0x08,
  0x38, 0x39, 0x3a, 0x3b, 0x04, 0x14, 0x3e, 0xe1,
  0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
  0x49, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,
  0x58, 0x59, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,
  0x68, 0x69, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75,
  0x76, 0x77, 0x78, 0x80, 0x8a, 0x8b, 0x8c, 0x8d,
  0x8e, 0x8f, 0x90, 0x6a, 0x9b, 0x9c, 0x9d, 0x9e,
  0x9f, 0xa0, 0xaa, 0xab, 0xac, 0x4a, 0xae, 0xaf,
  0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
  0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xa1, 0xbe, 0xbf,
  0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xda, 0xdb,
  0xdc, 0xdd, 0xde, 0xdf, 0xea, 0xeb, 0xec, 0xed,
  0xee, 0xef, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff
};

/* POSIX's alternate table (conv=ibm) differs from the one above only
   in where it puts these ASCII characters: ^ ~ and three of the high
   half.  It is not a permutation.  */
static struct { unsigned char ascii, ebcdic; } const ibm_differences[] =
{
  {0x5e, 0x5f}, {0x7e, 0xa1}, {0xcb, 0x9a}, {0xd5, 0xad}, {0xe5, 0xbd}
};

/* Replace each entry of TABLE by its image under MAP.  */
static void
compose (unsigned char *table, unsigned char const *map)
{
  for (int i = 0; i < 256; i++)
    table[i] = map[table[i]];
}

void
dd_translation_init (struct dd_translation *t, int conv)
{
  unsigned char map[256];

  for (int i = 0; i < 256; i++)
    t->table[i] = i;
  t->needed = (conv & (DD_CONV_ASCII | DD_CONV_EBCDIC | DD_CONV_IBM
                       | DD_CONV_LCASE | DD_CONV_UCASE)) != 0;
  t->newline = '\n';
  t->space = ' ';

  if (conv & DD_CONV_ASCII)
    {
      for (int i = 0; i < 256; i++)
        map[ascii_to_ebcdic[i]] = i;
      compose (t->table, map);
    }

  /* Case is changed on ASCII: after conv=ascii, before conv=ebcdic.  */
  for (int i = 0; i < 256; i++)
    t->table[i] = (conv & DD_CONV_UCASE ? toupper (t->table[i])
                   : conv & DD_CONV_LCASE ? tolower (t->table[i])
                   : t->table[i]);

  if (conv & (DD_CONV_EBCDIC | DD_CONV_IBM))
    {
      memcpy (map, ascii_to_ebcdic, sizeof map);
      if (conv & DD_CONV_IBM)
        for (size_t i = 0;
             i < sizeof ibm_differences / sizeof *ibm_differences; i++)
          map[ibm_differences[i].ascii] = ibm_differences[i].ebcdic;
      compose (t->table, map);
      t->newline = map['\n'];
      t->space = map[' '];
    }
}

void
dd_translate (unsigned char const *table, char *buf, idx_t n)
{
  unsigned char *p = (unsigned char *) buf;
  for (idx_t i = 0; i < n; i++)
    p[i] = table[p[i]];
}

static void
put_spaces (struct dd_record_state *state, idx_t n,
            struct dd_sink const *out)
{
  for (; 0 < n; n--)
    out->put (out->ctx, state->space);
}

void
dd_block (struct dd_record_state *state, char const *buf, idx_t n,
          struct dd_sink const *out)
{
  for (idx_t i = 0; i < n; i++)
    {
      if (buf[i] == state->newline)
        {
          if (state->col < state->cbs)
            put_spaces (state, state->cbs - state->col, out);
          state->col = 0;
          continue;
        }
      /* Count a cut line once, at its first byte past the record.  */
      if (state->col == state->cbs)
        state->truncated++;
      if (state->col < state->cbs)
        out->put (out->ctx, buf[i]);
      if (state->col <= state->cbs)
        state->col++;
    }
}

void
dd_block_finish (struct dd_record_state *state, struct dd_sink const *out)
{
  if (0 < state->col && state->col < state->cbs)
    put_spaces (state, state->cbs - state->col, out);
  state->col = 0;
}

void
dd_unblock (struct dd_record_state *state, char const *buf, idx_t n,
            struct dd_sink const *out)
{
  for (idx_t i = 0; i < n; )
    {
      if (state->col == state->cbs)
        {
          /* End of a record: its trailing spaces are dropped.  */
          out->put (out->ctx, state->newline);
          state->col = state->pending_spaces = 0;
          continue;
        }
      char c = buf[i++];
      state->col++;
      if (c == state->space)
        state->pending_spaces++;
      else
        {
          put_spaces (state, state->pending_spaces, out);
          state->pending_spaces = 0;
          out->put (out->ctx, c);
        }
    }
}

void
dd_unblock_finish (struct dd_record_state *state, struct dd_sink const *out)
{
  if (state->col)
    out->put (out->ctx, state->newline);
  state->col = state->pending_spaces = 0;
}

char *
dd_swab (char *buf, idx_t *n, char *carry, bool *have_carry)
{
  idx_t len = *n;

  if (*have_carry)
    {
      memmove (buf + 1, buf, len);
      buf[0] = *carry;
      len++;
    }
  *have_carry = len % 2 != 0;
  if (*have_carry)
    *carry = buf[--len];

  for (idx_t i = 0; i + 1 < len; i += 2)
    {
      char c = buf[i];
      buf[i] = buf[i + 1];
      buf[i + 1] = c;
    }
  *n = len;
  return buf;
}
