/* mpicp-proto.c -- the messages mpicp's ranks send one another.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "mpicp-proto.h"

#include <string.h>

#include "stat-time.h"
#include "xalloc.h"

/* A message being packed.  */
struct writer
{
  char *buf;
  idx_t len;
  idx_t alloc;
};

/* A message being unpacked: what is left of it, and whether it was
   short or held a value that fits nowhere.  ARENA, if not NULL, is
   where strings are copied with their null bytes.  */
struct reader
{
  unsigned char const *p;
  size_t left;
  bool bad;
  char *arena;
};

static void
put_bytes (struct writer *w, void const *p, size_t n)
{
  if (w->alloc - w->len < n)
    w->buf = xpalloc (w->buf, &w->alloc, n - (w->alloc - w->len), -1, 1);
  if (n)
    memcpy (w->buf + w->len, p, n);
  w->len += n;
}

/* Append the low N bytes of V, the most significant first.  */
static void
put_be (struct writer *w, uint64_t v, int n)
{
  unsigned char b[8];
  for (int i = n - 1; 0 <= i; i--)
    {
      b[i] = v & 0xff;
      v >>= 8;
    }
  put_bytes (w, b, n);
}

static void
put_u8 (struct writer *w, unsigned int v)
{
  put_be (w, v, 1);
}

static void
put_u32 (struct writer *w, uint32_t v)
{
  put_be (w, v, 4);
}

/* Signed values travel in two's complement, which is what converting
   them to these functions' unsigned types gives.  */
static void
put_u64 (struct writer *w, uint64_t v)
{
  put_be (w, v, 8);
}

/* Append the N bytes at P, after their count.  */
static void
put_blob (struct writer *w, char const *p, size_t n)
{
  put_u64 (w, n);
  put_bytes (w, p, n);
}

static void
put_string (struct writer *w, char const *s)
{
  put_blob (w, s, strlen (s));
}

/* The message W made, and its size in *SIZE.  */
static char *
finish (struct writer *w, size_t *size)
{
  *size = w->len;
  return w->buf ? w->buf : xmalloc (1);
}

/* The next N bytes, or NULL if fewer are left.  */
static unsigned char const *
take (struct reader *r, size_t n)
{
  if (r->bad || r->left < n)
    {
      r->bad = true;
      return NULL;
    }
  unsigned char const *p = r->p;
  r->p += n;
  r->left -= n;
  return p;
}

static uint64_t
get_be (struct reader *r, int n)
{
  unsigned char const *p = take (r, n);
  uint64_t v = 0;
  for (int i = 0; p && i < n; i++)
    v = v << 8 | p[i];
  return v;
}

static uint32_t
get_u32 (struct reader *r)
{
  return get_be (r, 4);
}

static uint64_t
get_u64 (struct reader *r)
{
  return get_be (r, 8);
}

/* Two's complement back to a signed value, without relying on how
   an unsigned value too large converts.  */
static int64_t
get_i64 (struct reader *r)
{
  uint64_t v = get_u64 (r);
  return v <= INT64_MAX ? (int64_t) v : - (int64_t) (UINT64_MAX - v) - 1;
}

static int32_t
get_i32 (struct reader *r)
{
  uint32_t v = get_u32 (r);
  return v <= INT32_MAX ? (int32_t) v : - (int32_t) (UINT32_MAX - v) - 1;
}

/* A byte that must be at most MAX.  */
static unsigned int
get_small (struct reader *r, unsigned int max)
{
  unsigned int v = get_be (r, 1);
  if (max < v)
    r->bad = true;
  return v;
}

static bool
get_bool (struct reader *r)
{
  return get_small (r, 1);
}

/* The bytes of a blob, setting *N to their count; they stay in the
   message.  */
static char const *
get_blob (struct reader *r, size_t *n)
{
  uint64_t len = get_u64 (r);
  if (r->bad || r->left < len)
    {
      r->bad = true;
      *n = 0;
      return "";
    }
  *n = len;
  return (char const *) take (r, len);
}

/* A string, copied with its null byte to R's arena: one that holds a
   null byte is no file name.  */
