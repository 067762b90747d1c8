/* fuzz-parse-size.c -- libFuzzer harness for xfer_parse_size.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Every size dd and cp --buffer-size accept goes through
   xfer_parse_size.  Besides crashes and undefined behaviour, check what
   a parse that succeeds must satisfy: a plain run of digits means that
   number, and the same text parses the same way twice.  */

#include <config.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xfer-size.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);
_Noreturn void usage (int status);

/* The engine's sources, linked in whole, refer to the program's usage
   function (for a bad --io-method); parsing a size never calls it.  */
_Noreturn void
usage (int status)
{
  abort ();
}

static _Bool
all_digits (char const *s)
{
  if (!*s)
    return 0;
  for (; *s; s++)
    if (! ('0' <= *s && *s <= '9'))
      return 0;
  return 1;
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  char *str = malloc (size + 1);
  if (!str)
    return 0;
  memcpy (str, data, size);
  str[size] = '\0';

  uintmax_t n1 = 0, n2 = 0;
  strtol_error e1 = xfer_parse_size (str, &n1);
  strtol_error e2 = xfer_parse_size (str, &n2);
  if (e1 != e2 || (e1 == LONGINT_OK && n1 != n2))
    abort ();

  if (e1 == LONGINT_OK && all_digits (str))
    {
      char *end;
      uintmax_t want = strtoumax (str, &end, 10);
      if (n1 != want)
        abort ();
    }

  free (str);
  return 0;
}
