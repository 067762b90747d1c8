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
   files; the engine moves the data and says what it did.  */

#ifndef CPDD_XFER_H
#define CPDD_XFER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gethrxtime.h"
#include "idx.h"
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
  XFER_SPARSE_NEVER,		/* write every byte */
  XFER_SPARSE_AUTO,		/* keep holes the source has */
  XFER_SPARSE_ALWAYS		/* also make holes of zero runs */
};

enum xfer_reflink
{
  XFER_REFLINK_NEVER,
  XFER_REFLINK_AUTO,
  XFER_REFLINK_ALWAYS
};

/* What the caller asks for.  Zero-initialised means: automatic method,
   automatic buffer size, no direct I/O, no sparse output, no reflink.  */
struct xfer_opts
{
  enum xfer_method method;
  idx_t buffer_size;		/* 0: choose from the files' block sizes */
  int direct;			/* XFER_DIRECT_* bits */
  enum xfer_sparse sparse;
  enum xfer_reflink reflink;
};

/* One end of a transfer: an open descriptor, its name for diagnostics,
   and its status as the caller last saw it.  */
struct xfer_file
{
  int fd;
  char const *name;
  struct stat const *st;
};

/* What a transfer actually did, for --debug, --stats and the tests.  */
struct xfer_report
{
  enum xfer_method method;	/* the method that moved the data */
  bool reflinked;		/* the destination shares the source's extents */
  bool holes;			/* holes were made in the destination */
  int direct;			/* XFER_DIRECT_* bits that took effect */
  idx_t buffer_size;		/* the buffer size used, 0 if none */
  intmax_t bytes;		/* bytes of data moved */
};

/* Copy SRC from its current offset to end of file into DST at its
   current offset.  On success return true; otherwise print a diagnostic
   naming the file at fault and return false.  Fill *REPORT either way.  */
bool xfer_copy (struct xfer_file const *src, struct xfer_file const *dst,
                struct xfer_opts const *opts, struct xfer_report *report);

/* Read up to SIZE bytes into BUF, retrying after EINTR.  Return the
   count, 0 at end of file, or -1 with errno set.  */
ssize_t xfer_read (int fd, void *buf, idx_t size);

/* Write all SIZE bytes of BUF, retrying after EINTR and short writes.
   Return the count written; less than SIZE means failure, with errno.  */
idx_t xfer_write (int fd, void const *buf, idx_t size);

/* Buffer sizes (xfer-size.c).  */

/* The smallest buffer the automatic choice makes.  */
enum { XFER_MIN_AUTO_BUFFER = 256 * 1024 };

/* Parse STR as a size in dd's syntax: a decimal number with an
   optional unit (c w b K KB KiB k kB M MB MiB ... Y, or a bare B for
   bytes), or two such numbers joined by 'x' to multiply them.  Store
   the value in *SIZE.  Return LONGINT_OK, or the xstrtol error that
   says why STR was refused (LONGINT_OVERFLOW: too large).  */
strtol_error xfer_parse_size (char const *str, uintmax_t *size);

/* The buffer size to use for copying SRC to DST when OPTS asks for an
   automatic choice: a multiple of both block sizes, at least
   XFER_MIN_AUTO_BUFFER.  */
idx_t xfer_auto_buffer_size (struct stat const *src, struct stat const *dst);

/* Allocate SIZE bytes aligned to ALIGNMENT (a power of two), which
   direct I/O needs; exit on allocation failure.  Free with
   xfer_buffer_free.  */
void *xfer_buffer_alloc (idx_t alignment, idx_t size);
void xfer_buffer_free (void *buf);

/* Statistics and reporting (xfer-stats.c).  */

/* Print dd's transfer line ("N bytes (X MB, Y MiB) copied, T s, R MB/s")
   for BYTES moved between START and NOW to STREAM, without a newline.
   PROGRESS rounds the seconds as dd's periodic progress line does.
   Return the number of bytes printed.  */
int xfer_print_transfer (FILE *stream, intmax_t bytes,
                         xtime_t start, xtime_t now, bool progress);

/* The name of METHOD, as --io-method spells it.  */
char const *xfer_method_name (enum xfer_method method);

#endif /* CPDD_XFER_H */
