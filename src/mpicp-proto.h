/* mpicp-proto.h -- the messages mpicp's ranks send one another.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Every message is packed field by field into big-endian integers of
   fixed width, and every string goes with its length, so that ranks
   of any byte order and word size read what the others wrote; no
   native struct travels.  Unpacking checks each length against what
   is left of the message, and each value against the native type it
   goes into: a message that does not fit is refused, never read past
   its end.  This file knows nothing of MPI, so that it can be tested
   alone; doc/HACKING describes the protocol.  */

#ifndef CPDD_MPICP_PROTO_H
#define CPDD_MPICP_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "copy-remote.h"
#include "xfer.h"
#include "xfer-progress.h"

/* The tags of the messages, which tell them apart.  The tests read
   this list (tests/diff-helpers.sh's mpi_tag_), in this layout.  */
enum
{
  TAG_TASK = 1,			/* a file, range or subtree to copy */
  TAG_ANSWER,			/* to its sender: how a file or range went */
  TAG_STOP,			/* rank 0 to another: nothing more */
  TAG_STEAL,			/* an idle rank to another: work, please */
  TAG_HELP,			/* a rank waiting: files to copy, please */
  TAG_NOWORK,			/* and back to either: none to give now */
  TAG_DIR_DONE,			/* to a subtree's giver: how it went */
  TAG_LINK_ASK,			/* to an inode's owner: first copy? */
  TAG_LINK_REPLY,		/* and back: copy it, or link to this */
  TAG_LINK_DONE			/* to the owner: the first copy is over */
};

/* What a TAG_TASK message asks for.  */
enum mpicp_kind
{
  MPICP_FILE = 1,		/* copy a whole file to a new name */
  MPICP_RANGE,			/* copy one range of a file the walk made */
  MPICP_SUBTREE			/* walk a directory the walk made */
};

/* One end of a task: the directory its entry is in, as the walk saw
   it, and how to reach it again: the operand the walk opened first,
   from the working directory ("" if the entry is itself an operand),
   then the PATH_LEN bytes of the entries below it, joined by '/'.
   NAME is the entry's whole name, for messages, and its own name
   starts at REL_AT in it.  */
struct mpicp_side
{
  dev_t dir_dev;
  ino_t dir_ino;
  char const *root;
  char const *path;
  size_t path_len;
  char const *name;
  size_t rel_at;
};

/* A TAG_TASK message.  The fields after SIDE are the RANGE's or the
   SUBTREE's, as marked; DST_ST is both's.  */
struct mpicp_task
{
  enum mpicp_kind kind;
  bool answers_request;		/* the last of those sent for a request
                                   for work, which it answers */
  uint32_t slot;		/* the sender's, for the answer */
  bool follow;			/* whether the source's link is followed */
  struct stat src_st;
  struct mpicp_side side[2];	/* the source's, then the copy's */
  int64_t range;		/* RANGE: which one */
  int64_t ranges;		/* RANGE: how many the file has */
  int64_t chunk;		/* RANGE: the bytes of each */
  int32_t direct;		/* RANGE: the walk's direct I/O */
  struct stat dst_st;		/* the copy, as the walk made it */
  dev_t top_dev;		/* SUBTREE: the source operand's device */
  struct remote_inode const *made; /* SUBTREE: the operands' copies */
  size_t made_len;
  char const *top_src;		/* SUBTREE: the operands, for messages */
  char const *top_dst;
  void *mem;			/* what unpacking allocated, or NULL */
};

/* A TAG_ANSWER message.  SAID is what was said (not a string), HASHES
   the --print-hash lines of the copies, RECORDS their --report and
   --failed records (copy-report.h).  */
struct mpicp_answer
{
  uint32_t slot;
  bool ok;
  struct xfer_report report;	/* a range's, for its file's */
  char const *said;
  size_t said_len;
  char const *hashes;
  size_t hashes_len;
  char const *records;
  size_t records_len;
};

/* A TAG_DIR_DONE message: SAID is the diagnostics, OUT the standard
   output (-v), HASHES the --print-hash lines, RECORDS the --report and
   --failed records.  */
struct mpicp_dir_answer
{
  uint32_t slot;
  bool ok;
  char const *said;
  size_t said_len;
  char const *out;
  size_t out_len;
  char const *hashes;
  size_t hashes_len;
  char const *records;
  size_t records_len;
};

/* A TAG_LINK_ASK (NAME, the asker's name for its copy) or
   TAG_LINK_DONE (OK, whether the first copy is whole) message, about
   the file of device DEV and inode INO.  */
struct mpicp_link
{
  dev_t dev;
  ino_t ino;
  bool ok;
  char *name;
};

/* The bytes of a rank's figures in a round of statistics.  */
enum { MPICP_COUNTS_SIZE = 72 };

/* Each pack function returns a new buffer holding the message and
   sets *SIZE to its size.  Each unpack function reads the SIZE bytes
   at BUF and returns false if they are not a whole message of its
   kind; what it sets then points into BUF, unless said otherwise.  */

char *mpicp_pack_task (struct mpicp_task const *t, size_t *size);

/* T's strings and MADE are copies, in T->mem, which mpicp_task_free
   frees, even after a failure.  */
bool mpicp_unpack_task (char const *buf, size_t size, struct mpicp_task *t);
void mpicp_task_free (struct mpicp_task *t);

char *mpicp_pack_answer (struct mpicp_answer const *a, size_t *size);
bool mpicp_unpack_answer (char const *buf, size_t size,
                          struct mpicp_answer *a);

char *mpicp_pack_dir_answer (struct mpicp_dir_answer const *a,
                             size_t *size);
bool mpicp_unpack_dir_answer (char const *buf, size_t size,
                              struct mpicp_dir_answer *a);

/* L->name is a new string, the caller's to free.  */
char *mpicp_pack_link_ask (struct mpicp_link const *l, size_t *size);
bool mpicp_unpack_link_ask (char const *buf, size_t size,
                            struct mpicp_link *l);

char *mpicp_pack_link_done (struct mpicp_link const *l, size_t *size);
bool mpicp_unpack_link_done (char const *buf, size_t size,
                             struct mpicp_link *l);

/* TARGET is the name to link to, or NULL: copy afresh.  *TARGET is a
   new string, or NULL.  */
char *mpicp_pack_link_reply (char const *target, size_t *size);
bool mpicp_unpack_link_reply (char const *buf, size_t size, char **target);

/* A rank's figures, in the MPICP_COUNTS_SIZE bytes at BUF.  */
void mpicp_pack_counts (struct xfer_counts const *c, char *buf);
bool mpicp_unpack_counts (char const *buf, struct xfer_counts *c);

#endif /* CPDD_MPICP_PROTO_H */
