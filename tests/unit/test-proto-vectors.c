/* test-proto-vectors.c -- mpicp's messages against bytes on file.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The ranks of one mpicp job may differ in byte order and word size,
   so a round trip through one machine's packer and unpacker proves
   nothing about the wire.  This test holds one message of each kind,
   known field by field, and tests/unit/proto-vectors.txt the bytes
   they were packed into on x86-64.  On whatever CPU it runs (make
   check-cross runs it on s390x, big-endian, and on 32-bit ARM), it
   packs each message and compares the bytes with the file's, then
   unpacks the file's bytes and compares each field with the message.
   The values have a distinct byte in each place, so that a byte put
   in the wrong place shows, and fit the narrowest types of the
   supported targets (a 32-bit time_t, nlink_t and long).

   "test-proto-vectors --print" writes the file anew, for a change of
   the protocol, which the change's author then reviews.  */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "mpicp-proto.h"
#include "stat-time.h"
#include "timespec.h"
#include "unit.h"

/* A file's status with every field set apart.  */
static struct stat
sample_stat (unsigned int salt)
{
  struct stat st;
  memset (&st, 0, sizeof st);
  st.st_dev = 0x0102030405060708ull + salt;
  st.st_ino = 0x1112131415161718ull + salt;
  st.st_mode = 0100644 + salt;
  st.st_nlink = 0x21222324 + salt;
  st.st_uid = 0xf1f2f3f4u - salt;
  st.st_gid = 0x31323334 + salt;
  st.st_rdev = 0x4142434445464748ull + salt;
  st.st_size = 0x5152535455565758ll + salt;
  st.st_blksize = 0x10000 + salt;
  st.st_blocks = 0x6162636465666768ll + salt;
#ifdef HAVE_STRUCT_STAT_ST_ATIM_TV_NSEC
  st.st_atim = (struct timespec) { -2 - (int) salt, 999999999 };
  st.st_mtim = (struct timespec) { 0x71727374 + salt, 0x01020304 };
  st.st_ctim = (struct timespec) { 1700000000 + salt, 7 };
#else
  st.st_atime = -2 - (int) salt;
  st.st_mtime = 0x71727374 + salt;
  st.st_ctime = 1700000000 + salt;
#endif
  return st;
}

static struct remote_inode const sample_made[] =
  {
    { 0x8182838485868788ull, 0x9192939495969798ull },
    { 7, 0xa1a2a3a4a5a6a7a8ull }
  };

/* A task of KIND with all its fields set, the file names with bytes
   that are no ASCII among them.  */
static struct mpicp_task
sample_task (enum mpicp_kind kind)
{
  struct mpicp_task t;
  memset (&t, 0, sizeof t);
  t.kind = kind;
  t.answers_request = kind == MPICP_SUBTREE;
  t.slot = 0xb1b2b3b4;
  t.follow = true;
  t.src_st = sample_stat (0);
  t.side[0] = (struct mpicp_side) { 0xc1c2c3c4c5c6c7c8ull, 42, "src",
                                    "a/b\xff", 4, "src/a/b\xff/f", 9 };
  t.side[1] = (struct mpicp_side) { 3, 0xd1d2d3d4d5d6d7d8ull, "",
                                    "", 0, "dst", 0 };
  t.range = -1;
  if (kind == MPICP_RANGE)
    {
      t.range = 0x0e0f;
      t.ranges = 0x123456789abcll;
      t.chunk = -3;
      t.direct = -0x01020304;
    }
  if (kind != MPICP_FILE)
    t.dst_st = sample_stat (9);
  if (kind == MPICP_SUBTREE)
    {
      t.top_dev = 0xe1e2e3e4e5e6e7e8ull;
      t.made = sample_made;
      t.made_len = sizeof sample_made / sizeof *sample_made;
      t.top_src = "top src";
      t.top_dst = "top\ndst";
    }
  return t;
}

