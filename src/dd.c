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

/* The command line: operands into a struct dd_settings (dd-args.c),
   then one run of the copy on a struct dd (dd-impl.h says which file
   does what).  */

#include <config.h>

#include <getopt.h>
#include <locale.h>

#include "system.h"
#include "closeout.h"
#include "dd-impl.h"

#define PROGRAM_NAME "dd"

/* The paragraphs of --help: what dd does, and its operands.  */
static void
print_operands (void)
{
  fputs (_("\
Copy a file block by block, changing the data on the way if asked to.\n\
Input is standard input and output standard output unless operands\n\
name files.\n\
\n\
Operands (each written NAME=VALUE):\n\
  if=FILE         take the input from FILE\n\
  of=FILE         send the output to FILE\n\
  ibs=BYTES       the size of each read (512 if not given)\n\
  obs=BYTES       the size of each write (512 if not given)\n\
  bs=BYTES        one size for reads and writes, taking the place of ibs=\n\
                  and obs=; unless conv= changes the data, each block is\n\
                  written just as it was read\n\
  cbs=BYTES       the record length for block and unblock (and so for\n\
                  ascii, ebcdic and ibm); without it they do nothing\n\
  count=N         stop after copying N input blocks\n\
  skip=N          pass over the first N input blocks, of ibs= bytes each;\n\
                  iseek=N means the same\n\
  seek=N          start writing after the first N output blocks, of obs=\n\
                  bytes each; oseek=N means the same\n\
"), stdout);
  printf (_("\
  hash=ALGOS      hash the data as it is written with each algorithm of\n\
                  the comma separated list ALGOS; the digests follow the\n\
                  statistics, a line each, in the form 'sha256sum -c'\n\
                  checks (a cpdd extension).  This dd's algorithms:\n\
                    %s\n\
  hashlog=FILE    put those lines into FILE instead, with sha256 if no\n\
                  hash= is given; FILE may not be the input or output\n\
                  (a cpdd extension)\n\
"), xfer_hash_list ());
  fputs (_("\
  conv=CONVS      change the data; CONVS is a list of words, listed\n\
                  below, separated by commas\n\
  iflag=FLAGS     how to open and read the input; FLAGS is a list of words,\n\
                  listed below, separated by commas\n\
  oflag=FLAGS     the same for the output\n\
  status=LEVEL    what to print on standard error besides errors:\n\
                    none      nothing more: no statistics, and no\n\
                              warnings about the copy itself\n\
                    noxfer    the record counts, but no line of bytes and\n\
                              speed after them\n\
                    progress  also a running count of bytes, redrawn every\n\
                              second while copying\n\
                    json      the final figures as one JSON object (a cpdd\n\
                              extension)\n\
"), stdout);
}

/* The paragraphs of --help on numbers and on the words of conv=.  */
static void
print_conversions (void)
{
  fputs (_("\
\n\
A number (N or BYTES) may end in one of these multipliers: c (1), w (2),\n\
b (512), kB (1000), K or KiB (1024), MB (1000 x 1000), M, MiB or xM\n\
(1024 x 1024); G, T, P, E, Z, Y, R and Q go on in the same way, GB being\n\
1000 x 1000 x 1000 and G 1024 x 1024 x 1024.  Numbers joined by 'x' are\n\
multiplied: 2x3x4 is 24.  A 'B' anywhere in count=, skip= or seek=,\n\
even that of kB, makes it a number of bytes rather than of blocks.\n\
"), stdout);
  fputs (_("\
\n\
Words of conv=:\n\
  ascii      EBCDIC to ASCII; with cbs=, records become lines as by unblock\n\
  ebcdic     ASCII to EBCDIC; with cbs=, lines become records as by block\n\
  ibm        as ebcdic, but with POSIX's alternate EBCDIC table\n\
  block      make each line (up to a newline) into a cbs=-byte record,\n\
             filled out with spaces, and cut off if longer\n\
  unblock    make each cbs=-byte record into a line: drop its trailing\n\
             spaces and end it with a newline\n\
  lcase      turn capital letters into small ones\n\
  ucase      turn small letters into capital ones\n\
  sparse     leave a hole, by seeking, where an output block would be\n\
             all NUL bytes\n\
  swab       exchange the two bytes of every pair of input bytes\n\
  sync       fill up each short input block to ibs= bytes, with NUL\n\
             bytes, or with spaces when block or unblock is also given\n\
"), stdout);
  fputs (_("\
  excl       give up if the output file exists already\n\
  nocreat    give up if the output file does not exist\n\
  notrunc    keep what the output file holds beyond the bytes written\n\
  noerror    report errors reading the input, and go on copying\n\
  fdatasync  before ending, wait until the output's data is on disk\n\
  fsync      the same for the output's data and metadata\n\
"), stdout);
}

