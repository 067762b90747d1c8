/* xfer.h -- the transfer engine shared by cp and dd.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The engine decides how bytes move from one open file to another:
   which method (read/write loop, mmap windows, in-kernel offload), how
   big the buffer is, and whether direct I/O is used.  Callers (cp's
   per-file policy, dd's block loop) open, position and close the
   files; the engine moves the data and says what it did.  Inside, the
   engine is in layers that only call downward: I/O ends (xfer-io.h),
   methods and the chooser (xfer-impl.h); see doc/HACKING.  */

#ifndef CPDD_XFER_H
#define CPDD_XFER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gethrxtime.h"
#include "idx.h"
#include "system.h"
#include "xstrtol.h"

/* How data is moved.  AUTO lets the engine pick, per file.  */
enum xfer_method
{
  XFER_METHOD_AUTO,
  XFER_METHOD_READ,		/* read/write loop through one buffer */
  XFER_METHOD_MMAP,		/* map the input in windows, write from them */
  XFER_METHOD_OFFLOAD		/* copy_file_range, else sendfile */
};

/* Direct I/O, as a bit mask of the ends that use it.  */
enum
{
  XFER_DIRECT_IN = 1,
  XFER_DIRECT_OUT = 2,
  XFER_DIRECT_BOTH = XFER_DIRECT_IN | XFER_DIRECT_OUT
};

enum xfer_sparse
{
  XFER_SPARSE_NEVER,		/* write every byte, holes too: no clone,
                                   and no offload by choice, as either
                                   may leave holes */
  XFER_SPARSE_AUTO,		/* keep holes the source has */
  XFER_SPARSE_ALWAYS		/* also make holes of zero runs */
};

enum xfer_reflink
{
  XFER_REFLINK_NEVER,
  XFER_REFLINK_AUTO,
  XFER_REFLINK_ALWAYS
};

struct xfer_sink;

/* What the caller asks for.  Zero-initialised means: automatic method
   (which then reads), automatic buffer size, no direct I/O, no sparse
   output, no reflink, no progress line and no statistics.  GNU cp's defaults are
   XFER_SPARSE_AUTO and XFER_REFLINK_AUTO.  xfer_cli_option makes the
   session's sink for --progress and --stats; xfer_session_end ends
   it.  */
struct xfer_opts
{
  enum xfer_method method;
  idx_t buffer_size;		/* 0: choose from the files' block sizes */
  int direct;			/* XFER_DIRECT_* bits */
  bool uncached;		/* buffered, leaving the page cache as it was */
  enum xfer_sparse sparse;
  enum xfer_reflink reflink;
  struct xfer_sink *sink;	/* whole-command totals, or NULL */
};

/* One end of a transfer: an open descriptor, its name for diagnostics,
   its status as the caller last saw it, and whether the caller has
   just opened it, so that a regular file's offset is known to be 0
   without asking.  A source may be known to be a regular file whose
   data ends where that status says, on a file system whose sizes are
   true: its copy then stops there, and does not ask once more for
   data that is not there.  */
struct xfer_file
{
  int fd;
  char const *name;
  struct stat const *st;
  bool just_opened;
  bool size_true;
};

/* Whether a shortcut was taken, as --debug reports it.  */
enum xfer_attempt
{
  XFER_ATTEMPT_UNKNOWN,		/* never reached (e.g. an earlier failure) */
  XFER_ATTEMPT_YES,		/* it moved the data */
  XFER_ATTEMPT_UNSUPPORTED,	/* tried; the system refused */
  XFER_ATTEMPT_AVOIDED		/* not tried, by choice */
};

/* How holes were found.  */
enum
{
  XFER_DETECT_SEEK_HOLE = 1,	/* the source's extents (SEEK_DATA) */
  XFER_DETECT_ZEROS = 2,	/* runs of zero bytes */
  XFER_DETECT_UNKNOWN = 4	/* the data was never looked at: a clone
                                   shares it, or the clone --reflink=always
                                   asked for failed */
};

