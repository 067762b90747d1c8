/* xfer-copy -- run the transfer engine on one file, for the tests.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Usage: xfer-copy [ENGINE-OPTION]... [--sparse=WHEN] [--reflink=WHEN]
                    [--debug] SOURCE DEST [SOURCE DEST]...
   Copies each SOURCE to a new or truncated DEST with xfer_copy, taking
   the engine's options as cp does (xfer_cli_option), plus the
   per-file policy cp passes in struct xfer_opts; --debug prints each
   report.  One session covers all pairs, as one cp command would.
   This exercises every engine option independently of cp's own
   option set.  */

#include <config.h>

#include <getopt.h>

#include "system.h"
#include "argmatch.h"
#include "xfer.h"
#include "xfer-cli.h"
#include "xfer-progress.h"
#include "xfer-stats.h"

enum { SPARSE_OPTION = CHAR_MAX + 1, REFLINK_OPTION, DEBUG_OPTION };

static struct option const long_opts[] =
{
  {"sparse", required_argument, NULL, SPARSE_OPTION},
  {"reflink", required_argument, NULL, REFLINK_OPTION},
  {"debug", no_argument, NULL, DEBUG_OPTION},
  XFER_LONG_OPTIONS,
  {NULL, 0, NULL, 0}
};

static char const *const sparse_args[] = { "never", "auto", "always", NULL };
static enum xfer_sparse const sparse_types[] =
  { XFER_SPARSE_NEVER, XFER_SPARSE_AUTO, XFER_SPARSE_ALWAYS };
static char const *const reflink_args[] = { "never", "auto", "always", NULL };
static enum xfer_reflink const reflink_types[] =
  { XFER_REFLINK_NEVER, XFER_REFLINK_AUTO, XFER_REFLINK_ALWAYS };

void
usage (int status)
{
  fprintf (stderr, "Usage: %s [OPTION]... SOURCE DEST\n", program_name);
  exit (status);
}

/* Copy SRC_NAME to DST_NAME as OPTS says; print the report if DEBUG.  */
static bool
copy_one (char const *src_name, char const *dst_name,
          struct xfer_opts const *opts, bool debug)
{
  int src_fd = open (src_name, O_RDONLY);
  if (src_fd < 0)
    error (EXIT_FAILURE, errno, "%s", quoteaf (src_name));
  int dst_fd = open (dst_name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (dst_fd < 0)
    error (EXIT_FAILURE, errno, "%s", quoteaf (dst_name));
  struct stat src_st, dst_st;
  if (fstat (src_fd, &src_st) != 0 || fstat (dst_fd, &dst_st) != 0)
    error (EXIT_FAILURE, errno, "fstat");

  struct xfer_file src = { src_fd, src_name, &src_st };
  struct xfer_file dst = { dst_fd, dst_name, &dst_st };
  struct xfer_report report;
  bool ok = xfer_copy (&src, &dst, opts, &report);
  if (debug)
    xfer_print_debug (stdout, &report);
  if (close (dst_fd) != 0 || close (src_fd) != 0)
    error (EXIT_FAILURE, errno, "close");
  return ok;
}

int
main (int argc, char **argv)
{
  struct xfer_opts opts = { .reflink = XFER_REFLINK_AUTO };
  bool debug = false;
  int c;

  set_program_name (argv[0]);
  while ((c = getopt_long (argc, argv, "", long_opts, NULL)) != -1)
    switch (c)
      {
      case SPARSE_OPTION:
        opts.sparse = XARGMATCH ("--sparse", optarg,
                                 sparse_args, sparse_types);
        break;
      case REFLINK_OPTION:
        opts.reflink = XARGMATCH ("--reflink", optarg,
                                  reflink_args, reflink_types);
        break;
      case DEBUG_OPTION:
        debug = true;
        break;
      default:
        if (!xfer_cli_option (c, optarg, &opts))
          usage (EXIT_FAILURE);
      }
  int n = argc - optind;
  if (n == 0 || n % 2 != 0)
    usage (EXIT_FAILURE);

  char **sources = xnmalloc (n / 2, sizeof *sources);
  for (int i = 0; i < n / 2; i++)
    sources[i] = argv[optind + 2 * i];
  xfer_session_plan (&opts, sources, n / 2, NULL);

  bool ok = true;
  for (int i = optind; i < argc; i += 2)
    ok &= copy_one (argv[i], argv[i + 1], &opts, debug);
  xfer_session_end (&opts);
  free (sources);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
