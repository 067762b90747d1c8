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

/* The command line: options into a struct cp_options, operands into
   (source, destination) pairs for copy().  Per-file policy is in
   copy.c.  */

#include <config.h>

#include <getopt.h>
#include <locale.h>

#include "system.h"
#include "argmatch.h"
#include "backupfile.h"
#include "closeout.h"
#include "copy.h"
#include "copy-attr.h"
#include "copy-report.h"
#include "dirname.h"
#include "cpus.h"
#include "filenamecat.h"
#include "remote.h"
#include "side-file.h"
#include "stat-macros.h"
#include "xstrtol.h"
#include "xfer-cli.h"
#include "xfer-hash.h"
#include "xfer-progress.h"

/* mpicp is compiled from this file too, with its own name defined on
   the command line, so that its --version and --help name it.  */
#ifndef PROGRAM_NAME
# define PROGRAM_NAME "cp"
#endif

/* Options with no short form.  */
enum
{
  AMBIGUOUS_OPTION = CHAR_MAX + 1,
  ATOMIC_OPTION,
  ATTRIBUTES_ONLY_OPTION,
  BACKUP_OPTION,
  CONTEXT_OPTION,
  COPY_CONTENTS_OPTION,
  DEBUG_OPTION,
  FAILED_OPTION,
  FSYNC_OPTION,
  HASH_FILE_OPTION,
  JOBS_OPTION,
  KEEP_DIRECTORY_SYMLINK_OPTION,
  NO_PRESERVE_OPTION,
  PARENTS_OPTION,
  PRESERVE_OPTION,
  PRINT_HASH_OPTION,
  REFLINK_OPTION,
  REMOVE_DESTINATION_OPTION,
  REPORT_OPTION,
  RESUME_OPTION,
  SPARSE_OPTION,
  STRIP_TRAILING_SLASHES_OPTION,
  UPDATE_OPTION,
  VERIFY_OPTION
};

static char const short_opts[] = "abdfHilLnprst:uvxPRS:TZ";

/* GNU cp 9.10's long options, in its order, which is the order its
   getopt lists the candidates of an ambiguous abbreviation in.
   "--path" is its old name for "--parents".  */
#define GNU_CP_LONG_OPTIONS \
  {"archive", no_argument, NULL, 'a'}, \
  {"attributes-only", no_argument, NULL, ATTRIBUTES_ONLY_OPTION}, \
  {"backup", optional_argument, NULL, BACKUP_OPTION}, \
  {"copy-contents", no_argument, NULL, COPY_CONTENTS_OPTION}, \
  {"debug", no_argument, NULL, DEBUG_OPTION}, \
  {"dereference", no_argument, NULL, 'L'}, \
  {"force", no_argument, NULL, 'f'}, \
  {"interactive", no_argument, NULL, 'i'}, \
  {"link", no_argument, NULL, 'l'}, \
  {"no-clobber", no_argument, NULL, 'n'}, \
  {"no-dereference", no_argument, NULL, 'P'}, \
  {"no-preserve", required_argument, NULL, NO_PRESERVE_OPTION}, \
  {"no-target-directory", no_argument, NULL, 'T'}, \
  {"one-file-system", no_argument, NULL, 'x'}, \
  {"parents", no_argument, NULL, PARENTS_OPTION}, \
  {"path", no_argument, NULL, PARENTS_OPTION}, \
  {"preserve", optional_argument, NULL, PRESERVE_OPTION}, \
  {"recursive", no_argument, NULL, 'R'}, \
  {"remove-destination", no_argument, NULL, REMOVE_DESTINATION_OPTION}, \
  {"sparse", required_argument, NULL, SPARSE_OPTION}, \
  {"reflink", optional_argument, NULL, REFLINK_OPTION}, \
  {"strip-trailing-slashes", no_argument, NULL, \
   STRIP_TRAILING_SLASHES_OPTION}, \
  {"suffix", required_argument, NULL, 'S'}, \
  {"symbolic-link", no_argument, NULL, 's'}, \
  {"target-directory", required_argument, NULL, 't'}, \
  {"update", optional_argument, NULL, UPDATE_OPTION}, \
  {"verbose", no_argument, NULL, 'v'}, \
  {"keep-directory-symlink", no_argument, NULL, \
   KEEP_DIRECTORY_SYMLINK_OPTION}, \
  {"context", optional_argument, NULL, CONTEXT_OPTION}, \
  {"help", no_argument, NULL, 'h'}, \
  {"version", no_argument, NULL, 'V'}

static struct option const gnu_long_opts[] =
{
  GNU_CP_LONG_OPTIONS,
  {NULL, 0, NULL, 0}
};

/* What getopt_long sees: GNU's options, then cpdd's own.  An empty
   name matches only an argument that starts with "--=", and only
   exactly, never as an abbreviation: resolve_long_options turns every
   ambiguous argument into such a one.  */
static struct option const long_opts[] =
{
  GNU_CP_LONG_OPTIONS,
  {"jobs", optional_argument, NULL, JOBS_OPTION},
  {"atomic", no_argument, NULL, ATOMIC_OPTION},
  {"fsync", no_argument, NULL, FSYNC_OPTION},
  {"hash-file", required_argument, NULL, HASH_FILE_OPTION},
  {"print-hash", optional_argument, NULL, PRINT_HASH_OPTION},
  {"resume", no_argument, NULL, RESUME_OPTION},
  {"verify", optional_argument, NULL, VERIFY_OPTION},
  {"report", required_argument, NULL, REPORT_OPTION},
  {"failed", required_argument, NULL, FAILED_OPTION},
  XFER_LONG_OPTIONS,
  {"", optional_argument, NULL, AMBIGUOUS_OPTION},
  {NULL, 0, NULL, 0}
};

/* Do options A and B do the same?  getopt does not call an
   abbreviation ambiguous between two such.  */
static bool
same_option (struct option const *a, struct option const *b)
{
  return (a->has_arg == b->has_arg && a->flag == b->flag
          && a->val == b->val);
}

/* The option of long_opts that the NAMELEN bytes of NAME name in full,
   or NULL.  The empty name that ends long_opts is no user's.  */
static struct option const *
exact_long_option (char const *name, size_t namelen)
{
  for (struct option const *p = long_opts; p->val != AMBIGUOUS_OPTION; p++)
    if (strlen (p->name) == namelen && memcmp (p->name, name, namelen) == 0)
      return p;
  return NULL;
}

/* What abbreviated_long_option returns for an ambiguous abbreviation.  */
static struct option const ambiguous_option;
#define AMBIGUOUS (&ambiguous_option)

/* The option of OPTS (ending with a null name) that the NAMELEN bytes
   of NAME abbreviate, as getopt_long decides: AMBIGUOUS if they
   abbreviate options that differ, NULL if none.  */