/* How reads and writes were kept in flight together (direct I/O).  */
enum xfer_queue
{
  XFER_QUEUE_NONE,		/* one transfer at a time */
  XFER_QUEUE_URING,		/* io_uring */
  XFER_QUEUE_THREAD		/* a reader thread and a ring of buffers */
};

/* How --uncached kept the data out of the page cache.  */
enum xfer_uncached
{
  XFER_UNCACHED_NO,
  XFER_UNCACHED_DONTCACHE,	/* the kernel dropped it (RWF_DONTCACHE) */
  XFER_UNCACHED_DROP		/* dropped behind the copy (posix_fadvise) */
};

/* Whether the data went past the hash xfer_copy_hashed was given.  */
enum xfer_hashed
{
  XFER_HASHED_NOT_ASKED,
  XFER_HASHED_PASSING,		/* every byte, as it was copied */
  XFER_HASHED_MISSED		/* the kernel moved some of it (a clone or
                                   an offload asked for): the caller
                                   reads the source to hash it */
};

/* How xfer_hash_back read a file.  */
enum xfer_readback
{
  XFER_READBACK_CACHE,		/* as the page cache has it */
  XFER_READBACK_DIRECT,		/* from storage, with direct I/O */
  XFER_READBACK_DROPPED,	/* from storage: synced, then dropped from
                                   the cache before reading */
  XFER_READBACK_LATER		/* left for later, with the other small
                                   files near it, after one sync of
                                   their file system (cp --verify) */
};

/* What a transfer actually did, for --debug, --stats and the tests.  */
struct xfer_report
{
  enum xfer_method method;	/* the method that moved the data */
  bool reflinked;		/* the destination shares the source's extents */
  bool holes;			/* holes were made in the destination */
  int direct;			/* XFER_DIRECT_* bits that took effect */
  idx_t buffer_size;		/* buffer or mmap window size, 0 if none */
  intmax_t bytes;		/* bytes of output produced, holes included */
  enum xfer_attempt offload;	/* copy_file_range (sendfile, where it
                                   is refused, shows in METHOD only) */
  enum xfer_attempt reflink;	/* FICLONE */
  int detection;		/* XFER_DETECT_* bits */
  enum xfer_queue queue;
  int inflight;			/* buffers in flight with a queue */
  enum xfer_uncached uncached;	/* the weakest way used on either end */
  intmax_t ranges;		/* ranges copied at once (cp --jobs), or 0 */
  enum xfer_hashed hashed;	/* whether xfer_copy_hashed saw the data */
  bool differs;			/* a range of it read back differently from
                                   what was copied (cp --verify, --jobs) */
  bool read_back;		/* the copy was read back (cp --verify)... */
  enum xfer_readback readback;	/* ...so */
};

/* Where xfer_copy reports as it goes, for whole-command progress and
   statistics (a session, xfer-progress.c, is one).  The engine calls
   these and knows nothing else of what is behind them.  */
struct xfer_sink
{
  /* A file's copy starts.  */
  void (*begin) (struct xfer_sink *sink);

  /* N more bytes of output were produced, holes included.  */
  void (*bytes) (struct xfer_sink *sink, off_t n);

  /* A file's copy ended as REPORT says; OK says whether it succeeded.  */
  void (*end) (struct xfer_sink *sink, struct xfer_report const *report,
               bool ok);
};

/* Copy SRC from its current offset to end of file into DST at its
   current offset.  On success return true; otherwise print a diagnostic
   naming the file at fault and return false.  Fill *REPORT either way.
   Holes (OPTS->sparse) are made by seeking, so the destination must
   read as zeros from its offset on, as a newly truncated file does.
   Direct I/O is switched on and off with fcntl on the descriptors
   themselves; they are left as they were given.  */
bool xfer_copy (struct xfer_file const *src, struct xfer_file const *dst,
                struct xfer_opts const *opts, struct xfer_report *report);

struct xfer_hash;

