/* copy.h -- cp's per-file policy.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_COPY_H
#define CPDD_COPY_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "backupfile.h"
#include "xfer.h"

/* Which symbolic links in a source are followed.  */
enum cp_dereference
{
  CP_DEREF_UNDEFINED,		/* not chosen yet; cp.c picks a default */
  CP_DEREF_NEVER,		/* -P: copy links as links */
  CP_DEREF_COMMAND_LINE,	/* -H: follow only the operands */
  CP_DEREF_ALWAYS		/* -L: follow every link */
};

/* What to do when the destination already exists, as -i and -n say;
   the last of them given counts.  */
enum cp_interactive
{
  CP_OVERWRITE,			/* replace it (the default) */
  CP_ASK,			/* -i: ask on stderr, answer on stdin */
  CP_NO_CLOBBER			/* -n: leave it alone, quietly */
};

/* Which existing destinations --update lets be replaced.  -n overrides
   it, as none, once the options are read; -i asks only about those it
   lets be replaced.  */
enum cp_update
{
  CP_UPDATE_ALL,		/* every one (the default) */
  CP_UPDATE_NONE,		/* none, quietly */
  CP_UPDATE_NONE_FAIL,		/* none, each one an error */
  CP_UPDATE_OLDER		/* -u: those older than their source */
};

/* Everything cp's command line decides about how each file is copied.  */
struct cp_options
{
  struct xfer_opts xfer;	/* how data moves */
  enum backup_type backup_type;	/* no_backups unless -b/--backup */
  enum cp_dereference dereference;
  enum cp_interactive interactive;
  enum cp_update update;

  bool recursive;		/* -R: descend into directories */
  bool copy_contents;		/* --copy-contents: read special files */
  bool one_file_system;		/* -x: don't descend into other mounts */
  bool hard_link;		/* -l: link instead of copying */
  bool symbolic_link;		/* -s: make symbolic links instead */
  bool force;			/* -f: unlink a destination we can't open */
  bool remove_destination;	/* unlink each destination first */
  bool attributes_only;		/* copy attributes, not data */
  bool keep_directory_symlink;	/* copy a directory to where a link in
                                   the destination leads */

  bool preserve_mode;
  bool explicit_no_preserve_mode; /* new files get default permissions */
  bool preserve_ownership;
  bool preserve_timestamps;
  bool preserve_links;		/* hard links among the sources */
  bool preserve_xattr;
  bool require_preserve;	/* failing to preserve is an error */
  bool require_preserve_xattr;	/* xattr failures are errors */
  bool quiet_xattr_failures;	/* -a: and otherwise not even told */
  bool owner_privileges;	/* chown failures are errors, not expected */

  /* --print-hash, --hash-file, --verify (cpdd): the algorithm each
     regular file's data is hashed with as it is copied, or -1; where
     the lines that check the copies go, or NULL; whether each copy is
     read back from storage and compared.  --fsync: whether what the
     copy writes is to be on storage when it ends (copy-sync.h).  */
  int hash_algo;
  bool print_hash;
  FILE *hash_out;
  struct copy_hashing *hashing;	/* what hashing keeps meanwhile: lines
                                   held for the end, copies to read back
                                   (copy-hash.c); NULL if nothing is
                                   hashed */
  /* --report, --failed (cpdd): where each file's copy is recorded as
     it ends, and counted for the line "N of M files were not copied"
     (copy-report.h); NULL if nowhere.  */
  struct copy_report *report;
  bool verify;
  bool verify_later;		/* small files' read-back waits for a batch */
  bool fsync;

  /* --atomic (cpdd): whether each regular file's data is written to a
     temporary file beside its destination, renamed over it when
     complete (copy-atomic.c).  */
  bool atomic;
  /* --resume: a regular file's existing destination is kept where it
     is complete and continued where it was cut short (copy-resume.c),
     not truncated.  */
  bool resume;

  bool verbose;			/* -v: name each copy */
  bool debug;			/* --debug: say how each file was copied */
  mode_t umask;			/* the process's umask, for new files */
  int jobs;			/* --jobs: files whose data is copied at once */
};

