/* xfer-size.c -- buffer sizes: parsing and automatic choice.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The utility layer of the engine, its lowest (see doc/HACKING):
   used by every layer and by cp and dd, it calls nothing of the
   engine's.  */

#include <config.h>

#include "system.h"
#include "intprops.h"
#include "minmax.h"
#include "stat-size.h"
#include "xfer-size.h"

/* The unit letters dd accepts; '0' lets xstrtoumax take "KB" (1000)
   and "KiB" (1024) as well as "K".  */
static char const size_suffixes[] = "bcEGkKMPQRTwYZ0";

/* Parse the factor of a size at STR, setting *END past it.  A 'B'
   that does not already end a unit ("KB", "KiB") means bytes, so "1B"
   is 1 and "2cB" is 2.  */
static strtol_error
parse_factor (char const *str, char **end, uintmax_t *value)
{
  strtol_error e = xstrtoumax (str, end, 10, value, size_suffixes);
  if ((e & ~LONGINT_OVERFLOW) == LONGINT_INVALID_SUFFIX_CHAR
      && **end == 'B' && (*end)[-1] != 'B')
    {
      ++*end;
      if (! **end)
        e &= ~LONGINT_INVALID_SUFFIX_CHAR;
    }
  return e;
}

/* A size is factors joined by 'x', each with its own unit and 'B'.
   As in GNU dd, the value must fit in intmax_t, and a zero factor
   makes the product fit however big the others are; a last factor
   too big for intmax_t is an overflow even with junk after it, while
   junk after any other factor makes the size invalid.  */
strtol_error
xfer_parse_size (char const *str, uintmax_t *size)
{
  uintmax_t product = 1;
  bool zero = false, too_big = false;

  for (;;)
    {
      char *end;
      uintmax_t n = 0;
      strtol_error e = parse_factor (str, &end, &n);
      bool big = (e & LONGINT_OVERFLOW) || INTMAX_MAX < n;
      bool more = ((e & ~LONGINT_OVERFLOW) == LONGINT_INVALID_SUFFIX_CHAR
                   && *end == 'x');
      if (!more && e != LONGINT_OK && !big)
        return LONGINT_INVALID;

      if (n == 0)
        zero = true;
      else if (big || INT_MULTIPLY_WRAPV (product, n, &product)
               || INTMAX_MAX < product)
        too_big = true;

      if (!more)
        break;
      str = end + 1;
    }

  *size = zero ? 0 : product;
  return zero || !too_big ? LONGINT_OK : LONGINT_OVERFLOW;
}

/* The least common multiple of A and B, or 0 if it overflows.  */
static idx_t
lcm (idx_t a, idx_t b)
{
  idx_t x = a, y = b;
  while (y)
    {
      idx_t r = x % y;
      x = y;
      y = r;
    }
  idx_t l;
  return INT_MULTIPLY_WRAPV (a / x, b, &l) ? 0 : l;
}

/* Why 256 KiB: on the VMs cpdd is developed on (shared/BENCHMARKING.md),
   reading a hot file is equally fast with any buffer from about 40 KB
   to 2 MB and four times slower at 64 MiB, where buffers no longer fit
   the CPU caches; a hot 1 GiB read/write copy took 0.53 s with 128 KiB
   and 0.56 s with 8 MiB (GNU cp 0.50 s).  Our own read method, hot,
   medians of 3 on a busy machine: 64 KiB 1.02 s, 128 KiB 0.87 s,
   256 KiB 0.79 s, 1 MiB 0.85 s, 8 MiB 2.40 s.  256 KiB is in the
   plateau, with 8,192 calls per GiB.
   The size is rounded up to a multiple of both files' preferred block
   sizes so no read or write straddles a block.  A small regular file
   gets a buffer just big enough to read it and see its end in two
   reads: malloc maps and unmaps a large buffer for each file, so
   copying 2,000 files of up to 14 KB on tmpfs took twice as long
   (0.18 s against 0.09 s) with untrimmed 256 KiB buffers.  */
idx_t
xfer_auto_buffer_size (struct stat const *src, struct stat const *dst)
{
  idx_t ib = ST_BLKSIZE (*src);
  idx_t ob = dst ? ST_BLKSIZE (*dst) : ib;
  idx_t blk = lcm (ib, ob);
  if (blk <= 0 || XFER_MIN_AUTO_BUFFER < blk)
    blk = MAX (ib, ob);
  idx_t size = XFER_MIN_AUTO_BUFFER + blk - 1;
  size -= size % blk;
  if (S_ISREG (src->st_mode) && 0 <= src->st_size && src->st_size < size)
    {
      idx_t need = src->st_size + 1 + blk - 1;
      need -= need % blk;
      size = MIN (size, need);
    }
  return size;
}