/* Like xfer_copy, and also add to HASH the data the destination gets,
   in order, holes as the zeros they read as.  The methods that pass
   the data through memory are preferred: an offload only where
   OPTS->method asks for it, and the direct I/O queue not at all, as
   it writes in no set order.  REPORT->hashed says whether HASH saw
   every byte.  */
bool xfer_copy_hashed (struct xfer_file const *src,
                       struct xfer_file const *dst,
                       struct xfer_opts const *opts,
                       struct xfer_report *report, struct xfer_hash *hash);


/* Hash the LEN bytes (all up to its end if LEN < 0) of the regular
   file FILE at START with ALGO into HEX (see xfer-hash.h), reading
   them through a descriptor of its own in pieces of about BUFSIZE
   bytes; bytes past its end count as zeros.  If FROM_STORAGE, read what
   storage holds rather than what the page cache does: with direct I/O
   where the file system allows it, else after syncing the file and
   dropping it from the cache.  Set *HOW to the way it was read.
   Return true, or false after a diagnostic.  */
bool xfer_hash_back (struct xfer_file const *file, bool from_storage,
                     off_t start, off_t len, idx_t bufsize, int algo,
                     char *hex, enum xfer_readback *how);

/* Check the LEN bytes (all up to the end if LEN < 0) at START of DST,
   which were just copied there from SRC as REPORT says, by reading
   them back from storage (cp --verify).  Their digest with ALGO is
   compared with WANT, the source's: HASH's, which saw the data as it
   was copied, unless REPORT says it missed some or HASH is NULL: then
   SRC is read again.  HASH is finished or discarded.  If they differ,
   say so and set REPORT->differs.  Note in REPORT how DST was read.
   Return false after a diagnostic if either could not be read.  */
bool xfer_verify_part (struct xfer_file const *src,
                       struct xfer_file const *dst, off_t start, off_t len,
                       int algo, struct xfer_hash *hash, char *want,
                       struct xfer_report *report);

/* A regular file's copy split into ranges that several threads copy
   at once (cp --jobs).  Each range is copied through descriptors of
   its own, opened anew on the file: direct I/O is a flag of an open
   file description, and so is the offset every method uses, so each
   range keeps its own and needs nothing from the others.  */
struct xfer_split
{
  struct xfer_file src, dst;	/* the file's own ends */
  struct xfer_opts opts;	/* the caller's, less the direct I/O an end
                                   cannot do (it warned once) */
  off_t chunk;			/* the length of every range but the last */
  int verify_algo;		/* hash each range as it is copied, read it
                                   back and compare (cp --verify), with
                                   this algorithm; -1: not */
  intmax_t ranges;		/* how many to copy; 0 if none is needed */
  atomic_intmax_t next;		/* the next range to take */

  pthread_mutex_t lock;		/* guards the members below */
  struct xfer_report report;	/* the ranges' reports together */
  off_t failed_at;		/* start of the first range that failed */
  bool ok;
  struct held_errors failure;	/* what that range said */
  struct held_errors warnings;	/* what the others said, once each */
};

/* How many ranges of CHUNK bytes a file of SIZE bytes is split into,
   the last one holding what is left.  */
intmax_t xfer_range_count (off_t size, off_t chunk);

/* The size of the ranges a file is split into: 64 MiB (see "cp jobs"
   in the manual), or CPDD_CHUNK_SIZE bytes from the environment, a
   knob for the tests only, so that they can split small files.  */
off_t xfer_chunk_size (void);

/* Whether CPDD_CHUNK_SIZE sets the size of the ranges: then every file
   that large is split, whatever the cache holds of it.  */
bool xfer_chunk_size_set (void);

/* Decide whether to split the copy of SRC to DST, both regular files
   just opened, into ranges of CHUNK bytes.  If not, return false
   having done nothing: the caller copies with xfer_copy.  Otherwise
   start S's transfer and return true; S->ranges says how many ranges
   are left to copy with xfer_copy_ranges (none after a clone, or after
   a diagnostic), and xfer_split_end ends it in any case.  */
bool xfer_split_start (struct xfer_split *s, struct xfer_file const *src,
                       struct xfer_file const *dst,
                       struct xfer_opts const *opts, off_t chunk);

