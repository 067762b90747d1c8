/* unit.h -- what the unit tests that check a list of facts share.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_TESTS_UNIT_H
#define CPDD_TESTS_UNIT_H

#include <stdbool.h>
#include <stdio.h>

/* How many facts were found false: the test fails if any was.  */
static int failures;

/* Say that WHAT is false, unless OK.  */
static void
expect (bool ok, char const *what)
{
  if (!ok)
    {
      fprintf (stderr, "FAIL: %s\n", what);
      failures++;
    }
}

#endif /* CPDD_TESTS_UNIT_H */