static char const *
get_string (struct reader *r, size_t *n)
{
  char const *p = get_blob (r, n);
  if (r->bad || memchr (p, '\0', *n))
    {
      r->bad = true;
      return "";
    }
  char *s = r->arena;
  memcpy (s, p, *n);
  s[*n] = '\0';
  r->arena += *n + 1;
  return s;
}

/* Set LVALUE to V, a variable, and mark R bad if LVALUE's type can't
   hold V.  */
#define SET_FITTING(r, lvalue, v) \
  do { (lvalue) = (v); if ((lvalue) != (v)) (r)->bad = true; } while (0)

static void
put_time (struct writer *w, struct timespec t)
{
  put_u64 (w, t.tv_sec);
  put_u32 (w, t.tv_nsec);
}

static struct timespec
get_time (struct reader *r)
{
  struct timespec t;
  int64_t sec = get_i64 (r);
  uint32_t nsec = get_u32 (r);
  SET_FITTING (r, t.tv_sec, sec);
  if (1000000000 <= nsec)
    r->bad = true;
  t.tv_nsec = nsec;
  return t;
}

/* The fields of a file's status that copying it reads.  */
static void
put_stat (struct writer *w, struct stat const *st)
{
  put_u64 (w, st->st_dev);
  put_u64 (w, st->st_ino);
  put_u32 (w, st->st_mode);
  put_u64 (w, st->st_nlink);
  put_u32 (w, st->st_uid);
  put_u32 (w, st->st_gid);
  put_u64 (w, st->st_rdev);
  put_u64 (w, st->st_size);
  put_u64 (w, st->st_blksize);
  put_u64 (w, st->st_blocks);
  put_time (w, get_stat_atime (st));
  put_time (w, get_stat_mtime (st));
  put_time (w, get_stat_ctime (st));
}

static void
get_stat (struct reader *r, struct stat *st)
{
  memset (st, 0, sizeof *st);
  uint64_t dev = get_u64 (r);
  uint64_t ino = get_u64 (r);
  uint32_t mode = get_u32 (r);
  uint64_t nlink = get_u64 (r);
  uint32_t uid = get_u32 (r);
  uint32_t gid = get_u32 (r);
  uint64_t rdev = get_u64 (r);
  int64_t size = get_i64 (r);
  int64_t blksize = get_i64 (r);
  int64_t blocks = get_i64 (r);
  SET_FITTING (r, st->st_dev, dev);
  SET_FITTING (r, st->st_ino, ino);
  SET_FITTING (r, st->st_mode, mode);
  SET_FITTING (r, st->st_nlink, nlink);
  SET_FITTING (r, st->st_uid, uid);
  SET_FITTING (r, st->st_gid, gid);
  SET_FITTING (r, st->st_rdev, rdev);
  SET_FITTING (r, st->st_size, size);
  SET_FITTING (r, st->st_blksize, blksize);
  SET_FITTING (r, st->st_blocks, blocks);
  struct timespec a = get_time (r);
  struct timespec m = get_time (r);
  struct timespec c = get_time (r);
#ifdef HAVE_STRUCT_STAT_ST_ATIM_TV_NSEC
  st->st_atim = a;
  st->st_mtim = m;
  st->st_ctim = c;
#else
  /* Where struct stat has no nanoseconds, the seconds are all it
     keeps, as a stat there would.  */
  st->st_atime = a.tv_sec;
  st->st_mtime = m.tv_sec;
  st->st_ctime = c.tv_sec;
#endif
}

/* A file's device and inode, as a struct remote_inode.  */
static void
put_inode (struct writer *w, struct remote_inode i)
{
  put_u64 (w, i.dev);
  put_u64 (w, i.ino);
}

static struct remote_inode
get_inode (struct reader *r)
{
  struct remote_inode i;
  uint64_t dev = get_u64 (r);
  uint64_t ino = get_u64 (r);
  SET_FITTING (r, i.dev, dev);
  SET_FITTING (r, i.ino, ino);
  return i;
}

static void
put_side (struct writer *w, struct mpicp_side const *s)
{
  put_inode (w, (struct remote_inode) { s->dir_dev, s->dir_ino });
  put_string (w, s->root);
  put_blob (w, s->path, s->path_len);
  put_string (w, s->name);
  put_u64 (w, s->rel_at);
}

