/* fuzz-cp-args.c -- libFuzzer harness for cp's command line.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* cp's options, their arguments (--preserve and --no-preserve lists,
   --backup, --sparse, --reflink, and the engine's --buffer-size,
   --direct, --io-method, --progress, --stats) and the checks that
   combine them are all in cp.c's main.  This harness links cp.c with
   main renamed (-Dmain=cp_main) and runs it in-process (in-process.c)
   on arguments made from the input, one per line.

   The copying itself is not linked: copy () here only checks what
   the command line must have settled before any file is copied, so an
   input can never make the harness write a file.  Arguments with a
   slash are dropped besides, so that --parents makes no directory.  */

#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "copy-report.h"
#include "in-process.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);
int cp_main (int argc, char **argv);

enum { MAX_ARGS = 64 };

/* What cp.c promises copy () whatever the command line was: the
   combinations it rejects never get through, and every choice left
   open has been settled.  */
bool
copy (struct copy_session *s, char const *src_name, char const *dst_name,
      struct cp_options const *x)
{
  (void) s;
  if (!src_name || !dst_name)
    abort ();
  if (x->hard_link && x->symbolic_link)
    abort ();
  if (x->backup_type != no_backups && x->interactive == CP_NO_CLOBBER)
    abort ();
  if (x->xfer.reflink == XFER_REFLINK_ALWAYS
      && x->xfer.sparse != XFER_SPARSE_AUTO)
    abort ();
  if (x->dereference == CP_DEREF_UNDEFINED)
    abort ();
  if (x->xfer.buffer_size < 0)
    abort ();
  if ((x->verify || x->print_hash) && x->hash_algo < 0)
    abort ();
  return true;
}

/* --parents copies through copy_to, which checks the same.  */
bool
copy_to (struct copy_session *s, char const *src_name, char const *dst_name,
         bool dst_new, struct cp_options const *x)
{
  (void) dst_new;
  return copy (s, src_name, dst_name, x);
}

/* The hash lines' file is settled, with a source and a destination
   for each operand to check it against, but none is created: the
   harness makes no files.  */
void
copy_hash_start (struct cp_options *x, char const *hash_file,
                 struct side_bound const *bounds, idx_t n_bounds,
                 bool merges)
{
  (void) bounds;
  (void) merges;
  x->hash_out = x->print_hash ? stdout : NULL;
  x->hashing = NULL;
  if (hash_file && (!x->print_hash || n_bounds < 2 || n_bounds % 2))
    abort ();
}

/* The report's files are settled, checked like the hash lines' file,
   but none is created: the harness makes no files, and so nothing is
   recorded.  */
struct copy_report *
copy_report_open (char const *report_file, char const *failed_file,
                  struct side_bound const *bounds, idx_t n_bounds)
{
  (void) bounds;
  if ((report_file || failed_file) && (n_bounds < 2 || n_bounds % 2))
    abort ();
  return NULL;
}

/* Never called: the harness is cp, whose ranks hold no records for
   mpicp's rank 0.  */
struct copy_report *
copy_report_hold (bool lines, bool names)
{
  abort ();
}

/* Never called: copy_report_open made no report.  */
intmax_t
copy_report_files (struct copy_report const *report)
{
  abort ();
}

intmax_t
copy_report_failures (struct copy_report const *report)
{
  abort ();
}

bool
copy_report_close (struct copy_report *report)
{
  abort ();
}

/* --jobs has been settled to a count of workers.  The harness copies
   nothing, so it has no session to make: copy () is given NULL.  */
struct copy_session *
copy_session_new (struct cp_options const *x,
                  struct copy_remote const *remote)
{
  if (x->jobs < 1 || remote)
    abort ();
  return NULL;
}

/* Nothing was copied, so nothing waits for its read-back.  */
bool
copy_session_finish (struct copy_session *s, struct cp_options const *x)
{
  return true;
}

bool
copy_session_free (struct copy_session *s, struct cp_options *x,
                   char const *hash_file)
{
  return true;
}

/* --parents made no directory to sync: nothing was copied.  */
bool
copy_session_sync_dir (struct copy_session *s, char const *name)
{
  return true;
}

static _Bool
has_no_slash (char const *arg)
{
  return !strchr (arg, '/');
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  static char prog[] = "cp";
  char *argv[MAX_ARGS + 1] = { prog };
  char *text;
  int argc = fuzz_input_args (data, size, &text, argv, 1, MAX_ARGS,
                              has_no_slash);
  if (0 < argc)
    fuzz_run_main (cp_main, argc, argv);
  free (text);
  return 0;
}
