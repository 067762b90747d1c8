/* range-split -- a file's copy split into ranges, and their outcomes
   merged back, at the edges: empty and small files, exact multiples of
   the range size, a short last range, sizes near the largest off_t,
   outcomes merged out of order and a range failing in the middle.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Usage: range-split
   Run in a scratch directory: it makes its files there.  Prints a line
   per failed check to standard output and exits 1 if any failed; the
   diagnostics the merged ranges held go to standard error, once each,
   for the calling test to compare.  */

#include <config.h>

#include <pthread.h>
#include <stdckdint.h>

#include "system.h"
#include "xfer-io.h"
#include "xfer-range.h"

static int failures;

static void
expect (bool ok, char const *what)
{
  if (!ok)
    {
      printf ("FAIL: %s\n", what);
      failures++;
    }
}

enum { CHUNK = 4096, MIB = 1024 * 1024, DEFAULT_CHUNK = 64 * MIB };

#define OFF_MAX TYPE_MAXIMUM (off_t)

/* Whether the last of the ranges of CHUNK bytes a file of SIZE bytes
   is split into starts inside the file, at an offset off_t holds.  */
static bool
last_range_inside (off_t size, off_t chunk)
{
  intmax_t n = xfer_range_count (size, chunk);
  off_t start;
  return 0 < n && !ckd_mul (&start, n - 1, chunk) && start < size
         && size - start <= chunk;
}

static void
range_counts (void)
{
  expect (xfer_range_count (0, CHUNK) == 0, "an empty file has no range");
  expect (xfer_range_count (1, CHUNK) == 1, "one byte is one range");
  expect (xfer_range_count (CHUNK - 1, CHUNK) == 1,
          "less than a range is one range");
  expect (xfer_range_count (CHUNK, CHUNK) == 1, "one range exactly");
  expect (xfer_range_count (3 * CHUNK, CHUNK) == 3,
          "an exact multiple has no short range");
  expect (xfer_range_count (3 * CHUNK + 1, CHUNK) == 4,
          "a byte more makes a short last range");
  expect (last_range_inside (3 * CHUNK + 1, CHUNK),
          "the short last range starts inside the file");

  off_t whole = OFF_MAX - OFF_MAX % MIB;
  expect (xfer_range_count (whole, MIB) == whole / MIB,
          "the largest multiple of a range below OFF_MAX");
  expect (xfer_range_count (OFF_MAX, MIB) == OFF_MAX / MIB + 1,
          "OFF_MAX bytes in ranges of 1 MiB");
  expect (last_range_inside (OFF_MAX, MIB),
          "the last range of OFF_MAX bytes starts inside it");
  expect (last_range_inside (OFF_MAX, DEFAULT_CHUNK),
          "the same with the default range size");
  expect (xfer_range_count (OFF_MAX, OFF_MAX) == 1,
          "a range of OFF_MAX bytes");
  expect (xfer_range_count (OFF_MAX - 1, OFF_MAX) == 1,
          "a file one byte short of a range of OFF_MAX bytes");
  expect (xfer_range_count (OFF_MAX, 1) == OFF_MAX,
          "OFF_MAX ranges of one byte");
}

/* The range size xfer_chunk_size gives with CPDD_CHUNK_SIZE=VALUE.  */
static off_t
chunk_from (char const *value)
{
  if (setenv ("CPDD_CHUNK_SIZE", value, 1) != 0)
    error (EXIT_FAILURE, errno, "setenv");
  return xfer_chunk_size ();
}