static void
get_side (struct reader *r, struct mpicp_side *s)
{
  struct remote_inode dir = get_inode (r);
  s->dir_dev = dir.dev;
  s->dir_ino = dir.ino;
  size_t root_len, name_len;
  s->root = get_string (r, &root_len);
  s->path = get_string (r, &s->path_len);
  s->name = get_string (r, &name_len);
  uint64_t rel_at = get_u64 (r);
  if (name_len < rel_at)
    r->bad = true;
  s->rel_at = rel_at;
}

char *
mpicp_pack_task (struct mpicp_task const *t, size_t *size)
{
  struct writer w = { NULL, 0, 0 };
  put_u8 (&w, t->kind);
  put_u8 (&w, t->answers_request);
  put_u32 (&w, t->slot);
  put_u8 (&w, t->follow);
  put_stat (&w, &t->src_st);
  put_side (&w, &t->side[0]);
  put_side (&w, &t->side[1]);
  if (t->kind == MPICP_RANGE)
    {
      put_u64 (&w, t->range);
      put_u64 (&w, t->ranges);
      put_u64 (&w, t->chunk);
      put_u32 (&w, t->direct);
    }
  if (t->kind != MPICP_FILE)
    put_stat (&w, &t->dst_st);
  if (t->kind == MPICP_SUBTREE)
    {
      put_u64 (&w, t->top_dev);
      put_string (&w, t->top_src);
      put_string (&w, t->top_dst);
      put_u64 (&w, t->made_len);
      for (size_t i = 0; i < t->made_len; i++)
        put_inode (&w, t->made[i]);
    }
  return finish (&w, size);
}

/* The copies of the operands made so far, at the end of a subtree's
   message, into MADE, room for all that the message can hold.  */
static void
get_made (struct reader *r, struct remote_inode *made, size_t *made_len)
{
  uint64_t n = get_u64 (r);
  if (r->bad || r->left / 16 < n)
    {
      r->bad = true;
      *made_len = 0;
      return;
    }
  *made_len = n;
  for (size_t i = 0; i < n; i++)
    made[i] = get_inode (r);
}

bool
mpicp_unpack_task (char const *buf, size_t size, struct mpicp_task *t)
{
  memset (t, 0, sizeof *t);
  t->range = -1;
  /* A message of SIZE bytes holds fewer than SIZE / 16 inodes, and
     its strings, with a null byte each, take fewer than SIZE bytes
     and one more for each of the 8 at most.  */
  size_t n_made = size / 16;
  struct remote_inode *made = xinmalloc (n_made + 1 + (size + 8) / sizeof *made
                                         + 1, sizeof *made);
  t->mem = made;
  struct reader r = { (unsigned char const *) buf, size, false,
                      (char *) (made + n_made + 1) };
  t->kind = get_small (&r, MPICP_SUBTREE);
  if (t->kind == 0)
    r.bad = true;
  t->answers_request = get_bool (&r);
  t->slot = get_u32 (&r);
  t->follow = get_bool (&r);
  get_stat (&r, &t->src_st);
  get_side (&r, &t->side[0]);
  get_side (&r, &t->side[1]);
  if (t->kind == MPICP_RANGE)
    {
      t->range = get_i64 (&r);
      t->ranges = get_i64 (&r);
      t->chunk = get_i64 (&r);
      t->direct = get_i32 (&r);
    }
  if (t->kind == MPICP_RANGE || t->kind == MPICP_SUBTREE)
    get_stat (&r, &t->dst_st);
  if (t->kind == MPICP_SUBTREE)
    {
      uint64_t top_dev = get_u64 (&r);
      SET_FITTING (&r, t->top_dev, top_dev);
      size_t len;
      t->top_src = get_string (&r, &len);
      t->top_dst = get_string (&r, &len);
      get_made (&r, made, &t->made_len);
      t->made = made;
    }
  return !r.bad && r.left == 0;
}

void
mpicp_task_free (struct mpicp_task *t)
{
  free (t->mem);
  t->mem = NULL;
}