static struct option const *
abbreviated_long_option (char const *name, size_t namelen,
                         struct option const *opts)
{
  struct option const *found = NULL;
  for (struct option const *p = opts; p->name; p++)
    if (strncmp (p->name, name, namelen) == 0)
      {
        if (!found)
          found = p;
        else if (!same_option (found, p))
          return AMBIGUOUS;
      }
  return found;
}

/* Report ARG, an abbreviation ambiguous among GNU cp's options, as
   glibc's getopt_long words it, listing the options it fits.  */
static void
report_ambiguous (char const *argv0, char const *arg)
{
  char const *name = arg + 2;
  size_t namelen = strcspn (name, "=");
  struct option const *first = NULL;
  fprintf (stderr, _("%s: option '%s' is ambiguous; possibilities:"),
           argv0, arg);
  for (struct option const *p = gnu_long_opts; p->name; p++)
    if (strncmp (p->name, name, namelen) == 0)
      {
        if (!first)
          first = p;
        if (p == first || !same_option (first, p))
          fprintf (stderr, " '--%s'", p->name);
      }
  putc ('\n', stderr);
}

/* A new string: A, then B, then C.  */
static char *
concat3 (char const *a, char const *b, char const *c)
{
  size_t alen = strlen (a), blen = strlen (b), clen = strlen (c);
  char *r = xmalloc (alen + blen + clen + 1);
  memcpy (r, a, alen);
  memcpy (r + alen, b, blen);
  memcpy (r + alen + blen, c, clen + 1);
  return r;
}

/* The words resolve_long_options put in argv.  Per process, as argv
   is: they stay reachable until cp exits, however it exits; a program
   that runs cp's main again, as the fuzzing harness does, has those of
   the earlier run freed.  */
static struct
{
  char **v;
  idx_t n;
} spelled_out;

/* A new argv word: A, then B, then C.  */
static char *
spell_out (char const *a, char const *b, char const *c)
{
  spelled_out.v = xreallocarray (spelled_out.v, spelled_out.n + 1,
                                 sizeof *spelled_out.v);
  return spelled_out.v[spelled_out.n++] = concat3 (a, b, c);
}

/* Spell out each long option of ARGV in full, before getopt_long
   reads them, so that an abbreviation of one of GNU cp's options means
   what it means to GNU cp even where it also abbreviates an option of
   cpdd's, and turn an abbreviation that GNU cp finds ambiguous into
   "--=ARG" for AMBIGUOUS_OPTION, to be reported in its turn.  The
   walk follows getopt's: option arguments are skipped, "--" ends the
   options, and so does the first operand if POSIXLY_CORRECT is set.  */
static void
resolve_long_options (int argc, char **argv)
{
  bool in_order = getenv ("POSIXLY_CORRECT") != NULL;
  while (0 < spelled_out.n)
    free (spelled_out.v[--spelled_out.n]);
  for (int i = 1; i < argc; i++)
    {
      char const *arg = argv[i];
      bool takes_next = false;
      if (STREQ (arg, "--"))
        break;
      if (arg[0] != '-' || arg[1] == '\0')
        {
          if (in_order)
            break;
          continue;
        }
      if (arg[1] == '-')
        {
          char const *name = arg + 2;
          size_t namelen = strcspn (name, "=");
          struct option const *opt = exact_long_option (name, namelen);
          if (!opt)
            {
              opt = abbreviated_long_option (name, namelen, gnu_long_opts);
              if (opt == AMBIGUOUS)
                argv[i] = spell_out ("--=", arg, "");
              else if (!opt)
                opt = abbreviated_long_option (name, namelen, long_opts);
            }
          if (opt && opt != AMBIGUOUS)
            {
              if (opt->name[namelen] != '\0')
                argv[i] = spell_out ("--", opt->name, name + namelen);
              takes_next = (opt->has_arg == required_argument
                            && name[namelen] == '\0');
            }
        }
      else
        for (char const *p = arg + 1; *p; p++)
          {
            char const *o = *p == ':' ? NULL : strchr (short_opts, *p);
            if (o && o[1] == ':')
              {
                takes_next = p[1] == '\0';
                break;
              }
          }
      i += takes_next;
    }
}

/* The attributes --preserve and --no-preserve name.  */
enum preserved
{
  PRESERVE_MODE,
  PRESERVE_TIMESTAMPS,
  PRESERVE_OWNERSHIP,
  PRESERVE_LINKS,
  PRESERVE_CONTEXT,
  PRESERVE_XATTR,
  PRESERVE_ALL
};
static char const *const preserve_args[] =
{
  "mode", "timestamps", "ownership", "links", "context", "xattr", "all",
  NULL
};
static enum preserved const preserve_types[] =
{
  PRESERVE_MODE, PRESERVE_TIMESTAMPS, PRESERVE_OWNERSHIP, PRESERVE_LINKS,
  PRESERVE_CONTEXT, PRESERVE_XATTR, PRESERVE_ALL
};
ARGMATCH_VERIFY (preserve_args, preserve_types);

static char const *const sparse_args[] = { "never", "auto", "always", NULL };
static enum xfer_sparse const sparse_types[] =
{
  XFER_SPARSE_NEVER, XFER_SPARSE_AUTO, XFER_SPARSE_ALWAYS
};
ARGMATCH_VERIFY (sparse_args, sparse_types);

static char const *const update_args[] =
{
  "all", "none", "none-fail", "older", NULL
};
static enum cp_update const update_types[] =
{
  CP_UPDATE_ALL, CP_UPDATE_NONE, CP_UPDATE_NONE_FAIL, CP_UPDATE_OLDER
};
ARGMATCH_VERIFY (update_args, update_types);

/* The algorithm that OPTION's argument ARG names, among those this
   build has, as argmatch says of any other bad argument.  */
static int
hash_algo_arg (char const *option, char const *arg)
{
  char const *names[XFER_HASH_ALGOS + 1] = { NULL };
  int algos[XFER_HASH_ALGOS];
  for (int a = 0, n = 0; a < XFER_HASH_ALGOS; a++)
    if (xfer_hash_available (a))
      {
        names[n] = xfer_hash_name (a);
        algos[n++] = a;
      }
  return XARGMATCH (option, arg, names, algos);
}

/* The algorithm of --print-hash (PRINT_ALGO) and --verify
   (VERIFY_ALGO), either of which may be -1 (not given, or given
   without one): one hash serves both.  The lines of --print-hash and
   --hash-file are for sha256sum unless --print-hash names another
   algorithm, and --verify alone uses the fastest.  */