static struct xfer_report
sample_report (void)
{
  return (struct xfer_report)
    {
      .method = XFER_METHOD_MMAP, .reflinked = true, .holes = false,
      .direct = 0x7a7b7c7d, .buffer_size = 0x01020304,
      .bytes = 0x0f1e2d3c4b5a6978ll, .offload = XFER_ATTEMPT_UNSUPPORTED,
      .reflink = XFER_ATTEMPT_AVOIDED, .detection = -5,
      .queue = XFER_QUEUE_URING, .inflight = 0x11223344,
      .uncached = XFER_UNCACHED_DROP, .ranges = 0x55667788aabbll,
      .hashed = XFER_HASHED_MISSED, .differs = true, .read_back = true,
      .readback = XFER_READBACK_DROPPED
    };
}

static struct mpicp_answer const sample_answer =
  { 0x01020304, true, { 0 }, "cp: said\0 this", 14, "ab12  f\n", 8,
    "{\"r\":1}\n", 8 };

static struct mpicp_dir_answer const sample_dir_answer =
  { 0xfffffffe, false, "x", 1, "'a' -> 'b'\n", 11, "", 0, "rec\0", 4 };

static struct mpicp_link const sample_link =
  { 0x0807060504030201ull, 0x1817161514131211ull, true, "dst/l\xc3\xa9" };

static struct xfer_counts const sample_counts =
  { .bytes = 0x0102030405060708ll, .skipped = 0x1112131415161718ll,
    .files = 0x2122232425262728ll, .methods = 0x31323334,
    .buffer_size = 0x41424344, .direct = -0x51525354,
    .waited_ns = 0x6162636465666768ll, .steals = 0x7172737475767778ll,
    .left = 0x5152535455565758ll, .read_back = 0x0a0b0c0d0e0f1011ll };

/* Where the messages get compared: the fields that differed, by name.  */
static char const *vector;

static void
check (bool ok, char const *field)
{
  if (!ok)
    {
      fprintf (stderr, "FAIL: %s: %s differs\n", vector, field);
      failures++;
    }
}

#define CHECK_FIELD(a, b, field) check ((a)->field == (b)->field, #field)

static void
check_bytes (char const *a, size_t alen, char const *b, size_t blen,
             char const *field)
{
  check (alen == blen && memcmp (a, b, alen) == 0, field);
}

static void
check_string (char const *a, char const *b, char const *field)
{
  check_bytes (a, strlen (a), b, strlen (b), field);
}

static void
check_stat (struct stat const *a, struct stat const *b)
{
  CHECK_FIELD (a, b, st_dev);
  CHECK_FIELD (a, b, st_ino);
  CHECK_FIELD (a, b, st_mode);
  CHECK_FIELD (a, b, st_nlink);
  CHECK_FIELD (a, b, st_uid);
  CHECK_FIELD (a, b, st_gid);
  CHECK_FIELD (a, b, st_rdev);
  CHECK_FIELD (a, b, st_size);
  CHECK_FIELD (a, b, st_blksize);
  CHECK_FIELD (a, b, st_blocks);
  check (timespec_cmp (get_stat_atime (a), get_stat_atime (b)) == 0,
         "atime");
  check (timespec_cmp (get_stat_mtime (a), get_stat_mtime (b)) == 0,
         "mtime");
  check (timespec_cmp (get_stat_ctime (a), get_stat_ctime (b)) == 0,
         "ctime");
}

static void
check_side (struct mpicp_side const *a, struct mpicp_side const *b)
{
  CHECK_FIELD (a, b, dir_dev);
  CHECK_FIELD (a, b, dir_ino);
  check_string (a->root, b->root, "root");
  check_bytes (a->path, a->path_len, b->path, b->path_len, "path");
  check_string (a->name, b->name, "name");
  CHECK_FIELD (a, b, rel_at);
}

