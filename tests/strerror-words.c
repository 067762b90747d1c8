/* strerror-words -- this build's C library's words for each error.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Usage: strerror-words
   Prints "N<TAB>DESCRIPTION" for each error number N from 1 to 255, as
   strerror describes it in the program's locale.  The tests read it to
   compare our messages with those of GNU's programs where these were
   linked with another C library (a musl build, say): the same error
   reads differently there, and nothing else should.  */

#include <config.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Past the largest error number of the systems cpdd is built on.  */
enum { LAST_ERRNO = 255 };

int
main (void)
{
  setlocale (LC_ALL, "");
  for (int e = 1; e <= LAST_ERRNO; e++)
    printf ("%d\t%s\n", e, strerror (e));
  return fclose (stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