static int
settle_hash_algo (bool print, int print_algo, bool verify, int verify_algo)
{
  if (print && print_algo < 0)
    {
      print_algo = XFER_HASH_SHA256;
      if (0 <= verify_algo && verify_algo != print_algo)
        error (EXIT_FAILURE, 0,
               _("--verify=%s differs from sha256, the algorithm of the"
                 " lines; to use %s for both, give --print-hash=%s"),
               xfer_hash_name (verify_algo), xfer_hash_name (verify_algo),
               xfer_hash_name (verify_algo));
    }
  if (0 <= print_algo && 0 <= verify_algo && print_algo != verify_algo)
    error (EXIT_FAILURE, 0,
           _("--print-hash and --verify must use the same algorithm"));
  if (0 <= print_algo)
    return print_algo;
  if (0 <= verify_algo)
    return verify_algo;
  if (verify)
    return (xfer_hash_available (XFER_HASH_XXH128)
            ? XFER_HASH_XXH128 : XFER_HASH_SHA256);
  return -1;
}

static char const *const reflink_args[] = { "auto", "always", "never", NULL };
static enum xfer_reflink const reflink_types[] =
{
  XFER_REFLINK_AUTO, XFER_REFLINK_ALWAYS, XFER_REFLINK_NEVER
};
ARGMATCH_VERIFY (reflink_args, reflink_types);

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
Copy SOURCE to DEST, or each SOURCE into DIRECTORY.\n\
"), stdout);
      fputs (_("\
\n\
An argument that a long option requires, its short form requires too.\n\
"), stdout);
      fputs (_("\
  -a, --archive                like -dR --preserve=all\n\
      --attributes-only        copy only attributes, leaving data alone\n\
      --backup[=CONTROL]       back up each destination that exists\n\
  -b                           like --backup, taking no argument\n\
      --copy-contents          read special files as data when recursive\n\
  -d                           like --no-dereference --preserve=links\n\
      --debug                  explain how each file is copied, or why it\n\
                                 is skipped; implies -v\n\
  -f, --force                  replace a destination that cannot be opened\n\
                                 (ignored together with -n)\n\
  -i, --interactive            ask before overwriting (cancels an earlier\n\
                                 -n); a no is a failure; copies with one job\n\
  -H                           follow symbolic links named as SOURCE\n\
      --jobs[=N]               copy the data of N files at a time (default 1;\n\
                                 without N or with 'auto', one per usable CPU)\n\
  -L, --dereference            follow every symbolic link in SOURCE\n\
  -P, --no-dereference         keep every symbolic link in SOURCE a link\n\
"), stdout);
      fputs (_("\
      --keep-directory-symlink  where DEST has a symbolic link to a\n\
                                 directory, copy into that directory\n\
                                 (with --copy-contents only)\n\
  -l, --link                   give each SOURCE a new hard link, not a copy\n\
  -n, --no-clobber             (deprecated) skip each existing destination\n\
                                 quietly; cancels an earlier -i; see --update\n\
  -p                           like --preserve=mode,ownership,timestamps\n\
      --preserve[=ATTR_LIST]   keep these attributes where possible\n\
                                 (without a list: mode,ownership,timestamps;\n\
                                 also: context, links, xattr, all)\n\
      --no-preserve=ATTR_LIST  do not keep these attributes\n\
      --parents                recreate each SOURCE's name under DIRECTORY\n\
  -R, -r, --recursive          descend into directories, copying all below\n\
      --reflink[=WHEN]         share data blocks with the source; see below\n\
      --remove-destination     delete a DEST that exists first, whether or\n\
                                 not it can be opened (see --force)\n\
      --sparse=WHEN            how to make sparse files; see below\n\
      --strip-trailing-slashes  look up each SOURCE copied into a\n\
                                 DIRECTORY without its final slashes\n\
  -s, --symbolic-link          point a new symbolic link at each SOURCE\n\
                                 instead of copying it\n\
  -S, --suffix=SUFFIX          use SUFFIX for simple backups\n\
  -t, --target-directory=DIRECTORY  copy every SOURCE into DIRECTORY\n\
  -T, --no-target-directory    DEST is the copy's own name, even if it is a\n\
                                 directory\n\
      --update[=WHICH]         which destinations that exist to replace;\n\
                                 see below\n\
  -u                           like --update=older\n\
  -v, --verbose                name each file as it is copied\n\
  -x, --one-file-system        do not descend into other file systems\n\
  -Z                           give each copy the default SELinux context\n\
      --context[=CTX]          as -Z, or set the security context CTX\n\
"), stdout);
      xfer_cli_usage ();
      printf (_("\
\n\
Checking options (cpdd):\n\
      --atomic                 write each regular file's copy to a temporary\n\
                                 file beside it, synced (on a local file\n\
                                 system, many with one syncfs), then renamed\n\
                                 over DEST: readers see the old file or the\n\
                                 whole new one; replaces DEST (breaking its\n\
                                 hard links) as --remove-destination would; a\n\
                                 symbolic link DEST is refused, unless\n\
                                 --remove-destination is given too\n\
      --fsync                  make the copy durable: once cp succeeds, the\n\
                                 copies' data, attributes and names are on\n\
                                 storage and survive a power cut\n\
      --hash-file=FILE         write the --print-hash lines to FILE, which\n\
                                 may be no source or destination, nor in\n\
                                 a tree copied from or into\n\
      --print-hash[=ALGO]      print a line per regular file copied, with\n\
                                 the hash of its data, that 'sha256sum -c'\n\
                                 (or md5sum, xxhsum...) checks the copy\n\
                                 with; ALGO defaults to sha256\n\
      --resume                 finish an interrupted copy: keep each regular\n\
                                 file's copy that is complete, and continue\n\
                                 one cut short from its good part, even\n\
                                 with -u (alone, -u keeps it, as newer)\n\
      --verify[=ALGO]          hash each regular file's data as it is\n\
                                 copied, read the copy back from storage,\n\
                                 and fail if the hashes differ; ALGO\n\
                                 defaults to that of --print-hash, else\n\
                                 to %s\n\
  ALGO is one of this build's hashes:\n\
    %s\n\
"), (xfer_hash_available (XFER_HASH_XXH128) ? "xxh128" : "sha256"),
              xfer_hash_list ());
      fputs (_("\
\n\
Reporting options (cpdd):\n\
      --report=FILE            write to FILE (standard output if -) a line\n\
                                 of JSON for each file copied, skipped or\n\
                                 failed, and at the end one for the run\n\
      --failed=FILE            write to FILE the name of each source that\n\
                                 failed, each followed by a NUL, for\n\
                                 'xargs -0' or a later run to take\n\
  If any file failed, the last line on standard error says how many of the\n\
  files the run looked at were not copied, when standard error is a terminal\n\
  or --report, --failed, --progress or --stats is given.\n\
"), stdout);
      fputs (_("\
      --help        show this help, then exit\n\
      --version     show the version and license, then exit\n\
"), stdout);
      fputs (_("\
\n\
--sparse=auto (the default) makes DEST sparse where SOURCE has holes;\n\
--sparse=always also makes holes of long runs of zeros in SOURCE;\n\
--sparse=never writes every byte.\n\
\n\
--reflink or --reflink=always makes DEST share SOURCE's data blocks until\n\
either is changed, and fails where that is impossible; --reflink=auto\n\
falls back to an ordinary copy; --reflink=never always copies.\n\
"), stdout);
      fputs (_("\
\n\
--update=all, as without --update, replaces every destination that exists;\n\
--update=none keeps them all, and that is no failure; --update=none-fail\n\
keeps them all too, but reports each one and fails; --update=older, as\n\
--update and -u, replaces only those older than their SOURCE.  The last\n\
--update or -u given counts.  -n keeps every destination whatever --update\n\
says, and -i asks only about those that --update would replace.\n\
"), stdout);
      printf (_("\
\n\
Sending a USR1 signal to a running '%s' process makes it print the\n\
bytes copied so far, the time and the rate to standard error, and\n\
then continue copying.\n\
"), PROGRAM_NAME);
      fputs (_("\
\n\
Backups are named with the suffix '~' unless --suffix or\n\
SIMPLE_BACKUP_SUFFIX sets another.  --backup's CONTROL, or the\n\
VERSION_CONTROL environment variable, picks the kind of backup:\n\
\n\
  none, off       no backups at all (even with --backup)\n\
  numbered, t     always FILE.~N~, N counting up from 1\n\
  existing, nil   like numbered for a FILE with such backups, else simple\n\
  simple, never   always simple backups\n\
\n\
With --force and --backup, copying an existing regular file onto its\n\
own name makes a backup of it.\n\
"), stdout);
      emit_ancillary_info (PROGRAM_NAME);
    }
  exit (status);
}