static void
put_report (struct writer *w, struct xfer_report const *rep)
{
  put_u8 (w, rep->method);
  put_u8 (w, rep->reflinked);
  put_u8 (w, rep->holes);
  put_u32 (w, rep->direct);
  put_u64 (w, rep->buffer_size);
  put_u64 (w, rep->bytes);
  put_u8 (w, rep->offload);
  put_u8 (w, rep->reflink);
  put_u32 (w, rep->detection);
  put_u8 (w, rep->queue);
  put_u32 (w, rep->inflight);
  put_u8 (w, rep->uncached);
  put_u64 (w, rep->ranges);
  put_u8 (w, rep->hashed);
  put_u8 (w, rep->differs);
  put_u8 (w, rep->read_back);
  put_u8 (w, rep->readback);
}

static void
get_report (struct reader *r, struct xfer_report *rep)
{
  rep->method = get_small (r, XFER_METHOD_OFFLOAD);
  rep->reflinked = get_bool (r);
  rep->holes = get_bool (r);
  rep->direct = get_i32 (r);
  int64_t buffer_size = get_i64 (r);
  int64_t bytes = get_i64 (r);
  SET_FITTING (r, rep->buffer_size, buffer_size);
  SET_FITTING (r, rep->bytes, bytes);
  rep->offload = get_small (r, XFER_ATTEMPT_AVOIDED);
  rep->reflink = get_small (r, XFER_ATTEMPT_AVOIDED);
  rep->detection = get_i32 (r);
  rep->queue = get_small (r, XFER_QUEUE_THREAD);
  rep->inflight = get_i32 (r);
  rep->uncached = get_small (r, XFER_UNCACHED_DROP);
  int64_t ranges = get_i64 (r);
  SET_FITTING (r, rep->ranges, ranges);
  rep->hashed = get_small (r, XFER_HASHED_MISSED);
  rep->differs = get_bool (r);
  rep->read_back = get_bool (r);
  rep->readback = get_small (r, XFER_READBACK_DROPPED);
}

char *
mpicp_pack_answer (struct mpicp_answer const *a, size_t *size)
{
  struct writer w = { NULL, 0, 0 };
  put_u32 (&w, a->slot);
  put_u8 (&w, a->ok);
  put_report (&w, &a->report);
  put_blob (&w, a->said, a->said_len);
  put_blob (&w, a->hashes, a->hashes_len);
  put_blob (&w, a->records, a->records_len);
  return finish (&w, size);
}

bool
mpicp_unpack_answer (char const *buf, size_t size, struct mpicp_answer *a)
{
  struct reader r = { (unsigned char const *) buf, size, false, NULL };
  a->slot = get_u32 (&r);
  a->ok = get_bool (&r);
  get_report (&r, &a->report);
  a->said = get_blob (&r, &a->said_len);
  a->hashes = get_blob (&r, &a->hashes_len);
  a->records = get_blob (&r, &a->records_len);
  return !r.bad && r.left == 0;
}

char *
mpicp_pack_dir_answer (struct mpicp_dir_answer const *a, size_t *size)
{
  struct writer w = { NULL, 0, 0 };
  put_u32 (&w, a->slot);
  put_u8 (&w, a->ok);
  put_blob (&w, a->said, a->said_len);
  put_blob (&w, a->out, a->out_len);
  put_blob (&w, a->hashes, a->hashes_len);
  put_blob (&w, a->records, a->records_len);
  return finish (&w, size);
}

bool
mpicp_unpack_dir_answer (char const *buf, size_t size,
                         struct mpicp_dir_answer *a)
{
  struct reader r = { (unsigned char const *) buf, size, false, NULL };
  a->slot = get_u32 (&r);
  a->ok = get_bool (&r);
  a->said = get_blob (&r, &a->said_len);
  a->out = get_blob (&r, &a->out_len);
  a->hashes = get_blob (&r, &a->hashes_len);
  a->records = get_blob (&r, &a->records_len);
  return !r.bad && r.left == 0;
}

static void
put_link_inode (struct writer *w, struct mpicp_link const *l)
{
  put_inode (w, (struct remote_inode) { l->dev, l->ino });
}

