/* dd -- copy a file, converting and formatting according to operands.
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
#include "fcntl-safer.h"
#include "xfer.h"

#define PROGRAM_NAME "dd"

enum status_level
{
  STATUS_DEFAULT,
  STATUS_NONE,
  STATUS_NOXFER,
  STATUS_PROGRESS
};

/* Everything the operands decide.  */
struct dd_settings
{
  char const *input_file;	/* NULL: standard input */
  char const *output_file;	/* NULL: standard output */
  idx_t ibs, obs;
  bool bs_given;		/* bs= set both: no reblocking */
  intmax_t count;		/* input blocks to copy; -1: all */
  intmax_t skip;		/* input blocks to skip */
  intmax_t seek;		/* output blocks to seek over */
  enum status_level status;
};

/* What has been moved, for the final report.  */
struct dd_counts
{
  intmax_t r_full, r_partial;
  intmax_t w_full, w_partial;
  intmax_t w_bytes;
  xtime_t start;
};

void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    emit_try_help ();
  else
    {
      printf (_("\
Usage: %s [OPERAND]...\n\
  or:  %s OPTION\n\
"),
              program_name, program_name);
      fputs (_("\
Copy a file, converting and formatting according to the operands.\n\
\n\
  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);\n\
                  overrides ibs and obs\n\
  count=N         copy only N input blocks\n\
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)\n\
  if=FILE         read from FILE instead of stdin\n\
  obs=BYTES       write BYTES bytes at a time (default: 512)\n\
  of=FILE         write to FILE instead of stdout\n\
  seek=N          skip N obs-sized output blocks\n\
  skip=N          skip N ibs-sized input blocks\n\
  status=LEVEL    The LEVEL of information to print to stderr;\n\
                  'none' suppresses everything but error messages,\n\
                  'noxfer' suppresses the final transfer statistics,\n\
                  'progress' shows periodic transfer statistics\n\
"), stdout);
      fputs (_("\
\n\
N and BYTES may be followed by the following multiplicative suffixes:\n\
c=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,\n\
GB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y.\n\
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.\n\
If N ends in 'B', it counts bytes not blocks.\n\
"), stdout);
      fputs (_("\
      --help        display this help and exit\n\
      --version     output version information and exit\n\
"), stdout);
      emit_ancillary_info (PROGRAM_NAME);
    }
  exit (status);
}

static _Noreturn void
invalid_operand (char const *fmt, char const *arg)
{
  error (0, 0, fmt, quote (arg));
  usage (EXIT_FAILURE);
}

/* Parse the value of a numeric operand; exit with dd's message if it
   is malformed, too large, or below MIN.  */
static intmax_t
parse_number (char const *val, intmax_t min)
{
  uintmax_t n;
  strtol_error e = xfer_parse_size (val, &n);

  if (strncmp (val, "0x", 2) == 0)
    error (0, 0, _("warning: %s is a zero multiplier; "
                   "use %s if that is intended"),
           quote_n (0, "0x"), quote_n (1, "00x"));

  if (e == LONGINT_OVERFLOW || (e == LONGINT_OK && INTMAX_MAX < n))
    error (EXIT_FAILURE, EOVERFLOW, _("invalid number: %s"), quote (val));
  if (e != LONGINT_OK || n < min)
    error (EXIT_FAILURE, 0, _("invalid number: %s"), quote (val));
  return n;
}

