/* proto-roundtrip.c -- pack and unpack each of mpicp's messages.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Every kind of message goes through mpicp-proto.c's packing and back
   with ordinary and extreme values, and must come back field by field
   as it went; every message cut short, or grown by a byte, must be
   refused; and a few bytes of the wire are checked as written, so that
   the byte order is the one documented whatever the host's.  Exits 0
   if all is well, else 1 after saying what differed.  No MPI.  */

#include <config.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "intprops.h"
#include "mpicp-proto.h"
#include "stat-time.h"
#include "timespec.h"

static int failures;

static void
fail (char const *what, char const *field)
{
  fprintf (stderr, "proto-roundtrip: %s: %s differs\n", what, field);
  failures++;
}

#define SAME(what, a, b, field) \
  do { if ((a)->field != (b)->field) fail (what, #field); } while (0)

static void
same_bytes (char const *what, char const *field, char const *a, size_t alen,
            char const *b, size_t blen)
{
  if (alen != blen || (alen && memcmp (a, b, alen) != 0))
    fail (what, field);
}

static void
same_string (char const *what, char const *field, char const *a,
             char const *b)
{
  same_bytes (what, field, a, strlen (a), b, strlen (b));
}

static void
same_stat (char const *what, struct stat const *a, struct stat const *b)
{
  SAME (what, a, b, st_dev);
  SAME (what, a, b, st_ino);
  SAME (what, a, b, st_mode);
  SAME (what, a, b, st_nlink);
  SAME (what, a, b, st_uid);
  SAME (what, a, b, st_gid);
  SAME (what, a, b, st_rdev);
  SAME (what, a, b, st_size);
  SAME (what, a, b, st_blksize);
  SAME (what, a, b, st_blocks);
  if (timespec_cmp (get_stat_atime (a), get_stat_atime (b)) != 0)
    fail (what, "atime");
  if (timespec_cmp (get_stat_mtime (a), get_stat_mtime (b)) != 0)
    fail (what, "mtime");
  if (timespec_cmp (get_stat_ctime (a), get_stat_ctime (b)) != 0)
    fail (what, "ctime");
}

/* Set ST's times to A, M and C, as far as struct stat holds them.  */
static void
set_times (struct stat *st, struct timespec a, struct timespec m,
           struct timespec c)
{
#ifdef HAVE_STRUCT_STAT_ST_ATIM_TV_NSEC
  st->st_atim = a;
  st->st_mtim = m;
  st->st_ctim = c;
#else
  st->st_atime = a.tv_sec;
  st->st_mtime = m.tv_sec;
  st->st_ctime = c.tv_sec;
#endif
}

/* Whether unpacking refuses every proper prefix of the SIZE bytes at
   BUF, and BUF with one byte more, with UNPACK.  */
static void
refuses_others (char const *what, char const *buf, size_t size,
                bool (*unpack) (char const *, size_t, void *))
{
  char *longer = malloc (size + 1);
  if (!longer)
    abort ();
  memcpy (longer, buf, size);
  longer[size] = 'x';
  for (size_t n = 0; n <= size + 1; n++)
    if (n != size)
      {
        /* A copy of the exact length, so that reading past it is
           caught by a sanitizer.  */
        char *part = malloc (n ? n : 1);
        if (!part)
          abort ();
        memcpy (part, longer, n);
        if (unpack (part, n, NULL))
          {
            fprintf (stderr, "proto-roundtrip: %s: %zu bytes of %zu taken\n",
                     what, n, size);
            failures++;
          }
        free (part);
      }
  free (longer);
}

/* The unpackers, with the signature refuses_others wants: each to a
   scratch variable, freed.  */
static bool
try_task (char const *buf, size_t n, void *unused)
{
  struct mpicp_task t;
  bool ok = mpicp_unpack_task (buf, n, &t);
  mpicp_task_free (&t);
  return ok;
}

static bool
try_answer (char const *buf, size_t n, void *unused)
{
  struct mpicp_answer a;
  return mpicp_unpack_answer (buf, n, &a);
}

static bool
try_dir_answer (char const *buf, size_t n, void *unused)
{
  struct mpicp_dir_answer a;
  return mpicp_unpack_dir_answer (buf, n, &a);
}

static bool
try_link_ask (char const *buf, size_t n, void *unused)
{
  struct mpicp_link l;
  bool ok = mpicp_unpack_link_ask (buf, n, &l);
  free (l.name);
  return ok;
}

static bool
try_link_done (char const *buf, size_t n, void *unused)
{
  struct mpicp_link l;
  return mpicp_unpack_link_done (buf, n, &l);
}

static bool
try_link_reply (char const *buf, size_t n, void *unused)
{
  char *target;
  bool ok = mpicp_unpack_link_reply (buf, n, &target);
  free (target);
  return ok;
}

/* A status with every field set from SEED: 0 gives zeros, 1 the
   largest values and the most negative times.  */
static void
fill_stat (struct stat *st, int seed)
{
  memset (st, 0, sizeof *st);
  if (seed == 0)
    return;
  bool big = seed == 1;
  st->st_dev = big ? (dev_t) -1 : 0x0803;
  st->st_ino = big ? (ino_t) -1 : 1234567;
  st->st_mode = big ? (mode_t) -1 : S_IFREG | 0644;
  st->st_nlink = big ? (nlink_t) -1 : 2;
  st->st_uid = big ? (uid_t) -1 : 1000;
  st->st_gid = big ? (gid_t) -1 : 100;
  st->st_rdev = big ? (dev_t) -1 : 0;
  st->st_size = big ? TYPE_MAXIMUM (off_t) : 4096;
  st->st_blksize = big ? TYPE_MAXIMUM (blksize_t) : 4096;
  st->st_blocks = big ? TYPE_MAXIMUM (blkcnt_t) : 8;
  set_times (st,
             (struct timespec) { big ? TYPE_MINIMUM (time_t) : -1,
                                 999999999 },
             (struct timespec) { big ? TYPE_MAXIMUM (time_t) : 1700000000,
                                 big ? 0 : 1 },
             (struct timespec) { -86400, 500000000 });
}

static void
same_side (char const *what, struct mpicp_side const *a,
           struct mpicp_side const *b)
{
  SAME (what, a, b, dir_dev);
  SAME (what, a, b, dir_ino);
  same_string (what, "root", a->root, b->root);
  same_bytes (what, "path", a->path, a->path_len, b->path, b->path_len);
  if (b->path[b->path_len] != '\0')
    fail (what, "path's end");
  same_string (what, "name", a->name, b->name);
  SAME (what, a, b, rel_at);
}

static struct remote_inode const made[] =
  { { 0, 0 }, { (dev_t) -1, (ino_t) -1 }, { 42, 7 } };

/* A task of KIND with values from SEED (see fill_stat).  */
static void
fill_task (struct mpicp_task *t, enum mpicp_kind kind, int seed)
{
  memset (t, 0, sizeof *t);
  t->kind = kind;
  t->answers_request = seed != 0;
  t->slot = seed == 1 ? UINT32_MAX : seed;
  t->follow = seed == 2;
  fill_stat (&t->src_st, seed);
  fill_stat (&t->dst_st, kind == MPICP_FILE ? 0 : 2 - seed % 2);
  /* Names with every odd byte but the null one: newlines, bytes of no
     character, a trailing slash; and an operand's empty root.  */
  static char const odd[] = "a\nb\tc\x01\x7f\x80\xfe\xff d/";
  static char const path[] = "sub/dir/more";
  t->side[0] = (struct mpicp_side) { seed == 1 ? (dev_t) -1 : 5,
                                     seed == 1 ? (ino_t) -1 : 6, "src",
                                     path, seed == 0 ? 0 : 7, "src/sub/dir/f",
                                     10 };
  t->side[1] = (struct mpicp_side) { 0, 0, seed == 0 ? "" : odd, "", 0,
                                     seed == 0 ? "" : odd,
                                     seed == 0 ? 0 : sizeof odd - 1 };
  if (kind == MPICP_RANGE)
    {
      t->range = seed == 1 ? INT64_MAX : seed;
      t->ranges = seed == 1 ? INT64_MAX : 3;
      t->chunk = seed == 1 ? INT64_MIN : 1 << 20;
      t->direct = seed == 1 ? INT32_MIN : 3;
    }
  else
    t->range = -1;
  if (kind == MPICP_SUBTREE)
    {
      t->top_dev = seed == 1 ? (dev_t) -1 : 9;
      t->made = seed == 0 ? NULL : made;
      t->made_len = seed == 0 ? 0 : sizeof made / sizeof *made;
      t->top_src = seed == 0 ? "" : odd;
      t->top_dst = "dst";
    }
}

static void
check_task (enum mpicp_kind kind, int seed)
{
  char what[64];
  sprintf (what, "task of kind %d, seed %d", kind, seed);
  struct mpicp_task in, out;
  fill_task (&in, kind, seed);
  size_t n;
  char *buf = mpicp_pack_task (&in, &n);
  if (!mpicp_unpack_task (buf, n, &out))
    fail (what, "the whole message");
  else
    {
      SAME (what, &in, &out, kind);
      SAME (what, &in, &out, answers_request);
      SAME (what, &in, &out, slot);
      SAME (what, &in, &out, follow);
      same_stat (what, &in.src_st, &out.src_st);
      same_side (what, &in.side[0], &out.side[0]);
      same_side (what, &in.side[1], &out.side[1]);
      SAME (what, &in, &out, range);
      SAME (what, &in, &out, ranges);
      SAME (what, &in, &out, chunk);
      SAME (what, &in, &out, direct);
      same_stat (what, &in.dst_st, &out.dst_st);
      SAME (what, &in, &out, top_dev);
      SAME (what, &in, &out, made_len);
      for (size_t i = 0; i < in.made_len && i < out.made_len; i++)
        {
          SAME (what, &in.made[i], &out.made[i], dev);
          SAME (what, &in.made[i], &out.made[i], ino);
        }
      if (kind == MPICP_SUBTREE)
        {
          same_string (what, "top_src", in.top_src, out.top_src);
          same_string (what, "top_dst", in.top_dst, out.top_dst);
        }
    }
  mpicp_task_free (&out);
  refuses_others (what, buf, n, try_task);
  free (buf);
}

static void
check_answer (int seed)
{
  char const *what = seed ? "answer, extreme" : "answer, empty";
  struct mpicp_answer in = { 0 }, out;
  static char const said[] = "mpicp: cannot open 'x\0y': Permission denied\n";
  static char const hashes[] = "\\d41d8cd98f00b204e9800998ecf8427e  a\\nb\n";
  static char const records[] = "f3 a\n\xff\0{\"record\":\"file\"}\n";
  if (seed)
    in = (struct mpicp_answer) {
      UINT32_MAX, true,
      { XFER_METHOD_OFFLOAD, true, true, INT32_MIN, TYPE_MAXIMUM (idx_t),
        INTMAX_MAX, XFER_ATTEMPT_AVOIDED, XFER_ATTEMPT_UNSUPPORTED,
        INT32_MAX, XFER_QUEUE_THREAD, -1, XFER_UNCACHED_DROP, INTMAX_MIN,
        XFER_HASHED_MISSED, true, true, XFER_READBACK_DROPPED },
      said, sizeof said, hashes, sizeof hashes - 1,
      records, sizeof records - 1 };
  size_t n;
  char *buf = mpicp_pack_answer (&in, &n);
  if (!mpicp_unpack_answer (buf, n, &out))
    fail (what, "the whole message");
  else
    {
      SAME (what, &in, &out, slot);
      SAME (what, &in, &out, ok);
      SAME (what, &in, &out, report.method);
      SAME (what, &in, &out, report.reflinked);
      SAME (what, &in, &out, report.holes);
      SAME (what, &in, &out, report.direct);
      SAME (what, &in, &out, report.buffer_size);
      SAME (what, &in, &out, report.bytes);
      SAME (what, &in, &out, report.offload);
      SAME (what, &in, &out, report.reflink);
      SAME (what, &in, &out, report.detection);
      SAME (what, &in, &out, report.queue);
      SAME (what, &in, &out, report.inflight);
      SAME (what, &in, &out, report.uncached);
      SAME (what, &in, &out, report.ranges);
      SAME (what, &in, &out, report.hashed);
      SAME (what, &in, &out, report.differs);
      SAME (what, &in, &out, report.read_back);
      SAME (what, &in, &out, report.readback);
      same_bytes (what, "said", in.said, in.said_len, out.said, out.said_len);
      same_bytes (what, "hashes", in.hashes, in.hashes_len, out.hashes,
                  out.hashes_len);
      same_bytes (what, "records", in.records, in.records_len, out.records,
                  out.records_len);
    }
  refuses_others (what, buf, n, try_answer);
  free (buf);
}

static void
check_dir_answer (int seed)
{
  char const *what = seed ? "subtree's answer" : "empty subtree's answer";
  struct mpicp_dir_answer in = { 0 }, out;
  static char const said[] = "\xff\0\n";
  static char const text[] = "'a' -> 'b'\n";
  static char const hashes[] = "0123456789abcdef  b\n";
  static char const records[] = "c0 d\0\n";
  if (seed)
    in = (struct mpicp_dir_answer) { 1, true, said, sizeof said,
                                     text, sizeof text - 1,
                                     hashes, sizeof hashes - 1,
                                     records, sizeof records - 1 };
  size_t n;
  char *buf = mpicp_pack_dir_answer (&in, &n);
  if (!mpicp_unpack_dir_answer (buf, n, &out))
    fail (what, "the whole message");
  else
    {
      SAME (what, &in, &out, slot);
      SAME (what, &in, &out, ok);
      same_bytes (what, "said", in.said, in.said_len, out.said, out.said_len);
      same_bytes (what, "out", in.out, in.out_len, out.out, out.out_len);
      same_bytes (what, "hashes", in.hashes, in.hashes_len, out.hashes,
                  out.hashes_len);
      same_bytes (what, "records", in.records, in.records_len, out.records,
                  out.records_len);
    }
  refuses_others (what, buf, n, try_dir_answer);
  free (buf);
}

static void
check_links (int seed)
{
  char const *what = seed ? "link messages, extreme" : "link messages";
  struct mpicp_link in = { seed ? (dev_t) -1 : 0, seed ? (ino_t) -1 : 0,
                           seed != 0, seed ? (char *) "\x80\n/odd" : "" };
  struct mpicp_link out;
  size_t n;
  char *buf = mpicp_pack_link_ask (&in, &n);
  if (!mpicp_unpack_link_ask (buf, n, &out))
    fail (what, "the whole ask");
  else
    {
      SAME (what, &in, &out, dev);
      SAME (what, &in, &out, ino);
      same_string (what, "name", in.name, out.name);
      free (out.name);
    }
  refuses_others (what, buf, n, try_link_ask);
  free (buf);

  buf = mpicp_pack_link_done (&in, &n);
  if (!mpicp_unpack_link_done (buf, n, &out))
    fail (what, "the whole done");
  else
    {
      SAME (what, &in, &out, dev);
      SAME (what, &in, &out, ino);
      SAME (what, &in, &out, ok);
    }
  refuses_others (what, buf, n, try_link_done);
  free (buf);

  char const *target = seed ? in.name : NULL;
  char *back;
  buf = mpicp_pack_link_reply (target, &n);
  if (!mpicp_unpack_link_reply (buf, n, &back))
    fail (what, "the whole reply");
  else if (!target != !back || (target && strcmp (target, back) != 0))
    fail (what, "target");
  free (back);
  refuses_others (what, buf, n, try_link_reply);
  free (buf);
}

static void
check_counts (int seed)
{
  char const *what = seed ? "figures, extreme" : "figures";
  struct xfer_counts in = { 0 }, out;
  if (seed)
    in = (struct xfer_counts) { INTMAX_MAX, INTMAX_MIN, -1,
                                TYPE_MAXIMUM (idx_t), INT_MIN, INTMAX_MAX,
                                INTMAX_MIN, .left = INTMAX_MAX,
                                .read_back = INTMAX_MIN };
  char buf[MPICP_COUNTS_SIZE];
  mpicp_pack_counts (&in, buf);
  if (!mpicp_unpack_counts (buf, &out))
    fail (what, "the whole message");
  SAME (what, &in, &out, bytes);
  SAME (what, &in, &out, files);
  SAME (what, &in, &out, methods);
  SAME (what, &in, &out, buffer_size);
  SAME (what, &in, &out, direct);
  SAME (what, &in, &out, waited_ns);
  SAME (what, &in, &out, steals);
  SAME (what, &in, &out, left);
  SAME (what, &in, &out, read_back);
}

/* The bytes on the wire are big-endian whatever the host: a link's
   DONE message is its device, its inode and a byte.  And a string
   with a null byte, or a nanosecond count of a second or more, is
   refused.  */
static void
check_wire (void)
{
  struct mpicp_link l = { 0x0102, 0x030405, true, NULL };
  static unsigned char const want[17] =
    { 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 3, 4, 5, 1 };
  size_t n;
  char *buf = mpicp_pack_link_done (&l, &n);
  if (n != sizeof want || memcmp (buf, want, n) != 0)
    fail ("wire", "byte order");
  free (buf);

  l.name = (char *) "name";
  buf = mpicp_pack_link_ask (&l, &n);
  buf[n - 2] = '\0';
  if (try_link_ask (buf, n, NULL))
    fail ("wire", "a null byte in a name");
  buf[n - 2] = 'm';
  buf[0] = 1;
  if (sizeof (dev_t) < 8 && try_link_ask (buf, n, NULL))
    fail ("wire", "a device too large");
  free (buf);

  struct mpicp_task t;
  fill_task (&t, MPICP_FILE, 2);
  buf = mpicp_pack_task (&t, &n);
  /* The atime's nanoseconds, after kind, flag, slot, flag, then the
     status's dev, ino, mode, nlink, uid, gid, rdev, size, blksize,
     blocks and atime's seconds.  */
  size_t nsec_at = 1 + 1 + 4 + 1 + 8 + 8 + 4 + 8 + 4 + 4 + 8 + 8 + 8 + 8 + 8;
  memcpy (buf + nsec_at, "\x3b\x9a\xca\x00", 4);
  if (try_task (buf, n, NULL))
    fail ("wire", "a billion nanoseconds");
  buf[0] = 4;
  if (try_task (buf, n, NULL))
    fail ("wire", "an unknown kind");
  free (buf);
}

int
main (void)
{
  for (int seed = 0; seed < 3; seed++)
    {
      check_task (MPICP_FILE, seed);
      check_task (MPICP_RANGE, seed);
      check_task (MPICP_SUBTREE, seed);
      check_answer (seed);
      check_dir_answer (seed);
      check_links (seed);
      check_counts (seed);
    }
  check_wire ();
  return failures != 0;
}