static void
chunk_sizes (void)
{
  if (unsetenv ("CPDD_CHUNK_SIZE") != 0)
    error (EXIT_FAILURE, errno, "unsetenv");
  expect (xfer_chunk_size () == DEFAULT_CHUNK, "64 MiB by default");
  expect (chunk_from ("1") == MIB, "rounded up to 1 MiB");
  expect (chunk_from ("1MiB") == MIB, "1 MiB kept");
  expect (chunk_from ("3MiB") == 3 * MIB, "a multiple of 1 MiB kept");
  expect (chunk_from ("1048577") == 2 * MIB, "a byte past 1 MiB is 2");
  expect (chunk_from ("0") == DEFAULT_CHUNK, "0 refused");
  expect (chunk_from ("-1") == DEFAULT_CHUNK, "a negative size refused");
  expect (chunk_from ("many") == DEFAULT_CHUNK, "a word refused");
  expect (chunk_from ("1Q") == DEFAULT_CHUNK, "an overflow refused");

  char buf[INT_BUFSIZE_BOUND (intmax_t)];
  sprintf (buf, "%jd", (intmax_t) (OFF_MAX - MIB));
  off_t largest = chunk_from (buf);
  expect (largest % MIB == 0 && OFF_MAX - MIB <= largest,
          "the largest accepted size rounds up within off_t");
  sprintf (buf, "%jd", (intmax_t) (OFF_MAX - MIB + 1));
  expect (chunk_from (buf) == DEFAULT_CHUNK,
          "a size that cannot be rounded up refused");
  if (unsetenv ("CPDD_CHUNK_SIZE") != 0)
    error (EXIT_FAILURE, errno, "unsetenv");
}