/* Apply the comma-separated ATTR_LIST of --preserve (ON) or
   --no-preserve (!ON) to X.  Set *CONTEXT_NAMED if "context" is
   named explicitly.  */
static void
decode_preserve (char const *arg, bool on, struct cp_options *x,
                 bool *context_named)
{
  char *list = xstrdup (arg);
  char *next;
  for (char *item = list; item; item = next)
    {
      next = strchr (item, ',');
      if (next)
        *next++ = '\0';
      ptrdiff_t i = ARGMATCH (item, preserve_args, preserve_types);
      if (i < 0)
        {
          /* What XARGMATCH would do, but with the copy freed first.  */
          argmatch_invalid (on ? "--preserve" : "--no-preserve", item, i);
          ARGMATCH_VALID (preserve_args, preserve_types);
          free (list);
          usage (EXIT_FAILURE);
        }
      switch (preserve_types[i])
        {
        case PRESERVE_MODE:
          x->preserve_mode = on;
          x->explicit_no_preserve_mode = !on;
          break;
        case PRESERVE_TIMESTAMPS:
          x->preserve_timestamps = on;
          break;
        case PRESERVE_OWNERSHIP:
          x->preserve_ownership = on;
          break;
        case PRESERVE_LINKS:
          x->preserve_links = on;
          break;
        case PRESERVE_CONTEXT:
          *context_named = on;
          break;
        case PRESERVE_XATTR:
          x->preserve_xattr = on;
          x->require_preserve_xattr = on;
          break;
        case PRESERVE_ALL:
          x->preserve_mode = x->preserve_timestamps = on;
          x->preserve_ownership = x->preserve_links = on;
          x->preserve_xattr = on;
          x->explicit_no_preserve_mode = !on;
          if (!on)
            {
              x->require_preserve_xattr = false;
              *context_named = false;
            }
          break;
        }
    }
  free (list);
}

/* Is NAME an existing directory (following symlinks)?  */
static bool
is_directory (char const *name)
{
  struct stat st;
  return stat (name, &st) == 0 && S_ISDIR (st.st_mode);
}

/* A leading directory of a source copied with --parents, and its
   counterpart under the target directory, which is given attributes
   of the source directory once the copy below it is done.  */
struct parent
{
  char *src;
  char *dst;
  struct stat st;		/* SRC's status */
  bool restore;			/* set DST's mode to RESTORE_MODE */
  mode_t restore_mode;
  struct parent *next;
};

/* Forget the directories on PARENTS, without giving them attributes.  */
static void
forget_parents (struct parent *parents)
{
  while (parents)
    {
      struct parent *p = parents;
      parents = p->next;
      free (p->src);
      free (p->dst);
      free (p);
    }
}

/* Make the directory DST for the leading directory SRC of a source
   copied with --parents, unless it exists.  If DST is to get
   attributes later, push it on *PARENTS.  Set *NEW_DST to whether DST
   was made, as GNU cp does: the last directory made or found decides
   whether the copy takes its destination to be new.  */
static bool
make_parent (char const *src, char const *dst, struct parent **parents,
             bool *new_dst, struct cp_options const *x)
{
  /* As in GNU cp, the source is looked at first where its attributes
     are wanted: for a directory to make, or one to give the source's
     owner, permissions or times.  Otherwise a non-directory in the
     way is refused even where the source is missing.  */
  struct stat src_st, dst_st;
  bool missing = stat (dst, &dst_st) != 0;
  bool wanted = (missing || x->preserve_mode || x->preserve_ownership
                 || x->preserve_timestamps);
  if (wanted)
    {
      int err = (stat (src, &src_st) != 0 ? errno
                 : S_ISDIR (src_st.st_mode) ? 0 : ENOTDIR);
      if (err)
        {
          error (0, err, _("failed to get attributes of %s"), quoteaf (src));
          return false;
        }
    }

  bool restore = false;
  mode_t restore_mode = 0;
  if (!missing)
    {
      if (!S_ISDIR (dst_st.st_mode))
        {
          error (0, 0, _("%s exists but is not a directory"), quoteaf (dst));
          return false;
        }
      *new_dst = false;
    }
  else
    {
      *new_dst = true;
      /* The new directory gets the source's permissions less the
         umask, or the default permissions; while its owner or special
         permissions may still change, those of the group and others
         that could let them in early are left out (GNU's rule); and
         its owner must be able to make the copy inside it.  What it
         lacks is given back once the copy below it is done.  */
      mode_t src_mode = src_st.st_mode;
      mode_t omitted = src_mode & (x->preserve_ownership ? S_IRWXG | S_IRWXO
                                   : x->preserve_mode ? S_IWGRP | S_IWOTH
                                   : 0);
      mode_t mode = ((x->explicit_no_preserve_mode ? S_IRWXUGO : src_mode)
                     & CHMOD_MODE_BITS & ~omitted);
      if (mkdir (dst, mode) != 0)
        {
          error (0, errno, _("cannot make directory %s"), quoteaf (dst));
          return false;
        }
      if (x->verbose)
        printf ("%s -> %s\n", src, dst);
      if (lstat (dst, &dst_st) != 0)
        {
          error (0, errno, _("failed to get attributes of %s"),
                 quoteaf (dst));
          return false;
        }
      mode_t made = dst_st.st_mode;
      if (!x->preserve_mode)
        {
          if (omitted & ~made)
            omitted &= ~x->umask;
          if ((omitted & ~made) || (made & S_IRWXU) != S_IRWXU)
            {
              restore = true;
              restore_mode = (made | omitted) & CHMOD_MODE_BITS;
            }
        }
      if ((made | S_IRWXU) != made && chmod (dst, made | S_IRWXU) != 0)
        {
          error (0, errno, _("setting permissions for %s"), quoteaf (dst));
          return false;
        }
    }

  if (wanted)
    {
      struct parent *p = xmalloc (sizeof *p);
      *p = (struct parent) { xstrdup (src), xstrdup (dst), src_st,
                             restore, restore_mode, *parents };
      *parents = p;
    }
  return true;
}