static void
check_task (struct mpicp_task const *a, struct mpicp_task const *b)
{
  CHECK_FIELD (a, b, kind);
  CHECK_FIELD (a, b, answers_request);
  CHECK_FIELD (a, b, slot);
  CHECK_FIELD (a, b, follow);
  check_stat (&a->src_st, &b->src_st);
  check_side (&a->side[0], &b->side[0]);
  check_side (&a->side[1], &b->side[1]);
  CHECK_FIELD (a, b, range);
  if (a->kind == MPICP_RANGE)
    {
      CHECK_FIELD (a, b, ranges);
      CHECK_FIELD (a, b, chunk);
      CHECK_FIELD (a, b, direct);
    }
  if (a->kind != MPICP_FILE)
    check_stat (&a->dst_st, &b->dst_st);
  if (a->kind == MPICP_SUBTREE)
    {
      CHECK_FIELD (a, b, top_dev);
      check_string (a->top_src, b->top_src, "top_src");
      check_string (a->top_dst, b->top_dst, "top_dst");
      check (a->made_len == b->made_len
             && memcmp (a->made, b->made, a->made_len * sizeof *a->made) == 0,
             "made");
    }
}

static void
check_report (struct xfer_report const *a, struct xfer_report const *b)
{
  CHECK_FIELD (a, b, method);
  CHECK_FIELD (a, b, reflinked);
  CHECK_FIELD (a, b, holes);
  CHECK_FIELD (a, b, direct);
  CHECK_FIELD (a, b, buffer_size);
  CHECK_FIELD (a, b, bytes);
  CHECK_FIELD (a, b, offload);
  CHECK_FIELD (a, b, reflink);
  CHECK_FIELD (a, b, detection);
  CHECK_FIELD (a, b, queue);
  CHECK_FIELD (a, b, inflight);
  CHECK_FIELD (a, b, uncached);
  CHECK_FIELD (a, b, ranges);
  CHECK_FIELD (a, b, hashed);
  CHECK_FIELD (a, b, differs);
  CHECK_FIELD (a, b, read_back);
  CHECK_FIELD (a, b, readback);
}

static void
check_counts (struct xfer_counts const *a, struct xfer_counts const *b)
{
  CHECK_FIELD (a, b, bytes);
  CHECK_FIELD (a, b, skipped);
  CHECK_FIELD (a, b, files);
  CHECK_FIELD (a, b, methods);
  CHECK_FIELD (a, b, buffer_size);
  CHECK_FIELD (a, b, direct);
  CHECK_FIELD (a, b, waited_ns);
  CHECK_FIELD (a, b, steals);
  CHECK_FIELD (a, b, left);
  CHECK_FIELD (a, b, read_back);
}

/* One vector: its name in the file, and how to pack the known message
   and to unpack bytes and compare them with it.  */
struct vector
{
  char const *name;
  char *(*pack) (size_t *size);
  bool (*unpack_check) (char const *buf, size_t size);
};

static char *
pack_task_kind (enum mpicp_kind kind, size_t *size)
{
  struct mpicp_task t = sample_task (kind);
  return mpicp_pack_task (&t, size);
}

static bool
unpack_task_kind (enum mpicp_kind kind, char const *buf, size_t size)
{
  struct mpicp_task want = sample_task (kind);
  struct mpicp_task got;
  bool ok = mpicp_unpack_task (buf, size, &got);
  if (ok)
    check_task (&want, &got);
  mpicp_task_free (&got);
  return ok;
}

static char *
pack_file (size_t *size)
{
  return pack_task_kind (MPICP_FILE, size);
}

static bool
unpack_file (char const *buf, size_t size)
{
  return unpack_task_kind (MPICP_FILE, buf, size);
}

static char *
pack_range (size_t *size)
{
  return pack_task_kind (MPICP_RANGE, size);
}

static bool
unpack_range (char const *buf, size_t size)
{
  return unpack_task_kind (MPICP_RANGE, buf, size);
}

static char *
pack_subtree (size_t *size)
{
  return pack_task_kind (MPICP_SUBTREE, size);
}

static bool
unpack_subtree (char const *buf, size_t size)
{
  return unpack_task_kind (MPICP_SUBTREE, buf, size);
}

static char *
pack_answer (size_t *size)
{
  struct mpicp_answer a = sample_answer;
  a.report = sample_report ();
  return mpicp_pack_answer (&a, size);
}