/* Set X->hash_out as X->print_hash asks: standard output, or the side
   file HASH_FILE if not NULL, checked against the N_BOUNDS sources and
   destinations of BOUNDS (side-file.h), then emptied; exit if it cannot
   be.  MERGES says whether trees may be copied one over another, so
   that a later copy of a name replaces an earlier one's data.  Set
   X->hashing for what --print-hash and --verify keep meanwhile, which
   copy_session_free ends.  */
struct side_bound;
void copy_hash_start (struct cp_options *x, char const *hash_file,
                      struct side_bound const *bounds, idx_t n_bounds,
                      bool merges);

/* On mpicp's ranks but the first: keep the lines of the copies made
   here, as X says, for the answers that go back to the ranks that gave
   the work, which copy_hash_take empties into *TEXT (*LEN bytes, to be
   freed).  copy_hash_put adds the LEN bytes at TEXT of such an answer
   to the lines kept here, or on the first rank prints them where X
   says.  */
void copy_hash_hold (struct cp_options *x);
void copy_hash_take (struct cp_options const *x, char **text, size_t *len);
void copy_hash_put (struct cp_options const *x, char const *text,
                    size_t len);

/* NAME (status ST) was made a further hard link to a copy; its line,
   with the copy's digest, is printed at the end (copy-hash.c).  */
void copy_hash_linked (char const *name, struct stat const *st,
                       struct cp_options const *x);

/* The file OLD (status ST), maybe a copy this command made, was renamed
   NEW, as a backup; a line held back for it names NEW.  */
void copy_hash_renamed (char const *old, struct stat const *st,
                        char const *new, struct cp_options const *x);

/* One copy session: what lives from the first operand's copy to the
   last one's (copy-impl.h).  */
struct copy_session;
struct copy_remote;

/* Start a session of copies as X says: with X->jobs workers if more
   than one, or handing files to the processes of REMOTE if not NULL
   (copy-remote.h).  */
struct copy_session *copy_session_new (struct cp_options const *x,
                                       struct copy_remote const *remote);

/* With --fsync, sync what S left for its end, now that no file of S
   is being written.  Return true, or false after a diagnostic.  */
bool copy_session_sync (struct copy_session *s, struct cp_options const *x);

/* With --fsync, sync the directory NAME, which the copy of session S
   changed outside its walk, or leave it to S's end.  Return true, or
   false after a diagnostic.  */
bool copy_session_sync_dir (struct copy_session *s, char const *name);

/* The copies of S are all made: stop its workers, read back what
   --verify left for later, and sync what --fsync has left for the end.
   Return false if a check or a sync failed, after a diagnostic.  */
bool copy_session_finish (struct copy_session *s, struct cp_options const *x);

/* End S: print the hash lines held back to the end, under the names
   their copies have now, and those of further hard links to copies;
   close HASH_FILE, if copy_hash_start opened it; free all S kept.
   Return false after a diagnostic if writing the lines failed.  */
bool copy_session_free (struct copy_session *s, struct cp_options *x,
                        char const *hash_file);

/* Copy the file SRC_NAME, named on the command line, to DST_NAME as
   part of session S, according to X, descending into directories if X
   says so.  Return true on success; otherwise print diagnostics and
   return false.  */
bool copy (struct copy_session *s, char const *src_name,
           char const *dst_name, struct cp_options const *x);

/* Likewise, but if DST_NEW, take DST_NAME not to exist without
   looking, as GNU cp does where --parents has just made directories:
   whatever is there all the same makes the copy fail, as where a file
   appears in a directory the copy made.  */
bool copy_to (struct copy_session *s, char const *src_name,
              char const *dst_name, bool dst_new,
              struct cp_options const *x);

/* Whether X has a directory copied into the directory that a symbolic
   link in the destination leads to (--keep-directory-symlink), rather
   than refused there: then the names of directories in the
   destination are followed through links.  */
bool follows_dest_dir_links (struct cp_options const *x);

#endif /* CPDD_COPY_H */