/* Make the directories of DST that stand for the leading directories
   of SRC, where DST is a directory's name followed by SRC from DST_REL
   on, unless the last of them exists: then leave its parents alone,
   as GNU cp does.  Push the directories that are to get attributes
   later on *PARENTS, innermost first.  Update *NEW_DST as GNU cp
   does: left as it was for a SRC with no leading directory, or where
   a non-directory stands for the last of them; false where it exists;
   otherwise as the last one make_parent got to says.  */
static bool
make_parents (char *src, char *dst, size_t dst_rel, struct parent **parents,
              bool *new_dst, struct cp_options const *x)
{
  size_t dirlen = dir_len (dst);
  if (dirlen <= dst_rel)
    return true;

  char saved = dst[dirlen];
  dst[dirlen] = '\0';
  struct stat st;
  bool exists = stat (dst, &st) == 0;
  bool ok = !exists || S_ISDIR (st.st_mode);
  if (!ok)
    error (0, 0, _("%s exists but is not a directory"), quoteaf (dst));
  dst[dirlen] = saved;
  if (exists)
    {
      if (ok)
        *new_dst = false;
      return ok;
    }

  for (char *slash = strchr (src + strspn (src, "/"), '/'); slash;
       slash = strchr (slash + 1, '/'))
    {
      if (slash[-1] == '/')
        continue;
      char *dst_slash = dst + dst_rel + (slash - src);
      *slash = *dst_slash = '\0';
      bool made = make_parent (src, dst, parents, new_dst, x);
      *slash = *dst_slash = '/';
      if (!made)
        return false;
    }
  return true;
}

/* Give the directories on PARENTS, innermost first, the attributes of
   their sources that X preserves, except extended attributes, which
   GNU cp leaves to the files it copies, sync each as session S's
   --fsync asks, then forget them.  As in GNU cp, the first failure
   leaves the rest as they are.  */
static bool
finish_parents (struct copy_session *s, struct parent *parents,
                struct cp_options const *x)
{
  struct cp_options px = *x;
  px.preserve_xattr = px.require_preserve_xattr = false;
  bool ok = true;
  for (struct parent *p = parents; p && ok; p = p->next)
    {
      ok = copy_attributes (attr_operand (p->src, false), &p->st,
                            attr_operand (p->dst, false), &px);
      if (ok && p->restore && !x->preserve_mode
          && chmod (p->dst, p->restore_mode) != 0)
        {
          error (0, errno, _("failed to preserve permissions for %s"),
                 quoteaf (p->dst));
          ok = false;
        }
      if (ok)
        ok = copy_session_sync_dir (s, p->dst);
    }
  forget_parents (parents);
  return ok;
}

/* The name SRC's copy gets in the directory DIR: SRC's last component,
   or with PARENTS all of it, without trailing slashes.  */
static char *
dest_name (char const *dir, char const *src, bool parents)
{
  char *name = xstrdup (src);
  strip_trailing_slashes (name);
  char *dst = file_name_concat (dir, parents ? name : last_component (name),
                                NULL);
  free (name);
  return dst;
}

/* Copy SRC into directory DIR: under its last component, or with
   PARENTS under all of it.  Trailing slashes are in no destination
   name.  With PARENTS, *NEW_DST is whether GNU cp would take the
   destination to be new, which carries over from one source to the
   next as make_parents says: then the copy does not look for it, and
   anything there makes making it fail.  */
static bool
copy_into (struct copy_session *s, char const *dir, char const *src,
           bool parents, bool *new_dst, struct cp_options const *x)
{
  char *name = xstrdup (src);
  strip_trailing_slashes (name);
  char *dst = dest_name (dir, name, parents);
  bool ok;
  if (!parents)
    ok = copy (s, src, dst, x);
  else
    {
      /* As in GNU cp, the directories made or found for a source get
         their attributes after its copy, even a failed one, but none
         if they could not all be made.  */
      struct parent *made = NULL;
      ok = make_parents (name, dst, strlen (dst) - strlen (name), &made,
                         new_dst, x);
      if (ok)
        {
          ok = copy_to (s, src, dst, *new_dst, x);
          ok &= finish_parents (s, made, x);
          /* Where the outermost of them was made.  */
          if (ok && made)
            ok = copy_session_sync_dir (s, dir);
        }
      else
        forget_parents (made);
    }
  free (dst);
  free (name);
  return ok;
}

/* Where the operands go: each of the N names of FILES into the
   directory DIR, or if DIR is NULL, FILES[0] to FILES[1].  */
struct cp_operands
{
  char **files;
  int n;
  char const *dir;
};

/* Copy each of the operands of OPS into its directory, in session S.
   With STRIP, a name's trailing slashes are removed before it is
   looked up.  */
static bool
copy_into_directory (struct copy_session *s, struct cp_operands const *ops,
                     bool parents, bool strip, struct cp_options const *x)
{
  bool ok = true;
  bool new_dst = false;
  for (int i = 0; i < ops->n; i++)
    {
      if (strip)
        strip_trailing_slashes (ops->files[i]);
      ok &= copy_into (s, ops->dir, ops->files[i], parents, &new_dst, x);
    }
  return ok;
}

/* Copy SRC to DST, named as the only two operands, in session S.
   "cp --force --backup F F" is the one way to copy a regular file onto
   itself: the copy is made under the name its backup would get.  */
static bool
copy_pair (struct copy_session *s, char const *src, char const *dst,
           struct cp_options const *x)
{
  struct stat st;
  if (! (x->force && x->backup_type != no_backups && STREQ (src, dst)
         && stat (dst, &st) == 0 && S_ISREG (st.st_mode)))
    return copy (s, src, dst, x);

  char *backup = find_backup_file_name (AT_FDCWD, dst, x->backup_type);
  struct cp_options no_backup = *x;
  no_backup.backup_type = no_backups;
  bool ok = copy (s, src, backup, &no_backup);
  free (backup);
  return ok;
}

/* The target directory DIR that -t names, checked.  */
static char const *
checked_target_dir (char const *dir)
{
  struct stat st;
  if (stat (dir, &st) != 0)
    error (EXIT_FAILURE, errno, _("target directory %s"), quoteaf (dir));
  if (!S_ISDIR (st.st_mode))
    error (EXIT_FAILURE, ENOTDIR, _("target directory %s"), quoteaf (dir));
  return dir;
}