static bool
unpack_answer (char const *buf, size_t size)
{
  struct mpicp_answer got;
  if (!mpicp_unpack_answer (buf, size, &got))
    return false;
  struct xfer_report want_report = sample_report ();
  CHECK_FIELD (&sample_answer, &got, slot);
  CHECK_FIELD (&sample_answer, &got, ok);
  check_report (&want_report, &got.report);
  check_bytes (sample_answer.said, sample_answer.said_len,
               got.said, got.said_len, "said");
  check_bytes (sample_answer.hashes, sample_answer.hashes_len,
               got.hashes, got.hashes_len, "hashes");
  check_bytes (sample_answer.records, sample_answer.records_len,
               got.records, got.records_len, "records");
  return true;
}

static char *
pack_dir_answer (size_t *size)
{
  return mpicp_pack_dir_answer (&sample_dir_answer, size);
}

static bool
unpack_dir_answer (char const *buf, size_t size)
{
  struct mpicp_dir_answer got;
  if (!mpicp_unpack_dir_answer (buf, size, &got))
    return false;
  struct mpicp_dir_answer const *want = &sample_dir_answer;
  CHECK_FIELD (want, &got, slot);
  CHECK_FIELD (want, &got, ok);
  check_bytes (want->said, want->said_len, got.said, got.said_len, "said");
  check_bytes (want->out, want->out_len, got.out, got.out_len, "out");
  check_bytes (want->hashes, want->hashes_len, got.hashes, got.hashes_len,
               "hashes");
  check_bytes (want->records, want->records_len, got.records,
               got.records_len, "records");
  return true;
}

static char *
pack_link_ask (size_t *size)
{
  return mpicp_pack_link_ask (&sample_link, size);
}

static bool
unpack_link_ask (char const *buf, size_t size)
{
  struct mpicp_link got;
  if (!mpicp_unpack_link_ask (buf, size, &got))
    return false;
  CHECK_FIELD (&sample_link, &got, dev);
  CHECK_FIELD (&sample_link, &got, ino);
  check_string (sample_link.name, got.name, "name");
  free (got.name);
  return true;
}

static char *
pack_link_done (size_t *size)
{
  return mpicp_pack_link_done (&sample_link, size);
}

static bool
unpack_link_done (char const *buf, size_t size)
{
  struct mpicp_link got;
  if (!mpicp_unpack_link_done (buf, size, &got))
    return false;
  CHECK_FIELD (&sample_link, &got, dev);
  CHECK_FIELD (&sample_link, &got, ino);
  CHECK_FIELD (&sample_link, &got, ok);
  return true;
}

static char *
pack_link_reply (size_t *size)
{
  return mpicp_pack_link_reply ("../first copy", size);
}

static bool
unpack_link_reply (char const *buf, size_t size)
{
  char *target;
  if (!mpicp_unpack_link_reply (buf, size, &target))
    return false;
  check (target && strcmp (target, "../first copy") == 0, "target");
  free (target);
  return true;
}

static char *
pack_link_fresh (size_t *size)
{
  return mpicp_pack_link_reply (NULL, size);
}

static bool
unpack_link_fresh (char const *buf, size_t size)
{
  char *target;
  if (!mpicp_unpack_link_reply (buf, size, &target))
    return false;
  check (!target, "target");
  return true;
}

static char *
pack_counts (size_t *size)
{
  char *buf = malloc (MPICP_COUNTS_SIZE);
  if (!buf)
    abort ();
  mpicp_pack_counts (&sample_counts, buf);
  *size = MPICP_COUNTS_SIZE;
  return buf;
}

static bool
unpack_counts (char const *buf, size_t size)
{
  struct xfer_counts got;
  if (size != MPICP_COUNTS_SIZE || !mpicp_unpack_counts (buf, &got))
    return false;
  check_counts (&sample_counts, &got);
  return true;
}

static struct vector const vectors[] =
  {
    { "task-file", pack_file, unpack_file },
    { "task-range", pack_range, unpack_range },
    { "task-subtree", pack_subtree, unpack_subtree },
    { "answer", pack_answer, unpack_answer },
    { "dir-answer", pack_dir_answer, unpack_dir_answer },
    { "link-ask", pack_link_ask, unpack_link_ask },
    { "link-done", pack_link_done, unpack_link_done },
    { "link-reply", pack_link_reply, unpack_link_reply },
    { "link-reply-fresh", pack_link_fresh, unpack_link_fresh },
    { "counts", pack_counts, unpack_counts }
  };
