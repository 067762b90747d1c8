/* xfer-cli.h -- the engine's command-line options, for cp.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_XFER_CLI_H
#define CPDD_XFER_CLI_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>

#include "xfer-types.h"

/* getopt values of the engine's options; above any short option and
   any long-only option of cp's own.  */
enum
{
  XFER_OPT_BUFFER_SIZE = CHAR_MAX + 256,
  XFER_OPT_DIRECT,
  XFER_OPT_IO_METHOD,
  XFER_OPT_PROGRESS,
  XFER_OPT_STATS,
  XFER_OPT_UNCACHED
};

/* Entries for a getopt_long option table.  */
#define XFER_LONG_OPTIONS \
  {"buffer-size", required_argument, NULL, XFER_OPT_BUFFER_SIZE}, \
  {"direct", optional_argument, NULL, XFER_OPT_DIRECT}, \
  {"io-method", required_argument, NULL, XFER_OPT_IO_METHOD}, \
  {"progress", optional_argument, NULL, XFER_OPT_PROGRESS}, \
  {"stats", optional_argument, NULL, XFER_OPT_STATS}, \
  {"uncached", no_argument, NULL, XFER_OPT_UNCACHED}

/* If C is one of the engine's options, apply its argument ARG (NULL
   if none) to *OPTS and return true; exit with a diagnostic if ARG is
   invalid.  Return false for any other C.  */
bool xfer_cli_option (int c, char const *arg, struct xfer_opts *opts);

/* Print the --help paragraph that describes the engine's options.  */
void xfer_cli_usage (void);

#endif /* CPDD_XFER_CLI_H */