/* Decide where the N_FILES operands FILES go, as -t (TARGET_DIR), -T
   (NO_TARGET_DIR) and --parents (PARENTS) say; exit if they cannot
   be copied so.  */
static struct cp_operands
settle_operands (char **files, int n_files, char const *target_dir,
                 bool no_target_dir, bool parents)
{
  if (target_dir)
    return (struct cp_operands) { files, n_files,
                                  checked_target_dir (target_dir) };
  if (n_files == 1)
    {
      error (0, 0, _("missing destination file operand after %s"),
             quoteaf (files[0]));
      usage (EXIT_FAILURE);
    }
  char const *last = files[n_files - 1];
  if (no_target_dir && 2 < n_files)
    {
      error (0, 0, _("extra operand %s"), quoteaf (files[2]));
      usage (EXIT_FAILURE);
    }
  if (!no_target_dir && is_directory (last))
    return (struct cp_operands) { files, n_files - 1, last };
  if (2 < n_files)
    {
      struct stat st;
      if (stat (last, &st) != 0)
        error (EXIT_FAILURE, errno, _("target %s"), quoteaf (last));
      error (EXIT_FAILURE, ENOTDIR, _("target %s"), quoteaf (last));
    }
  if (parents)
    {
      error (0, 0, _("with --parents, the destination must be "
                     "a directory"));
      usage (EXIT_FAILURE);
    }
  return (struct cp_operands) { files, 2, NULL };
}

/* The sources of a copy and where they go, that a file cp writes
   beside the copy (--hash-file, --report, --failed) must not be nor be
   in: V, two for each of the N_SRCS operands, and the destinations'
   names they hold.  */
struct operand_bounds
{
  struct side_bound *v;
  char **names;
  int n_srcs;
};

/* Set *B to the bounds of the operands OPS, copied with PARENTS as X
   says.  */
static void
make_operand_bounds (struct operand_bounds *b, struct cp_operands const *ops,
                     bool parents, struct cp_options const *x)
{
  b->n_srcs = ops->dir ? ops->n : 1;
  b->v = xnmalloc (2 * b->n_srcs, sizeof *b->v);
  b->names = xnmalloc (b->n_srcs, sizeof *b->names);
  bool follow = x->dereference != CP_DEREF_NEVER;
  for (int i = 0; i < b->n_srcs; i++)
    {
      char const *src = ops->files[i];
      b->names[i] = (ops->dir ? dest_name (ops->dir, src, parents)
                     : xstrdup (ops->files[1]));
      b->v[2 * i] = (struct side_bound) { src, -1, SIDE_SOURCE, follow,
                                          x->recursive };
      b->v[2 * i + 1] = (struct side_bound) { b->names[i], -1, SIDE_DEST,
                                              true, true };
    }
}

static void
free_operand_bounds (struct operand_bounds *b)
{
  for (int i = 0; i < b->n_srcs; i++)
    free (b->names[i]);
  free (b->names);
  free (b->v);
}

/* Start the lines X->print_hash asks for, onto standard output or into
   the file HASH_FILE that --hash-file names, checked first against the
   sources and destinations of OPS (copied with PARENTS as X says).  */
static void
start_hash_file (char const *hash_file, struct cp_operands const *ops,
                 bool parents, struct cp_options *x)
{
  int n_srcs = ops->dir ? ops->n : 1;
  bool merges = x->recursive && 1 < n_srcs;
  if (!hash_file || !x->print_hash)
    {
      copy_hash_start (x, NULL, NULL, 0, merges);
      return;
    }
  struct operand_bounds b;
  make_operand_bounds (&b, ops, parents, x);
  copy_hash_start (x, hash_file, b.v, 2 * b.n_srcs, merges);
  free_operand_bounds (&b);
}

/* The number of jobs that --jobs=ARG asks for: ARG workers, or with
   no ARG or "auto", one per CPU this process may use.  */
static int
decode_jobs (char const *arg)
{
  if (!arg || STREQ (arg, "auto"))
    return usable_cpus ();
  uintmax_t n;
  if (xstrtoumax (arg, NULL, 10, &n, "") != LONGINT_OK
      || n == 0 || INT_MAX < n)
    error (EXIT_FAILURE, 0, _("invalid number of jobs: %s"), quote (arg));
  return n;
}

/* Choose the defaults that depend on several options.  */
static void
settle_options (struct cp_options *x, bool make_backups,
                char const *version_control)
{
  if (x->hard_link && x->symbolic_link)
    {
      error (0, 0, _("cannot make both hard and symbolic links"));
      usage (EXIT_FAILURE);
    }
  /* -n keeps every destination, quietly, whatever --update says.  */
  if (x->interactive == CP_NO_CLOBBER)
    x->update = CP_UPDATE_NONE;
  /* A destination that is never replaced is never backed up.  */
  if (make_backups
      && (x->update == CP_UPDATE_NONE || x->update == CP_UPDATE_NONE_FAIL))
    {
      error (0, 0, _("--backup is mutually exclusive with -n"
                     " or --update=none-fail"));
      usage (EXIT_FAILURE);
    }
  if (x->xfer.reflink == XFER_REFLINK_ALWAYS
      && x->xfer.sparse != XFER_SPARSE_AUTO)
    {
      error (0, 0, _("--reflink can be used only with --sparse=auto"));
      usage (EXIT_FAILURE);
    }

  x->backup_type = (make_backups
                    ? xget_version (_("backup type"), version_control)
                    : no_backups);

  /* Links are followed unless copying recursively, where they are
     copied as links; -l links to what they point to.  */
  if (x->dereference == CP_DEREF_UNDEFINED)
    x->dereference = (x->recursive && !x->hard_link
                      ? CP_DEREF_NEVER : CP_DEREF_ALWAYS);

  /* A prompt waits for its answer before anything else is copied.  */
  if (x->interactive == CP_ASK)
    x->jobs = 1;

  x->owner_privileges = geteuid () == 0;
  x->umask = umask (0);
  umask (x->umask);
}

/* What cp's command line says beyond how each file is copied.  */
struct cp_command
{
  struct cp_options x;		/* how each file is copied */
  char const *target_dir;	/* -t */
  bool no_target_dir;		/* -T */
  bool parents;			/* --parents */
  bool strip_slashes;		/* --strip-trailing-slashes */
  bool make_backups;		/* -b, --backup, -S */
  char const *version_control;	/* --backup's argument */
  char const *backup_suffix;	/* -S */
  bool context_named;		/* --preserve=context */
  int print_algo;		/* --print-hash's algorithm, or -1 */
  int verify_algo;		/* --verify's, or -1 */
  char const *hash_file;	/* --hash-file */
  char const *report_file;	/* --report */
  char const *failed_file;	/* --failed */
  bool count_asked;		/* --progress, --stats, --report or
                                   --failed: say how many files failed */
};