static void
parse_operands (int argc, char **argv, struct dd_settings *s)
{
  *s = (struct dd_settings) { .ibs = 512, .obs = 512, .count = -1 };

  for (int i = optind; i < argc; i++)
    {
      char const *arg = argv[i];
      char const *eq = strchr (arg, '=');
      if (!eq)
        invalid_operand (_("unrecognized operand %s"), arg);
      char const *val = eq + 1;
      size_t namelen = eq - arg;
#define IS(name) (namelen == sizeof name - 1 && !strncmp (arg, name, namelen))

      if (IS ("if"))
        s->input_file = val;
      else if (IS ("of"))
        s->output_file = val;
      else if (IS ("status"))
        {
          if (STREQ (val, "none"))
            s->status = STATUS_NONE;
          else if (STREQ (val, "noxfer"))
            s->status = STATUS_NOXFER;
          else if (STREQ (val, "progress"))
            s->status = STATUS_PROGRESS;
          else
            invalid_operand (_("invalid status level: %s"), val);
        }
      else if (IS ("bs"))
        {
          s->ibs = s->obs = parse_number (val, 1);
          s->bs_given = true;
        }
      else if (IS ("ibs"))
        s->ibs = parse_number (val, 1);
      else if (IS ("obs"))
        s->obs = parse_number (val, 1);
      else if (IS ("count"))
        s->count = parse_number (val, 0);
      else if (IS ("skip"))
        s->skip = parse_number (val, 0);
      else if (IS ("seek"))
        s->seek = parse_number (val, 0);
      else
        invalid_operand (_("unrecognized operand %s"), arg);
#undef IS
    }

  if (s->bs_given)
    s->obs = s->ibs;
}

static void
print_stats (struct dd_settings const *s, struct dd_counts const *c)
{
  if (s->status == STATUS_NONE)
    return;
  fprintf (stderr, _("%jd+%jd records in\n%jd+%jd records out\n"),
           c->r_full, c->r_partial, c->w_full, c->w_partial);
  if (s->status == STATUS_NOXFER)
    return;
  xfer_print_transfer (stderr, c->w_bytes, c->start, gethrxtime (), false);
  fputc ('\n', stderr);
}

/* Write the SIZE bytes at BUF as one output block.  */
static bool
write_block (struct dd_settings const *s, struct dd_counts *c,
             char const *buf, idx_t size)
{
  idx_t n = xfer_write (STDOUT_FILENO, buf, size);
  c->w_bytes += n;
  if (n != size)
    {
      error (0, errno, _("error writing %s"),
             quoteaf (s->output_file ? s->output_file : _("standard output")));
      return false;
    }
  if (size == s->obs)
    c->w_full++;
  else
    c->w_partial++;
  return true;
}

/* Move to the SKIP'th block of size BLK of FD, by seeking or, where
   seeking is impossible, by reading.  Return false if the file ends
   before that point.  */
static bool
skip_input (int fd, char const *name, intmax_t skip, idx_t blk, char *buf)
{
  intmax_t bytes;
  if (INT_MULTIPLY_WRAPV (skip, blk, &bytes))
    bytes = INTMAX_MAX;
  struct stat st;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
      && lseek (fd, bytes, SEEK_CUR) >= 0)
    return bytes <= st.st_size;
  while (bytes > 0)
    {
      ssize_t n = xfer_read (fd, buf, MIN (bytes, blk));
      if (n < 0)
        error (EXIT_FAILURE, errno, _("error reading %s"), quoteaf (name));
      if (n == 0)
        return false;
      bytes -= n;
    }
  return true;
}

static void
open_files (struct dd_settings const *s)
{
  if (s->input_file)
    {
      int fd = open (s->input_file, O_RDONLY);
      if (fd < 0 || (fd != STDIN_FILENO
                     && (dup2 (fd, STDIN_FILENO) < 0 || close (fd) < 0)))
        error (EXIT_FAILURE, errno, _("failed to open %s"),
               quoteaf (s->input_file));
    }
  if (s->output_file)
    {
      int flags = O_WRONLY | O_CREAT | (s->seek ? 0 : O_TRUNC);
      int fd = open (s->output_file, flags, 0666);
      if (fd < 0 || (fd != STDOUT_FILENO
                     && (dup2 (fd, STDOUT_FILENO) < 0 || close (fd) < 0)))
        error (EXIT_FAILURE, errno, _("failed to open %s"),
               quoteaf (s->output_file));
    }
}

