/* xfer-cli.c -- the engine's command-line options, for cp.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* cp's option table includes XFER_LONG_OPTIONS and passes the values
   of those options here, so the options that choose how data moves are
   parsed and documented in one place, next to the engine.

   The front end of the engine, above the chooser (see doc/HACKING): it
   fills struct xfer_opts, calling the utilities (xfer-size.c) and the
   progress sink (xfer-progress.c).  */

#include <config.h>

#include "system.h"
#include "argmatch.h"
#include "xfer-cli.h"
#include "xfer-progress.h"
#include "xfer-size.h"
#include "xfer-stats.h"

static char const *const io_method_args[] =
{
  "auto", "read", "mmap", "offload", NULL
};
static enum xfer_method const io_method_types[] =
{
  XFER_METHOD_AUTO, XFER_METHOD_READ, XFER_METHOD_MMAP, XFER_METHOD_OFFLOAD
};
ARGMATCH_VERIFY (io_method_args, io_method_types);

static char const *const direct_args[] =
{
  "in", "out", "both", NULL
};
static int const direct_types[] =
{
  XFER_DIRECT_IN, XFER_DIRECT_OUT, XFER_DIRECT_BOTH
};
ARGMATCH_VERIFY (direct_args, direct_types);

static char const *const progress_args[] =
{
  "auto", "always", "never", NULL
};
static enum xfer_progress_when const progress_types[] =
{
  XFER_PROGRESS_AUTO, XFER_PROGRESS_ALWAYS, XFER_PROGRESS_NEVER
};
ARGMATCH_VERIFY (progress_args, progress_types);

static char const *const stats_args[] =
{
  "human", "json", NULL
};
static enum xfer_stats_format const stats_types[] =
{
  XFER_STATS_HUMAN, XFER_STATS_JSON
};
ARGMATCH_VERIFY (stats_args, stats_types);

static idx_t
parse_buffer_size (char const *arg)
{
  uintmax_t n;
  if (xfer_parse_size (arg, &n) != LONGINT_OK || n == 0
      || MIN (IDX_MAX, SSIZE_MAX) < n)
    error (EXIT_FAILURE, 0, _("invalid buffer size: %s"), quote (arg));
  return n;
}

bool
xfer_cli_option (int c, char const *arg, struct xfer_opts *opts)
{
  switch (c)
    {
    case XFER_OPT_BUFFER_SIZE:
      opts->buffer_size = parse_buffer_size (arg);
      return true;
    case XFER_OPT_DIRECT:
      opts->direct = (arg
                      ? XARGMATCH ("--direct", arg, direct_args, direct_types)
                      : XFER_DIRECT_BOTH);
      return true;
    case XFER_OPT_IO_METHOD:
      opts->method = XARGMATCH ("--io-method", arg,
                                io_method_args, io_method_types);
      return true;
    case XFER_OPT_PROGRESS:
      xfer_session_progress (opts, (arg
                                    ? XARGMATCH ("--progress", arg,
                                                 progress_args,
                                                 progress_types)
                                    : XFER_PROGRESS_AUTO));
      return true;
    case XFER_OPT_STATS:
      xfer_session_stats (opts, (arg
                                 ? XARGMATCH ("--stats", arg,
                                              stats_args, stats_types)
                                 : XFER_STATS_HUMAN));
      return true;
    case XFER_OPT_UNCACHED:
      opts->uncached = true;
      return true;
    default:
      return false;
    }
}

void
xfer_cli_usage (void)
{
  fputs (_("\
\n\
Transfer options (cpdd):\n\
      --buffer-size=SIZE       move data SIZE bytes at a time; SIZE takes\n\
                                 dd's units (4K, 8M, 8MiB, 1MB...);\n\
                                 default: at least 256 KiB (8 MiB with\n\
                                 --direct or --uncached), a multiple of\n\
                                 both files' block sizes, less for small\n\
                                 files; with --io-method=mmap: 8 MiB\n\
                                 windows\n\
      --direct[=WHICH]         bypass the page cache with direct I/O on\n\
                                 WHICH end: in, out, or both (the default),\n\
                                 reading ahead while writing\n\
      --io-method=METHOD       move data with METHOD: auto (the default),\n\
                                 read, mmap, or offload\n\
      --progress[=WHEN]        show a progress line on standard error, with\n\
                                 the percentage and the time left once the\n\
                                 sources are counted; WHEN is auto (the\n\
                                 default: if it is a terminal), always, or\n\
                                 never\n\
      --stats[=FORMAT]         at the end, report bytes, time, rate, files,\n\
                                 method and buffer size on standard error;\n\
                                 FORMAT is human (the default) or json\n\
      --uncached               read and write through the page cache but\n\
                                 leave the data copied out of it (on the\n\
                                 ends without --direct)\n\
"), stdout);
}