/* The paragraph of --help on the words of iflag= and oflag=.  */
static void
print_flags (void)
{
  fputs (_("\
\n\
Words of iflag= and oflag=:\n\
  append     add to the end of the file (meant for oflag; best with\n\
             conv=notrunc, or the output file is emptied first)\n\
  direct     move the data without the page cache (O_DIRECT)\n\
  directory  give up unless the file is a directory\n\
  dsync      let each write finish only once its data is on disk\n\
  sync       as dsync, for the metadata too\n\
  fullblock  read again until an input block is full, or the input ends\n\
             (iflag only)\n\
  mmap       map the input into memory in windows rather than read it\n\
             (iflag only; a cpdd extension)\n\
  nonblock   open and use the file without blocking (O_NONBLOCK)\n\
  noatime    leave the file's access time as it was\n\
  nocache    ask the kernel to forget the cached pages of what was\n\
             copied (with count=0, of the whole file); output pages\n\
             not yet on disk stay unless oflag=sync is also given\n\
  noctty     never make a terminal the controlling one\n\
  nofollow   give up if the file is a symbolic link\n\
  count_bytes  count= is in bytes (iflag; like a final 'B')\n\
  skip_bytes   skip= is in bytes (iflag; like a final 'B')\n\
  seek_bytes   seek= is in bytes (oflag; like a final 'B')\n\
"), stdout);
}

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
      print_operands ();
      print_conversions ();
      print_flags ();
      fputs (_("\
\n\
While it copies, dd answers a USR1 signal by printing its statistics so\n\
far on standard error; then it goes on.\n\
\n\
Options:\n\
      --help     print this text, then exit\n\
      --version  print the version, then exit\n\
"), stdout);
      emit_ancillary_info (PROGRAM_NAME);
    }
  exit (status);
}

static void
init_run (struct dd *d)
{
  struct dd_settings const *s = &d->s;
  bool whole = s->max_records == 0 && s->max_bytes == 0;

  d->page_size = getpagesize ();
  d->reported_w_bytes = -1;
  dd_translation_init (&d->tr, s->conv);
  d->rec = (struct dd_record_state) { .cbs = s->cbs,
                                      .newline = d->tr.newline,
                                      .space = d->tr.space };
  d->in_cache = (struct dd_nocache) { .on = !!(s->iextra & DD_FLAG_NOCACHE),
                                      .offset = -2 };
  d->out_cache = (struct dd_nocache) { .on = !!(s->oextra & DD_FLAG_NOCACHE),
                                       .offset = -2 };
  d->in_cache.to_eof = d->in_cache.on && whole;
  d->out_cache.to_eof = d->out_cache.on && whole;
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
  struct dd d = { 0 };
  int opt;

  cpdd_set_program_name (argv[0]);
  setlocale (LC_ALL, "");
  atexit (close_stdout);

  /* Only --help and --version are options, but as in any GNU program
     they count wherever they are, unless POSIXLY_CORRECT is set;
     getopt moves the operands after them.  */
  while ((opt = getopt_long (argc, argv, "", long_options, NULL)) != -1)
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

  dd_install_signal_handlers (&d);
  dd_parse_operands (argc, argv, optind, &d.s);
  init_run (&d);
  dd_open_input (&d);
  dd_check_hashlog (&d);
  dd_open_output (&d);
  dd_start_hashes (&d);

  d.start_time = gethrxtime ();
  d.next_time = d.start_time + XTIME_PRECISION;

  int status = dd_copy (&d);
  int sync_status = dd_sync_output (&d);
  if (sync_status != EXIT_SUCCESS)
    status = sync_status;
  if (dd_drop_caches_at_end (&d) != EXIT_SUCCESS)
    status = EXIT_FAILURE;
  status = dd_finish_up (&d, status);
  dd_free_buffers (&d);
  return status;
}