/* Take C, an option that says what is kept of each file and which
   files are read, with its argument ARG, into CMD; return false if C
   is no such option.  */
static bool
take_keep_option (int c, char const *arg, struct cp_command *cmd)
{
  struct cp_options *x = &cmd->x;
  switch (c)
    {
    case 'a':
      x->dereference = CP_DEREF_NEVER;
      x->recursive = true;
      x->preserve_links = x->preserve_mode = true;
      x->preserve_ownership = x->preserve_timestamps = true;
      x->preserve_xattr = true;
      x->quiet_xattr_failures = true;
      x->require_preserve = true;
      break;
    case ATTRIBUTES_ONLY_OPTION:
      x->attributes_only = true;
      break;
    case CONTEXT_OPTION:
      /* cpdd is built without SELinux: -Z means nothing, and a context
         to set is ignored with a warning.  */
      if (arg)
        error (0, 0,
               _("warning: ignoring --context; "
                 "it requires an SELinux-enabled kernel"));
      break;
    case 'Z':
      break;
    case COPY_CONTENTS_OPTION:
      x->copy_contents = true;
      break;
    case 'd':
      x->dereference = CP_DEREF_NEVER;
      x->preserve_links = true;
      break;
    case KEEP_DIRECTORY_SYMLINK_OPTION:
      x->keep_directory_symlink = true;
      break;
    case 'H':
      x->dereference = CP_DEREF_COMMAND_LINE;
      break;
    case 'L':
      x->dereference = CP_DEREF_ALWAYS;
      break;
    case 'P':
      x->dereference = CP_DEREF_NEVER;
      break;
    case 'p':
      x->preserve_mode = x->preserve_ownership = true;
      x->preserve_timestamps = true;
      x->require_preserve = true;
      break;
    case PRESERVE_OPTION:
      if (arg)
        decode_preserve (arg, true, x, &cmd->context_named);
      else
        x->preserve_mode = x->preserve_ownership = x->preserve_timestamps
          = true;
      x->require_preserve = true;
      break;
    case NO_PRESERVE_OPTION:
      decode_preserve (arg, false, x, &cmd->context_named);
      break;
    case 'r':
    case 'R':
      x->recursive = true;
      break;
    case 'x':
      x->one_file_system = true;
      break;
    default:
      return false;
    }
  return true;
}

/* Take C, an option that says how a copy is made and what becomes of
   a destination that exists, with its argument ARG, into CMD; return
   false if C is no such option.  */
static bool
take_make_option (int c, char const *arg, struct cp_command *cmd)
{
  struct cp_options *x = &cmd->x;
  switch (c)
    {
    case BACKUP_OPTION:
      cmd->make_backups = true;
      if (arg)
        cmd->version_control = arg;
      break;
    case 'b':
      cmd->make_backups = true;
      break;
    case 'S':
      cmd->make_backups = true;
      cmd->backup_suffix = arg;
      break;
    case 'f':
      x->force = true;
      break;
    case 'i':
      x->interactive = CP_ASK;
      break;
    case 'n':
      x->interactive = CP_NO_CLOBBER;
      break;
    case 'l':
      x->hard_link = true;
      break;
    case 's':
      x->symbolic_link = true;
      break;
    case REFLINK_OPTION:
      x->xfer.reflink = (arg
                         ? XARGMATCH ("--reflink", arg,
                                      reflink_args, reflink_types)
                         : XFER_REFLINK_ALWAYS);
      break;
    case REMOVE_DESTINATION_OPTION:
      x->remove_destination = true;
      break;
    case SPARSE_OPTION:
      x->xfer.sparse = XARGMATCH ("--sparse", arg, sparse_args, sparse_types);
      break;
    case UPDATE_OPTION:
      x->update = (arg
                   ? XARGMATCH ("--update", arg, update_args, update_types)
                   : CP_UPDATE_OLDER);
      break;
    case 'u':
      x->update = CP_UPDATE_OLDER;
      break;
    default:
      return false;
    }
  return true;
}

/* Take C, an option of cpdd's own or one that says where copies go and
   what is said of them, with its argument ARG, into CMD; return false
   if C is no such option.  */
static bool
take_run_option (int c, char const *arg, struct cp_command *cmd)
{
  struct cp_options *x = &cmd->x;
  switch (c)
    {
    case DEBUG_OPTION:
      x->debug = x->verbose = true;
      break;
    case 'v':
      x->verbose = true;
      break;
    case JOBS_OPTION:
      x->jobs = decode_jobs (arg);
      break;
    case FSYNC_OPTION:
      x->fsync = true;
      break;
    case ATOMIC_OPTION:
      x->atomic = true;
      break;
    case RESUME_OPTION:
      x->resume = true;
      break;
    case HASH_FILE_OPTION:
      cmd->hash_file = arg;
      x->print_hash = true;
      break;
    case PRINT_HASH_OPTION:
      x->print_hash = true;
      if (arg)
        cmd->print_algo = hash_algo_arg ("--print-hash", arg);
      break;
    case VERIFY_OPTION:
      x->verify = x->verify_later = true;
      if (arg)
        cmd->verify_algo = hash_algo_arg ("--verify", arg);
      break;
    case PARENTS_OPTION:
      cmd->parents = true;
      break;
    case STRIP_TRAILING_SLASHES_OPTION:
      cmd->strip_slashes = true;
      break;
    case 't':
      if (cmd->target_dir)
        error (EXIT_FAILURE, 0, _("multiple target directories specified"));
      cmd->target_dir = arg;
      break;
    case 'T':
      cmd->no_target_dir = true;
      break;
    default:
      return false;
    }
  return true;
}

/* Note in CMD that C, one of the engine's options, asks for the line
   that says how many files failed, if it is --progress or --stats;
   return true.  */
static bool
count_asked_by (int c, struct cp_command *cmd)
{
  if (c == XFER_OPT_PROGRESS || c == XFER_OPT_STATS)
    cmd->count_asked = true;
  return true;
}

/* Take C, an option that says where the outcome of each file is
   written, with its argument ARG, into CMD; return false if C is no
   such option.  */
static bool
take_report_option (int c, char const *arg, struct cp_command *cmd)
{
  switch (c)
    {
    case REPORT_OPTION:
      cmd->report_file = arg;
      break;
    case FAILED_OPTION:
      cmd->failed_file = arg;
      break;
    default:
      return false;
    }
  cmd->count_asked = true;
  return true;
}

/* Read the options of ARGV into CMD, leaving optind at the first
   operand; exit on a bad one, --help or --version.  */
