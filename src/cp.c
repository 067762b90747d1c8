/* cp -- copy files and directories.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.  */

#include <config.h>

#include <getopt.h>
#include <locale.h>

#include "system.h"
#include "closeout.h"
#include "copy.h"
#include "dirname.h"
#include "filenamecat.h"
#include "xfer-cli.h"

#define PROGRAM_NAME "cp"

/* Options with no short form.  */
enum
{
  DEBUG_OPTION = CHAR_MAX + 1
};

static struct option const long_opts[] =
{
  {"debug", no_argument, NULL, DEBUG_OPTION},
  {"no-target-directory", no_argument, NULL, 'T'},
  {"target-directory", required_argument, NULL, 't'},
  {"verbose", no_argument, NULL, 'v'},
  XFER_LONG_OPTIONS,
  {"help", no_argument, NULL, 'h'},
  {"version", no_argument, NULL, 'V'},
  {NULL, 0, NULL, 0}
};

void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    emit_try_help ();
  else
    {
      printf (_("\
Usage: %s [OPTION]... [-T] SOURCE DEST\n\
  or:  %s [OPTION]... SOURCE... DIRECTORY\n\
  or:  %s [OPTION]... -t DIRECTORY SOURCE...\n\
"),
              program_name, program_name, program_name);
      fputs (_("\
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.\n\
"), stdout);
      fputs (_("\
\n\
Mandatory arguments to long options are mandatory for short options too.\n\
"), stdout);
      fputs (_("\
      --debug                  explain how a file is copied\n\
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n\
  -T, --no-target-directory    treat DEST as a normal file\n\
  -v, --verbose                explain what is being done\n\
"), stdout);
      xfer_cli_usage ();
      fputs (_("\
      --help        display this help and exit\n\
      --version     output version information and exit\n\
"), stdout);
      emit_ancillary_info (PROGRAM_NAME);
    }
  exit (status);
}

/* Is NAME an existing directory (following symlinks)?  */
static bool
is_directory (char const *name)
{
  struct stat st;
  return stat (name, &st) == 0 && S_ISDIR (st.st_mode);
}

/* Copy each of the N_FILES names in FILES into directory DIR.  */
static bool
copy_into_directory (char const *dir, char **files, int n_files,
                     struct cp_options const *x)
{
  bool ok = true;
  for (int i = 0; i < n_files; i++)
    {
      char *dst = file_name_concat (dir, last_component (files[i]), NULL);
      ok &= copy (files[i], dst, x);
      free (dst);
    }
  return ok;
}

int
main (int argc, char **argv)
{
  struct cp_options x = {0};
  char const *target_dir = NULL;
  bool no_target_dir = false;
  int c;

  set_program_name (argv[0]);
  setlocale (LC_ALL, "");
  atexit (close_stdout);

  while ((c = getopt_long (argc, argv, "t:Tv", long_opts, NULL)) != -1)
    switch (c)
      {
      case DEBUG_OPTION:
        x.debug = true;
        break;
      case 't':
        if (target_dir)
          error (EXIT_FAILURE, 0,
                 _("multiple target directories specified"));
        target_dir = optarg;
        break;
      case 'T':
        no_target_dir = true;
        break;
      case 'v':
        x.verbose = true;
        break;
      case 'h':
        usage (EXIT_SUCCESS);
      case 'V':
        emit_version (PROGRAM_NAME);
        exit (EXIT_SUCCESS);
      default:
        if (!xfer_cli_option (c, optarg, &x.xfer))
          usage (EXIT_FAILURE);
      }

  if (target_dir && no_target_dir)
    error (EXIT_FAILURE, 0,
           _("cannot combine --target-directory (-t) "
             "and --no-target-directory (-T)"));

  int n_files = argc - optind;
  char **files = argv + optind;

  if (n_files <= 0)
    {
      error (0, 0, _("missing file operand"));
      usage (EXIT_FAILURE);
    }

  if (target_dir)
    {
      struct stat st;
      if (stat (target_dir, &st) != 0)
        error (EXIT_FAILURE, errno, _("target directory %s"),
               quoteaf (target_dir));
      if (!S_ISDIR (st.st_mode))
        error (EXIT_FAILURE, ENOTDIR, _("target directory %s"),
               quoteaf (target_dir));
      return (copy_into_directory (target_dir, files, n_files, &x)
              ? EXIT_SUCCESS : EXIT_FAILURE);
    }

  if (n_files == 1)
    {
      error (0, 0, _("missing destination file operand after %s"),
             quoteaf (files[0]));
      usage (EXIT_FAILURE);
    }

  char const *last = files[n_files - 1];
  if (no_target_dir)
    {
      if (2 < n_files)
        {
          error (0, 0, _("extra operand %s"), quoteaf (files[2]));
          usage (EXIT_FAILURE);
        }
      return copy (files[0], last, &x) ? EXIT_SUCCESS : EXIT_FAILURE;
    }

  if (is_directory (last))
    return (copy_into_directory (last, files, n_files - 1, &x)
            ? EXIT_SUCCESS : EXIT_FAILURE);

  if (2 < n_files)
    {
      struct stat st;
      if (stat (last, &st) != 0)
        error (EXIT_FAILURE, errno, _("target %s"), quoteaf (last));
      error (EXIT_FAILURE, ENOTDIR, _("target %s"), quoteaf (last));
    }

  return copy (files[0], last, &x) ? EXIT_SUCCESS : EXIT_FAILURE;
}
