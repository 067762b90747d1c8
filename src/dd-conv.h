/* dd-conv.h -- dd's data conversions as functions of their input.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_DD_CONV_H
#define CPDD_DD_CONV_H

#include <stdbool.h>
#include <stdint.h>

#include "idx.h"

/* The byte translation that conv= asks for, and the newline and space
   bytes that block and unblock use after it.  */
struct dd_translation
{
  unsigned char table[256];
  bool needed;			/* false: the table is the identity */
  char newline, space;
};

/* Fill *T for the DD_CONV_* bits in CONV: a character set change
   (ascii, ebcdic, ibm) and a case change (lcase, ucase), the case
   change working on ASCII.  */
void dd_translation_init (struct dd_translation *t, int conv);

/* Translate the N bytes of BUF in place through TABLE.  */
void dd_translate (unsigned char const *table, char *buf, idx_t n);

/* Where block and unblock put what they make.  */
struct dd_sink
{
  void (*put) (void *ctx, char c);
  void *ctx;
};

/* The state that block and unblock carry from one buffer to the next.  */
struct dd_record_state
{
  idx_t cbs;			/* the record size */
  idx_t col;			/* column of the next byte in its record */
  idx_t pending_spaces;		/* spaces held back by unblock */
  intmax_t truncated;		/* lines longer than cbs, for block */
  char newline, space;
};

/* Turn newline-terminated lines of BUF (N bytes) into records of
   STATE->cbs bytes padded with spaces, cutting longer lines.  */
void dd_block (struct dd_record_state *state, char const *buf, idx_t n,
               struct dd_sink const *out);

/* Turn records of STATE->cbs bytes of BUF (N bytes) into lines,
   dropping each record's trailing spaces.  */
void dd_unblock (struct dd_record_state *state, char const *buf, idx_t n,
                 struct dd_sink const *out);

/* Finish the last record of conv=block at the end of input.  */
void dd_block_finish (struct dd_record_state *state,
                      struct dd_sink const *out);

/* Finish the last record of conv=unblock at the end of input.  */
void dd_unblock_finish (struct dd_record_state *state,
                        struct dd_sink const *out);

/* Swap the bytes of each pair of the *N bytes at BUF.  An odd byte
   left over is kept in *CARRY (*HAVE_CARRY true) and goes first the
   next time, so BUF must have room for *N + 1 bytes.  Return BUF and
   set *N to the length of the swapped data.  */
char *dd_swab (char *buf, idx_t *n, char *carry, bool *have_carry);

#endif /* CPDD_DD_CONV_H */