/* Copy ranges of S one after another until none is left, in any
   thread; several threads may do so at once, and each range is copied
   once.  A range after one that failed is left out: a copy in one go
   would have stopped there.  Diagnostics are held for
   xfer_split_end.  */
void xfer_copy_ranges (struct xfer_split *s);

/* Copy range I of S in this thread, unless a range before it failed,
   where the caller gives out the ranges itself, one at a time, to
   this thread or to other processes.  */
void xfer_copy_one_range (struct xfer_split *s, intmax_t i);

/* On another process (mpicp's ranks) than the one whose
   xfer_split_start split the file: make S the split of SRC to DST,
   both just opened there too, into RANGES ranges of CHUNK bytes, with
   OPTS (the direct I/O that process kept), whose sink counts the
   bytes of the range copied here but not the file.  */
void xfer_split_join (struct xfer_split *s, struct xfer_file const *src,
                      struct xfer_file const *dst,
                      struct xfer_opts const *opts, off_t chunk,
                      intmax_t ranges);

/* Copy range I of S, joined with xfer_split_join, and no other, and
   end S.  Return whether it was copied; set *SAID to what was said,
   and *REPORT to what was done, for the other process's
   xfer_split_merge.  */
bool xfer_copy_range (struct xfer_split *s, intmax_t i,
                      struct held_errors *said, struct xfer_report *report);

/* Add to S the outcome of its range at START, copied (if OK) by
   another process as REPORT says, and SAID, what it held, which is
   emptied.  That process counted the range's bytes in its own sink.  */
void xfer_split_merge (struct xfer_split *s, off_t start, bool ok,
                       struct held_errors *said,
                       struct xfer_report const *report);

/* End S's transfer once all its ranges are copied.  If one failed,
   cut the destination back to where the first failed range starts,
   so that it is no longer than a copy in one go would have left it.
   Print the diagnostics of that range, and those of the others once
   each, as a copy in one go would have said them.  Return whether the whole file was copied; S->report says how.  */
bool xfer_split_end (struct xfer_split *s);

/* Print REPORT to STREAM as the line --debug shows after "'a' -> 'b'":
   "copy offload: yes, reflink: unsupported, sparse detection: no, ..."
   followed by cpdd's own fields and a newline.  */
void xfer_print_debug (FILE *stream, struct xfer_report const *report);

/* Plain I/O (xfer-io.c).  */

/* Read up to SIZE bytes into BUF, retrying after EINTR.  Return the
   count, 0 at end of file, or -1 with errno set.  */
ssize_t xfer_read (int fd, void *buf, idx_t size);

/* Write all SIZE bytes of BUF, retrying after EINTR and short writes.
   Return the count written; less than SIZE means failure, with errno.  */
idx_t xfer_write (int fd, void const *buf, idx_t size);

/* Whether the N bytes at P are all zero.  */
bool xfer_is_zero (char const *p, idx_t n);

/* Tell the kernel it may drop the LEN bytes at OFF of FD from the page
   cache; LEN 0 means all from OFF to the end of the file.  Return 0,
   or -1 with errno set.  */
int xfer_drop_cache (int fd, off_t off, off_t len);

/* How many of XFER_CACHE_SAMPLES pages spread evenly over the first
   SIZE bytes of the regular file FD the page cache holds, or -1 if
   that cannot be told here.  */
enum { XFER_CACHE_SAMPLES = 16 };
int xfer_cached_samples (int fd, off_t size);

/* Buffer sizes (xfer-size.c).  */

/* The automatic buffer size, for files larger than it.  */
enum { XFER_MIN_AUTO_BUFFER = 256 * 1024 };

/* Parse STR as a size in dd's syntax: a decimal number with an
   optional unit (c w b K KB KiB k kB M MB MiB ... Y R Q, or a bare B
   for bytes), or several such numbers joined by 'x' to multiply them.
   Store the value in *SIZE.  Return LONGINT_OK, or the xstrtol error
   that says why STR was refused (LONGINT_OVERFLOW: more than
   INTMAX_MAX).  */