static void
get_link_inode (struct reader *r, struct mpicp_link *l)
{
  struct remote_inode i = get_inode (r);
  l->dev = i.dev;
  l->ino = i.ino;
}

char *
mpicp_pack_link_ask (struct mpicp_link const *l, size_t *size)
{
  struct writer w = { NULL, 0, 0 };
  put_link_inode (&w, l);
  put_string (&w, l->name);
  return finish (&w, size);
}

/* A string copied out of the message at R, or NULL if it is not
   one.  */
static char *
get_new_string (struct reader *r)
{
  size_t n;
  char const *p = get_blob (r, &n);
  if (r->bad || memchr (p, '\0', n))
    {
      r->bad = true;
      return NULL;
    }
  return ximemdup0 (p, n);
}

bool
mpicp_unpack_link_ask (char const *buf, size_t size, struct mpicp_link *l)
{
  struct reader r = { (unsigned char const *) buf, size, false, NULL };
  get_link_inode (&r, l);
  l->ok = false;
  l->name = get_new_string (&r);
  if (!r.bad && r.left == 0)
    return true;
  free (l->name);
  l->name = NULL;
  return false;
}

char *
mpicp_pack_link_done (struct mpicp_link const *l, size_t *size)
{
  struct writer w = { NULL, 0, 0 };
  put_link_inode (&w, l);
  put_u8 (&w, l->ok);
  return finish (&w, size);
}

bool
mpicp_unpack_link_done (char const *buf, size_t size, struct mpicp_link *l)
{
  struct reader r = { (unsigned char const *) buf, size, false, NULL };
  get_link_inode (&r, l);
  l->ok = get_bool (&r);
  l->name = NULL;
  return !r.bad && r.left == 0;
}

char *
mpicp_pack_link_reply (char const *target, size_t *size)
{
  struct writer w = { NULL, 0, 0 };
  put_u8 (&w, target != NULL);
  if (target)
    put_string (&w, target);
  return finish (&w, size);
}

bool
mpicp_unpack_link_reply (char const *buf, size_t size, char **target)
{
  struct reader r = { (unsigned char const *) buf, size, false, NULL };
  *target = get_bool (&r) ? get_new_string (&r) : NULL;
  if (!r.bad && r.left == 0)
    return true;
  free (*target);
  *target = NULL;
  return false;
}

void
mpicp_pack_counts (struct xfer_counts const *c, char *buf)
{
  struct writer w = { NULL, 0, 0 };
  put_u64 (&w, c->bytes);
  put_u64 (&w, c->files);
  put_u32 (&w, c->methods);
  put_u64 (&w, c->buffer_size);
  put_u32 (&w, c->direct);
  put_u64 (&w, c->waited_ns);
  put_u64 (&w, c->steals);
  put_u64 (&w, c->skipped);
  put_u64 (&w, c->left);
  put_u64 (&w, c->read_back);
  memcpy (buf, w.buf, MPICP_COUNTS_SIZE);
  free (w.buf);
}

bool
mpicp_unpack_counts (char const *buf, struct xfer_counts *c)
{
  struct reader r = { (unsigned char const *) buf, MPICP_COUNTS_SIZE, false,
                      NULL };
  int64_t bytes = get_i64 (&r);
  int64_t files = get_i64 (&r);
  SET_FITTING (&r, c->bytes, bytes);
  SET_FITTING (&r, c->files, files);
  c->methods = get_i32 (&r);
  int64_t buffer_size = get_i64 (&r);
  SET_FITTING (&r, c->buffer_size, buffer_size);
  c->direct = get_i32 (&r);
  int64_t waited_ns = get_i64 (&r);
  int64_t steals = get_i64 (&r);
  SET_FITTING (&r, c->waited_ns, waited_ns);
  SET_FITTING (&r, c->steals, steals);
  int64_t skipped = get_i64 (&r);
  SET_FITTING (&r, c->skipped, skipped);
  int64_t left = get_i64 (&r);
  int64_t read_back = get_i64 (&r);
  SET_FITTING (&r, c->left, left);
  SET_FITTING (&r, c->read_back, read_back);
  return !r.bad && r.left == 0;
}