static void
parse_options (int argc, char **argv, struct cp_command *cmd)
{
  int c;
  resolve_long_options (argc, argv);
  while ((c = getopt_long (argc, argv, short_opts, long_opts, NULL)) != -1)
    if (c == AMBIGUOUS_OPTION)
      {
        report_ambiguous (argv[0], optarg);
        usage (EXIT_FAILURE);
      }
    else if (c == 'h')
      usage (EXIT_SUCCESS);
    else if (c == 'V')
      {
        emit_version (PROGRAM_NAME);
        exit (EXIT_SUCCESS);
      }
    else if (! (take_keep_option (c, optarg, cmd)
                || take_make_option (c, optarg, cmd)
                || take_run_option (c, optarg, cmd)
                || take_report_option (c, optarg, cmd)
                || (xfer_cli_option (c, optarg, &cmd->x.xfer)
                    && count_asked_by (c, cmd))))
      usage (EXIT_FAILURE);
}

/* Settle what CMD's options say together, and check the N_FILES
   operands are enough; exit if they do not go together.  */
static void
settle_command (struct cp_command *cmd, int n_files)
{
  struct cp_options *x = &cmd->x;
  settle_options (x, cmd->make_backups, cmd->version_control);
  x->hash_algo = settle_hash_algo (x->print_hash, cmd->print_algo,
                                   x->verify, cmd->verify_algo);
  if (cmd->backup_suffix)
    set_simple_backup_suffix (cmd->backup_suffix);
  /* The read-back of --verify checks the temporary file, before it
     takes the destination's name: none is left for after the rename.  */
  if (x->atomic)
    x->verify_later = false;

  if (cmd->context_named)
    error (EXIT_FAILURE, 0,
           _("cannot preserve security context "
             "without an SELinux-enabled kernel"));

  if (n_files <= 0)
    {
      error (0, 0, _("missing file operand"));
      usage (EXIT_FAILURE);
    }

  /* As GNU cp, only now: the other option errors are reported first.  */
  if (cmd->target_dir && cmd->no_target_dir)
    error (EXIT_FAILURE, 0,
           _("cannot combine --target-directory (-t) "
             "and --no-target-directory (-T)"));
}

/* Whether this is mpicp, whose ranks but the first send their records
   to it, and all decide alike from the command line alone whether to
   record: the count is not printed for standard error being a
   terminal, which only some ranks may find.  */
static bool
is_mpicp (void)
{
  return STREQ (PROGRAM_NAME, "mpicp");
}

/* Before mpicp's ranks start their parts: have each hold the records
   CMD asks for, for rank 0.  */
static void
hold_mpicp_report (struct cp_command *cmd)
{
  if (is_mpicp () && cmd->count_asked)
    cmd->x.report = copy_report_hold (cmd->report_file != NULL,
                                      cmd->failed_file != NULL);
}

/* Start what CMD says of the outcome of each file: the files of
   --report and --failed, and the counts for the line that says how
   many failed, if it may be printed.  Only rank 0 of mpicp writes
   them, from the records the other ranks send it.  */
static void
start_report (struct cp_command *cmd, struct cp_operands const *ops)
{
  struct cp_options *x = &cmd->x;
  if (x->report)
    copy_report_close (x->report);
  x->report = NULL;
  if (! (cmd->count_asked || (!is_mpicp () && isatty (STDERR_FILENO))))
    return;
  struct operand_bounds b;
  make_operand_bounds (&b, ops, cmd->parents, x);
  x->report = copy_report_open (cmd->report_file, cmd->failed_file, b.v,
                                2 * b.n_srcs);
  free_operand_bounds (&b);
}

/* End the report CMD started, and if any file failed say how many of
   them were not copied.  Return false after a diagnostic if writing
   the report failed.  */
static bool
end_report (struct cp_command *cmd)
{
  struct copy_report *r = cmd->x.report;
  if (!r)
    return true;
  intmax_t failures = copy_report_failures (r);
  if (failures)
    error (0, 0, _("%jd of %jd files were not copied"), failures,
           copy_report_files (r));
  cmd->x.report = NULL;
  return copy_report_close (r);
}

/* How X copies the operands, for the count of the bytes to copy that
   gives the progress line its total.  */
static struct xfer_plan
progress_plan (struct cp_options const *x)
{
  return (struct xfer_plan) {
    .recursive = x->recursive,
    .follow_operands = x->dereference != CP_DEREF_NEVER,
    .follow_all = x->dereference == CP_DEREF_ALWAYS,
    .one_file_system = x->one_file_system,
    .links_once = x->preserve_links,
    /* Without -r, a special file is read like a regular one.  */
    .special_contents = x->copy_contents || !x->recursive,
    .no_data = x->hard_link || x->symbolic_link || x->attributes_only,
    .synced = x->fsync,
    .read_back = x->verify,
    .stdout_lines = (x->verbose || x->debug
                     || (x->print_hash && x->hash_out == stdout))
  };
}

/* Copy the N_FILES operands FILES as CMD says, each rank of mpicp its
   part; return whether all went well.  */
static bool
run_copy (struct cp_command *cmd, char **files, int n_files)
{
  struct cp_options *x = &cmd->x;
  /* The checks before look only at the command line, so every rank of
     mpicp has come this far or none; those below look at files.  */
  hold_mpicp_report (cmd);
  struct copy_remote const *remote = remote_start (x);
  struct cp_operands ops = settle_operands (files, n_files, cmd->target_dir,
                                            cmd->no_target_dir,
                                            cmd->parents);
  start_hash_file (cmd->hash_file, &ops, cmd->parents, x);
  start_report (cmd, &ops);
  xfer_session_info_signal (&x->xfer);
  struct copy_session *s = copy_session_new (x, remote);
  remote_session (s);
  if (1 < x->jobs)
    xfer_session_workers (&x->xfer, x->jobs);
  struct xfer_plan plan = progress_plan (x);
  xfer_session_plan (&x->xfer, files, n_files - !cmd->target_dir, &plan);

  bool ok = (ops.dir
             ? copy_into_directory (s, &ops, cmd->parents,
                                    cmd->strip_slashes, x)
             : copy_pair (s, ops.files[0], ops.files[1], x));

  ok &= copy_session_finish (s, x);
  remote_finish ();
  xfer_session_end (&x->xfer);
  ok &= copy_session_free (s, x, cmd->hash_file);
  ok &= end_report (cmd);
  return ok;
}

int
main (int argc, char **argv)
{
  struct cp_command cmd = { .x = { .jobs = 1,
                                   .xfer = { .sparse = XFER_SPARSE_AUTO,
                                             .reflink = XFER_REFLINK_AUTO } },
                            .print_algo = -1, .verify_algo = -1 };
  cpdd_set_program_name (argv[0]);
  setlocale (LC_ALL, "");
  atexit (close_stdout);
  remote_init (&argc, &argv);

  parse_options (argc, argv, &cmd);
  settle_command (&cmd, argc - optind);
  return (run_copy (&cmd, argv + optind, argc - optind)
          ? EXIT_SUCCESS : EXIT_FAILURE);
}