strtol_error xfer_parse_size (char const *str, uintmax_t *size);

/* The window the mmap method maps when no buffer size is given.  */
enum { XFER_MMAP_WINDOW = 8 * 1024 * 1024 };

/* The automatic buffer with direct I/O or --uncached (see xfer.c).  */
enum { XFER_LARGE_BUFFER = 8 * 1024 * 1024 };

/* The buffer size to use for copying SRC to DST when OPTS asks for an
   automatic choice: a multiple of both block sizes, at least
   XFER_MIN_AUTO_BUFFER, but no more than a regular SRC needs to be
   read in one go and its end seen (its size plus one, rounded up).  */
idx_t xfer_auto_buffer_size (struct stat const *src, struct stat const *dst);

/* Allocate SIZE bytes aligned to ALIGNMENT (a power of two), which
   direct I/O needs, and if DIRECT, on huge pages where the system has
   them and SIZE spans one.  Return NULL if memory is exhausted.  Free
   with xfer_buffer_free.  */
void *xfer_buffer_alloc (idx_t alignment, idx_t size, bool direct);
void xfer_buffer_free (void *buf);

/* Statistics and reporting (xfer-stats.c).  */

/* Print dd's transfer line ("N bytes (X MB, Y MiB) copied, T s, R MB/s")
   for BYTES moved between START and NOW to STREAM, without a newline.
   PROGRESS rounds the seconds as dd's periodic progress line does.
   Return the number of bytes printed.  */
int xfer_print_transfer (FILE *stream, intmax_t bytes,
                         xtime_t start, xtime_t now, bool progress);

/* BYTES as dd writes a size ("38.2 MB"), in BUF, which has room for
   LONGEST_HUMAN_READABLE + 1 bytes.  */
char const *xfer_human_size (intmax_t bytes, char *buf);

/* The name of METHOD, as --io-method spells it.  */
char const *xfer_method_name (enum xfer_method method);

/* Windowed mmap input (xfer-window.c), for cp's mmap method and dd's
   iflag=mmap.  The reader maps the file in windows and survives the
   file shrinking under it: every access to the mapping it makes, or
   makes for the caller, turns the SIGBUS such an access raises into
   an "error reading" diagnostic.  The caller must therefore touch a
   window only through xfer_window_read, xfer_window_write,
   xfer_window_is_zero and xfer_window_hash.  */

struct xfer_window;
struct xfer_hash;

/* Start reading FD, whose name is NAME, from its current offset to its
   end, in windows of WINDOW bytes (rounded up to the page size; 0
   means 8 MiB).  Return NULL with errno set if FD cannot be mapped (not
   a regular file, or one the system cannot map); print nothing then,
   so the caller can fall back to read.  */
struct xfer_window *xfer_window_open (int fd, char const *name,
                                      idx_t window);

/* Map the next window.  Set *DATA to its start and return its length;
   return 0 at end of file, or -1 after printing a diagnostic.  A window
   stays valid until the next call or xfer_window_close.  */
ssize_t xfer_window_next (struct xfer_window *w, char const **data);

/* Copy up to SIZE bytes from the input to BUF, mapping windows as
   needed, as read would.  Return the count, 0 at end of file, or -1
   after printing a diagnostic.  */
ssize_t xfer_window_read (struct xfer_window *w, void *buf, idx_t size);

/* Write the SIZE bytes at DATA, which lie in the current window, to
   FD named NAME.  Return true, or false after printing a diagnostic
   ("error reading" if the input shrank, "error writing" otherwise).  */
bool xfer_window_write (struct xfer_window *w, char const *data, idx_t size,
                        int fd, char const *name);

/* What a look for zeros in a window found.  */
enum xfer_zeros
{
  XFER_ZEROS_UNREAD,		/* the input shrank: a diagnostic was printed */
  XFER_ZEROS_NO,		/* some byte is not zero */
  XFER_ZEROS_ALL
};