enum { N_VECTORS = sizeof vectors / sizeof *vectors };

static void
print_hex (FILE *out, char const *buf, size_t size)
{
  for (size_t i = 0; i < size; i++)
    fprintf (out, "%02x", (unsigned char) buf[i]);
}

/* The bytes that HEX, a line of the file, spells, in *SIZE bytes of a
   new buffer, or NULL if it holds anything else.  */
static char *
from_hex (char const *hex, size_t *size)
{
  size_t len = strspn (hex, "0123456789abcdef");
  if (len % 2 != 0 || hex[len] != '\0')
    return NULL;
  char *buf = malloc (len / 2 + 1);
  if (!buf)
    abort ();
  for (size_t i = 0; i < len / 2; i++)
    {
      char byte[3] = { hex[2 * i], hex[2 * i + 1], '\0' };
      buf[i] = strtoul (byte, NULL, 16);
    }
  *size = len / 2;
  return buf;
}

static struct vector const *
vector_named (char const *name)
{
  for (int i = 0; i < N_VECTORS; i++)
    if (strcmp (vectors[i].name, name) == 0)
      return &vectors[i];
  return NULL;
}

/* Check the vector of the file's line NAME HEX both ways.  */
static void
check_vector (struct vector const *v, char const *hex)
{
  vector = v->name;
  size_t want_size;
  char *want = from_hex (hex, &want_size);
  if (!want)
    {
      check (false, "the file's line");
      return;
    }
  size_t size;
  char *packed = v->pack (&size);
  if (size != want_size || memcmp (packed, want, size) != 0)
    {
      fprintf (stderr, "FAIL: %s: packed here as\n", vector);
      print_hex (stderr, packed, size);
      fputs ("\n", stderr);
      failures++;
    }
  free (packed);
  check (v->unpack_check (want, want_size), "unpacking the file's bytes");
  free (want);
}

/* Check every vector of the file FILE_NAME, and that it has them all.  */
static void
check_file (char const *file_name)
{
  FILE *f = fopen (file_name, "r");
  if (!f)
    {
      perror (file_name);
      exit (EXIT_FAILURE);
    }
  bool seen[N_VECTORS] = { false };
  char line[8192];
  while (fgets (line, sizeof line, f))
    {
      line[strcspn (line, "\n")] = '\0';
      if (line[0] == '#' || line[0] == '\0')
        continue;
      char *hex = strchr (line, ' ');
      struct vector const *v = NULL;
      if (hex)
        {
          *hex++ = '\0';
          v = vector_named (line);
        }
      if (!v)
        {
          fprintf (stderr, "FAIL: %s: a line of no vector: %s\n",
                   file_name, line);
          failures++;
          continue;
        }
      seen[v - vectors] = true;
      check_vector (v, hex);
    }
  if (ferror (f) || fclose (f) != 0)
    {
      perror (file_name);
      exit (EXIT_FAILURE);
    }
  for (int i = 0; i < N_VECTORS; i++)
    if (!seen[i])
      {
        fprintf (stderr, "FAIL: %s: no vector %s\n", file_name,
                 vectors[i].name);
        failures++;
      }
}

static void
print_vectors (void)
{
  puts ("# mpicp's messages as packed on x86-64: NAME HEX, one a line.\n"
        "# Made by tests/unit/test-proto-vectors --print; see that file.");
  for (int i = 0; i < N_VECTORS; i++)
    {
      size_t size;
      char *buf = vectors[i].pack (&size);
      printf ("%s ", vectors[i].name);
      print_hex (stdout, buf, size);
      putchar ('\n');
      free (buf);
    }
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "--print") == 0)
    {
      print_vectors ();
      return fflush (stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
    }
  char const *srcdir = getenv ("srcdir");
  char *file_name = malloc (strlen (srcdir ? srcdir : ".") + 64);
  if (!file_name)
    abort ();
  sprintf (file_name, "%s/tests/unit/proto-vectors.txt",
           srcdir ? srcdir : ".");
  check_file (file_name);
  free (file_name);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