/* Make the file NAME, of SIZE bytes of a pattern, open for reading.  */
static int
make_source (char const *name, off_t size)
{
  int fd = open (name, O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    error (EXIT_FAILURE, errno, "%s", quoteaf (name));
  for (off_t i = 0; i < size; i++)
    {
      char c = i * 7 % 251 + 1;
      if (xfer_write (fd, &c, 1) != 1)
        error (EXIT_FAILURE, errno, "%s", quoteaf (name));
    }
  if (lseek (fd, 0, SEEK_SET) < 0)
    error (EXIT_FAILURE, errno, "%s", quoteaf (name));
  return fd;
}

/* Whether the files open as A and B hold the same SIZE bytes.  */
static bool
same_data (int a, int b, off_t size)
{
  static char x[CHUNK], y[CHUNK];
  for (off_t pos = 0; pos < size; pos += CHUNK)
    {
      idx_t n = MIN (size - pos, CHUNK);
      if (pread (a, x, n, pos) != n || pread (b, y, n, pos) != n
          || memcmp (x, y, n) != 0)
        return false;
    }
  return true;
}

static void *
copy_ranges (void *split)
{
  xfer_copy_ranges (split);
  return NULL;
}

/* Copy a file of SIZE bytes in ranges of CHUNK bytes with two threads
   and check that it is split into RANGES ranges (0: not split) and
   copied whole.  */
static void
split_copy (off_t size, intmax_t ranges, char const *what)
{
  int in = make_source ("src", size);
  int out = open ("dst", O_RDWR | O_CREAT | O_TRUNC, 0600);
  struct stat in_st, out_st;
  if (out < 0 || fstat (in, &in_st) != 0 || fstat (out, &out_st) != 0)
    error (EXIT_FAILURE, errno, "dst");

  struct xfer_file src = { in, "src", &in_st, true };
  struct xfer_file dst = { out, "dst", &out_st, true };
  struct xfer_opts opts = { .method = XFER_METHOD_READ,
                            .sparse = XFER_SPARSE_AUTO };
  struct xfer_split s;
  bool split = xfer_split_start (&s, &src, &dst, &opts, CHUNK);
  expect (split == (0 < ranges), what);
  if (split)
    {
      expect (s.ranges == ranges && s.report.ranges == ranges, what);
      pthread_t helper;
      bool two = pthread_create (&helper, NULL, copy_ranges, &s) == 0;
      xfer_copy_ranges (&s);
      if (two)
        pthread_join (helper, NULL);
      expect (xfer_split_end (&s), what);
      expect (s.report.bytes == size, what);
      struct stat st;
      expect (fstat (out, &st) == 0 && st.st_size == size
              && same_data (in, out, size), what);
    }
  if (close (in) != 0 || close (out) != 0)
    error (EXIT_FAILURE, errno, "close");
}

static void
split_copies (void)
{
  split_copy (0, 0, "an empty file is not split");
  split_copy (CHUNK - 1, 0, "a file smaller than a range is not split");
  split_copy (CHUNK, 1, "a file of one range");
  split_copy (3 * CHUNK, 3, "an exact multiple of the range size");
  split_copy (3 * CHUNK + 100, 4, "a short last range");
}

/* The outcome of range I of ten bytes, as another process sends it:
   OK, with REPORT, having said MSG (if not NULL).  */
static void
merge (struct xfer_split *s, intmax_t i, bool ok,
       struct xfer_report const *report, char const *msg)
{
  struct held_errors said = { NULL, 0 };
  if (msg)
    {
      struct error_hold_scope hold;
      error_hold_take (&hold, &said);
      error (0, 0, "%s", msg);
      error_hold_give_back (&hold);
    }
  xfer_split_merge (s, i * 10, ok, &said, report);
  expect (said.text == NULL && said.len == 0, "what was said is taken");
}

/* Make S the split, joined as by another process, of a file in five
   ranges of 10 bytes, into "merged", SIZE bytes long for now.  Return
   the destination's descriptor.  */
static int
join_five (struct xfer_split *s, off_t size)
{
  static struct stat st;
  int out = open ("merged", O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (out < 0 || ftruncate (out, size) != 0 || fstat (out, &st) != 0)
    error (EXIT_FAILURE, errno, "merged");
  struct xfer_file src = { -1, "in", &st, true };
  struct xfer_file dst = { out, "merged", &st, true };
  struct xfer_opts opts = { .method = XFER_METHOD_READ };
  xfer_split_join (s, &src, &dst, &opts, 10, 5);
  return out;
}

/* Close FD, the destination of a split, and return its size then.  */
static off_t
end_size (int fd)
{
  struct stat st;
  if (fstat (fd, &st) != 0 || close (fd) != 0)
    error (EXIT_FAILURE, errno, "merged");
  return st.st_size;
}

/* A file of five ranges of 10 bytes, whose outcomes come out of order,
   with the middle one failing, and a later one too.  */
static void
merge_outcomes (void)
{
  struct xfer_split s;
  int out = join_five (&s, 50);

  struct xfer_report read = { .method = XFER_METHOD_READ, .bytes = 10 };
  struct xfer_report mapped = { .method = XFER_METHOD_MMAP, .bytes = 10,
                                .buffer_size = 4096 };
  struct xfer_report direct = { .method = XFER_METHOD_READ, .bytes = 10,
                                .direct = XFER_DIRECT_OUT };
  struct xfer_report holes = { .method = XFER_METHOD_READ, .bytes = 10,
                               .holes = true,
                               .detection = XFER_DETECT_SEEK_HOLE };
  merge (&s, 4, true, &holes, "warning: the same");
  merge (&s, 3, false, &read, "range 3 failed");
  merge (&s, 0, true, &mapped, "warning: the same");
  merge (&s, 2, false, &direct, "range 2 failed");
  merge (&s, 1, true, &read, "warning: another");

  expect (!xfer_split_ok (&s), "a failed range fails the file");
  expect (xfer_split_failed_at (&s) == 20,
          "the first failed range counts");
  expect (s.report.bytes == 50, "all ranges' bytes add up");
  expect (s.report.method == XFER_METHOD_MMAP
          && s.report.buffer_size == 4096,
          "the first range's method stands for all, whenever it came");
  expect (s.report.direct == XFER_DIRECT_OUT, "direct I/O of any range");
  expect (s.report.holes && s.report.detection == XFER_DETECT_SEEK_HOLE,
          "holes of any range");

  expect (!xfer_split_end (&s), "the split ends as failed");
  expect (end_size (out) == 20,
          "cut back to where the first failed range starts");
}

/* The same ranges all copied, out of order: nothing is cut.  */
static void
merge_successes (void)
{
  struct xfer_split s;
  int out = join_five (&s, 45);

  struct xfer_report r = { .method = XFER_METHOD_OFFLOAD, .bytes = 10 };
  struct xfer_report last = { .method = XFER_METHOD_OFFLOAD, .bytes = 5 };
  merge (&s, 4, true, &last, NULL);
  for (intmax_t i = 3; 0 <= i; i--)
    merge (&s, i, true, &r, NULL);

  expect (xfer_split_ok (&s) && xfer_split_failed_at (&s) < 0,
          "all ranges copied");
  expect (s.report.bytes == 45, "a short last range adds its bytes");
  expect (xfer_split_end (&s), "the split ends well");
  expect (end_size (out) == 45, "nothing is cut");
}

int
main (int argc _GL_UNUSED, char **argv)
{
  set_program_name (argv[0]);
  range_counts ();
  chunk_sizes ();
  split_copies ();
  merge_outcomes ();
  merge_successes ();
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