/* Whether the SIZE bytes at DATA, in the current window, are all
   zero.  */
enum xfer_zeros xfer_window_is_zero (struct xfer_window *w,
                                     char const *data, idx_t size);

/* Add the SIZE bytes at DATA, in the current window, to HASH.  Return
   true, or false after printing a diagnostic (the input shrank).  */
bool xfer_window_hash (struct xfer_window *w, char const *data, idx_t size,
                       struct xfer_hash *hash);

/* The window size in use.  */
idx_t xfer_window_size (struct xfer_window const *w);

/* Unmap, restore the SIGBUS action, and leave the file offset just past
   the data handed out.  Return false after printing a diagnostic.  */
bool xfer_window_close (struct xfer_window *w);

/* Whole-command progress and statistics (xfer-progress.c).  */

enum xfer_progress_when
{
  XFER_PROGRESS_NEVER,
  XFER_PROGRESS_AUTO,		/* when standard error is a terminal */
  XFER_PROGRESS_ALWAYS
};

enum xfer_stats_format
{
  XFER_STATS_NONE,
  XFER_STATS_HUMAN,
  XFER_STATS_JSON
};

/* Start a session in OPTS (if it has none) and make SIGUSR1 print the
   transfer line for it, unless SIGUSR1 is ignored.  */
void xfer_session_info_signal (struct xfer_opts *opts);

/* Start a session in OPTS (if it has none) and set how it reports;
   xfer_copy then adds each file to it.  */
void xfer_session_progress (struct xfer_opts *opts,
                            enum xfer_progress_when when);
void xfer_session_stats (struct xfer_opts *opts,
                         enum xfer_stats_format format);

/* Tell the session in OPTS, if any, that N workers copy files at
   once, for --stats to say so.  */
void xfer_session_workers (struct xfer_opts const *opts, int n);

/* Tell the session the N source operands in FILES, so a progress line
   can show a percentage and an estimated time left when all of them
   are regular files (their sizes add up to the total).  */
void xfer_session_plan (struct xfer_opts const *opts,
                        char *const *files, int n);

/* What a session counts: what one process of a command copied.  */
struct xfer_counts
{
  intmax_t bytes;		/* output produced, holes included */
  intmax_t files;		/* files copied whole and ended well */
  int methods;			/* 1 << each xfer_method that moved data */
  idx_t buffer_size;		/* the largest buffer used */
  int direct;			/* XFER_DIRECT_* bits that took effect */
  /* For a process sharing the work with others (mpicp's ranks): the
     nanoseconds it spent waiting for work or for answers, and how
     often its asking for work was answered with some.  */
  intmax_t waited_ns;
  intmax_t steals;
};

/* Count in C the file whose copy REPORT describes, which ended well.  */
void xfer_counts_file (struct xfer_counts *c,
                       struct xfer_report const *report);

/* Tell the session in OPTS, if any, that the other processes sharing
   the command's work (mpicp's ranks) have produced BYTES so far in
   all: the progress line and the line SIGUSR1 asks for add them to
   what the session counted itself.  Each call replaces the last.  */
void xfer_session_others (struct xfer_opts const *opts, intmax_t bytes);

/* Tell the session in OPTS, if any, what each of the N other
   processes that shared the command's work copied in the end, OTHERS
   [0] to [N - 1] (N may be 0): the statistics add them to what the
   session counted, and then show how the work was spread, the
   session's own as rank 0's and OTHERS[I] as rank I + 1's.  OTHERS
   must stay until xfer_session_end.  */
void xfer_session_ranks (struct xfer_opts const *opts,
                         struct xfer_counts const *others, int n);

/* Tell the session in OPTS, if any, how its own process shared the
   work: the WAITED_NS and STEALS of struct xfer_counts.  */
void xfer_session_share (struct xfer_opts const *opts, intmax_t waited_ns,
                         intmax_t steals);

/* End the session in OPTS, if any: clear the progress line and print
   the statistics to standard error.  */
void xfer_session_end (struct xfer_opts *opts);

#endif /* CPDD_XFER_H */