/* Seek past SEEK output blocks, truncating a regular file there as dd
   does unless the file already extends further.  */
static void
seek_output (struct dd_settings const *s)
{
  if (s->seek == 0)
    return;
  char const *name = s->output_file ? s->output_file : _("standard output");
  intmax_t off;
  if (INT_MULTIPLY_WRAPV (s->seek, s->obs, &off)
      || lseek (STDOUT_FILENO, off, SEEK_CUR) < 0)
    error (EXIT_FAILURE, errno, _("%s: cannot seek"), quotef (name));
  struct stat st;
  if (s->output_file && fstat (STDOUT_FILENO, &st) == 0
      && S_ISREG (st.st_mode) && ftruncate (STDOUT_FILENO, off) != 0)
    error (EXIT_FAILURE, errno, _("failed to truncate to %jd bytes"
                                  " in output file %s"),
           off, quoteaf (name));
}

/* Copy blocks, reblocking from ibs to obs unless bs= was given.  */
static bool
copy_blocks (struct dd_settings const *s, struct dd_counts *c)
{
  char const *in_name = s->input_file ? s->input_file : _("standard input");
  idx_t pagesize = getpagesize ();
  char *ibuf = xfer_buffer_alloc (pagesize, s->ibs);
  char *obuf = s->bs_given ? ibuf : xfer_buffer_alloc (pagesize, s->obs);
  idx_t opending = 0;
  bool ok = true;

  if (s->skip && !skip_input (STDIN_FILENO, in_name, s->skip, s->ibs, ibuf))
    error (0, 0, _("%s: cannot skip to specified offset"), quotef (in_name));
  seek_output (s);

  c->start = gethrxtime ();
  for (intmax_t blocks = 0; s->count < 0 || blocks < s->count; blocks++)
    {
      ssize_t n = xfer_read (STDIN_FILENO, ibuf, s->ibs);
      if (n < 0)
        {
          error (0, errno, _("error reading %s"), quoteaf (in_name));
          ok = false;
          break;
        }
      if (n == 0)
        break;
      if (n == s->ibs)
        c->r_full++;
      else
        c->r_partial++;

      if (s->bs_given)
        {
          if (! (ok = write_block (s, c, ibuf, n)))
            break;
          continue;
        }
      for (idx_t used = 0; used < n; )
        {
          idx_t take = MIN (n - used, s->obs - opending);
          memcpy (obuf + opending, ibuf + used, take);
          used += take;
          opending += take;
          if (opending == s->obs)
            {
              if (! (ok = write_block (s, c, obuf, opending)))
                break;
              opending = 0;
            }
        }
      if (!ok)
        break;
    }

  if (ok && opending)
    ok = write_block (s, c, obuf, opending);

  if (obuf != ibuf)
    xfer_buffer_free (obuf);
  xfer_buffer_free (ibuf);
  return ok;
}

static struct option const long_options[] =
{
  {"help", no_argument, NULL, 'h'},
  {"version", no_argument, NULL, 'v'},
  {NULL, 0, NULL, 0}
};

int
main (int argc, char **argv)
{
  struct dd_settings s;
  struct dd_counts c = {0};
  int opt;

  set_program_name (argv[0]);
  setlocale (LC_ALL, "");
  atexit (close_stdout);

  /* Only --help and --version are options; anything else, even if it
     starts with '-', is left for the operand parser to refuse.  */
  while ((opt = getopt_long (argc, argv, "+", long_options, NULL)) != -1)
    switch (opt)
      {
      case 'h':
        usage (EXIT_SUCCESS);
      case 'v':
        emit_version (PROGRAM_NAME);
        exit (EXIT_SUCCESS);
      default:
        usage (EXIT_FAILURE);
      }

  parse_operands (argc, argv, &s);
  open_files (&s);
  bool ok = copy_blocks (&s, &c);
  print_stats (&s, &c);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
