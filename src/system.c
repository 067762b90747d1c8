/* system.c -- small helpers every cpdd program uses.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"

void
emit_ancillary_info (char const *program)
{
  printf (_("\nFull documentation: info '(%s) %s invocation'\n"),
          PACKAGE, program);
}

void
emit_version (char const *program)
{
  printf ("%s (%s) %s\n", program, PACKAGE_NAME, PACKAGE_VERSION);
  fputs (_("\
Copyright (C) 2026 The cpdd authors.\n\
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n\
This is free software: you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n\
\n\
Written by the cpdd authors.\n\
"), stdout);
}
