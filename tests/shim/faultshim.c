/* faultshim.c -- an LD_PRELOAD library that injects I/O faults, for tests.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The tests load this library into our cp and dd and into GNU's, so
   that both meet the same failure at the same byte and their reactions
   can be compared.  It is driven by the environment:

   FAULT_OP       which calls are affected, a comma-separated list of
                  read write pread pwrite preadv2 pwritev2
                  copy_file_range sendfile mmap
                  close fsync fdatasync syncfs clone futimens (these six
                  are hit whatever FAULT_AT says; close closes the file
                  and then fails, as on NFS; clone is the FICLONE ioctl,
                  on the destination; futimens sets no times when it
                  fails) open (corrupt mode only)
                  opendir (an openat of a directory: hit once it is
                  open, before anything in it is read, so that a walk
                  can be held there; its offset is 0)
   FAULT_FD_PATH  a glob (fnmatch) of the file the call must be on, as
                  /proc/self/fd/N names it; with no match, no fault
   FAULT_AT       the file offset the fault waits for (default 0): a call
                  is hit once the bytes it would move reach this offset
   FAULT_LEN      for eio and enospc, the length of the bad region that
                  starts at FAULT_AT (default 1): a call is failed only if
                  its bytes overlap the region, so a program that skips
                  past it (dd conv=noerror) reads on normally
   FAULT_MODE     eio, enospc    fail the call with that errno
                  short          move at most half the bytes asked for,
                                 and never past FAULT_AT in one call (on
                                 a descriptor open for direct I/O, in
                                 multiples of 4096 bytes)
                  eintr          fail every other call with EINTR
                  slow           sleep FAULT_SLEEP_MS (default 50) first
                  pause          move the bytes before FAULT_AT, then,
                                 in the call that starts there, create
                                 the file FAULT_FLAG and wait until it
                                 is removed, for at most
                                 FAULT_PAUSE_MAX seconds (default 900,
                                 longer than any test waits for a
                                 state); giving up removes the flag
                                 and says so on standard error
                  hold           while the file FAULT_FLAG exists, sleep
                                 FAULT_SLEEP_MS and move at most one
                                 byte (one block for direct I/O), so
                                 that a copy goes on, in many calls,
                                 but cannot end until the test removes
                                 the file; then calls go through.  A
                                 number in the file moves the hold to
                                 that offset: the bytes before it go
                                 through, so that a test can let a
                                 copy run on to a point it names
                  resize         once, set the size of FAULT_TARGET (a
                                 file name) to FAULT_SIZE, then go on
                  corrupt        write the data with its first byte at
                                 or after FAULT_AT turned over (write,
                                 pwrite, pwritev2); with the op open,
                                 turn that byte of the file over when
                                 it is opened to be read
   FAULT_COUNT    inject at most this many times (default: no limit)
   FAULT_DISABLE  calls to fail with ENOSYS, e.g. copy_file_range, so a
                  program falls back to read and write; preadv2 and
                  pwritev2 given any RWF_* flag fail with EOPNOTSUPP
                  instead, as on a kernel that does not know the flag
                  (without flags they work, as preadv and pwritev)
   FAULT_LOG      a file to which each injection is appended, so a test
                  can tell that the fault was met at all
   FAULT_RANK     inject only in the process of an MPI job whose rank
                  (Open MPI's OMPI_COMM_WORLD_RANK) is this one; in the
                  others, and outside a job, only FAULT_DISABLE applies.
   FAULT_SEEK     how lseek's SEEK_DATA and SEEK_HOLE answer on the file:
                  trivial  as on squashfs, which knows of no holes: all
                           of the file is data, one extent to its end
                  stuck    SEEK_HOLE finds a hole right where it is
                           asked to look, as when the data just found
                           is being moved to other extents; each such
                           answer counts against FAULT_COUNT, after
                           which lseek tells the truth again
                  none     neither is known: both fail with EINVAL,
                           as on a file system or kernel without them

   A call on a descriptor that does not match FAULT_FD_PATH, or before
   FAULT_AT, goes through untouched.  */

#define _GNU_SOURCE 1

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

extern char **environ;

enum op
{
  OP_READ = 1 << 0,
  OP_WRITE = 1 << 1,
  OP_PREAD = 1 << 2,
  OP_PWRITE = 1 << 3,
  OP_CFR = 1 << 4,
  OP_SENDFILE = 1 << 5,
  OP_MMAP = 1 << 6,
  OP_CLOSE = 1 << 7,
  OP_FSYNC = 1 << 8,
  OP_FDATASYNC = 1 << 9,
  OP_PREADV2 = 1 << 10,
  OP_PWRITEV2 = 1 << 11,
  OP_CLONE = 1 << 12,
  OP_OPEN = 1 << 13,
  OP_SYNCFS = 1 << 14,
  OP_OPENDIR = 1 << 15,
  OP_FUTIMENS = 1 << 16
};

enum seek_mode
{
  SEEK_MODE_TRUE,		/* the file system's own answers */
  SEEK_MODE_TRIVIAL,		/* no holes at all */
  SEEK_MODE_STUCK,		/* a hole wherever SEEK_HOLE looks */
  SEEK_MODE_NONE		/* SEEK_DATA and SEEK_HOLE unknown */
};

static struct op_name
{
  char const *name;
  int op;
} const op_names[] =
{
  { "read", OP_READ }, { "write", OP_WRITE },
  { "pread", OP_PREAD }, { "pwrite", OP_PWRITE },
  { "preadv2", OP_PREADV2 }, { "pwritev2", OP_PWRITEV2 },
  { "copy_file_range", OP_CFR }, { "sendfile", OP_SENDFILE },
  { "mmap", OP_MMAP }, { "close", OP_CLOSE }, { "fsync", OP_FSYNC },
  { "fdatasync", OP_FDATASYNC }, { "clone", OP_CLONE },
  { "open", OP_OPEN }, { "syncfs", OP_SYNCFS }, { "opendir", OP_OPENDIR },
  { "futimens", OP_FUTIMENS }
};

enum mode
{
  MODE_NONE, MODE_EIO, MODE_ENOSPC, MODE_SHORT, MODE_EINTR, MODE_SLOW,
  MODE_PAUSE, MODE_RESIZE, MODE_HOLD, MODE_CORRUPT
};

static struct
{
  bool ready;
  int ops;			/* OP_* bits to fault */
  int disabled;			/* OP_* bits to fail with ENOSYS */
  char const *path_glob;
  off_t at;
  off_t len;
  enum mode mode;
  long count;			/* injections left; negative: no limit */
  long sleep_ms;
  char const *flag;
  long pause_max;		/* seconds a pause lasts at most */
  char const *target;
  off_t size;
  char const *log;
  enum seek_mode seek;
  bool eintr_due;		/* the next matching call gets EINTR */
  size_t align;			/* what a short count is a multiple of */
  bool corrupt_now;		/* the call being decided is to corrupt */
} cfg;

static ssize_t (*real_read) (int, void *, size_t);
static ssize_t (*real_write) (int, void const *, size_t);
static ssize_t (*real_pread) (int, void *, size_t, off_t);
static ssize_t (*real_pwrite) (int, void const *, size_t, off_t);
static ssize_t (*real_preadv2) (int, struct iovec const *, int, off_t, int);
static ssize_t (*real_pwritev2) (int, struct iovec const *, int, off_t,
                                 int);
static ssize_t (*real_cfr) (int, off_t *, int, off_t *, size_t,
                            unsigned int);
static ssize_t (*real_sendfile) (int, int, off_t *, size_t);
static void *(*real_mmap) (void *, size_t, int, int, int, off_t);
static int (*real_close) (int);
static int (*real_fsync) (int);
static int (*real_fdatasync) (int);
static int (*real_syncfs) (int);
static int (*real_futimens) (int, struct timespec const[2]);
static int (*real_ioctl) (int, unsigned long int, ...);
static off_t (*real_lseek) (int, off_t, int);
static int (*real_open) (char const *, int, ...);
static int (*real_openat) (int, char const *, int, ...);

static int
parse_ops (char const *list)
{
  int ops = 0;
  if (!list)
    return 0;
  for (char const *p = list; *p; )
    {
      size_t len = strcspn (p, ",");
      for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
        if (strlen (op_names[i].name) == len
            && memcmp (op_names[i].name, p, len) == 0)
          ops |= op_names[i].op;
      p += len;
      if (*p == ',')
        p++;
    }
  return ops;
}

static enum mode
parse_mode (char const *s)
{
  static char const *const names[] =
    { "", "eio", "enospc", "short", "eintr", "slow", "pause", "resize",
      "hold", "corrupt" };
  if (s)
    for (size_t i = 1; i < sizeof names / sizeof names[0]; i++)
      if (strcmp (s, names[i]) == 0)
        return i;
  return MODE_NONE;
}

static enum seek_mode
parse_seek_mode (char const *s)
{
  if (s && strcmp (s, "trivial") == 0)
    return SEEK_MODE_TRIVIAL;
  if (s && strcmp (s, "stuck") == 0)
    return SEEK_MODE_STUCK;
  if (s && strcmp (s, "none") == 0)
    return SEEK_MODE_NONE;
  return SEEK_MODE_TRUE;
}

static long long
env_number (char const *name, long long dflt)
{
  char const *s = getenv (name);
  return s && *s ? strtoll (s, NULL, 0) : dflt;
}

/* Whether FAULT_RANK, if set, names this process's rank.  */
static bool
this_rank (void)
{
  char const *wanted = getenv ("FAULT_RANK");
  if (!wanted)
    return true;
  char const *rank = getenv ("OMPI_COMM_WORLD_RANK");
  return rank && strcmp (rank, wanted) == 0;
}

static void *
next_symbol (char const *name)
{
  void *sym = dlsym (RTLD_NEXT, name);
  if (!sym)
    {
      static char const msg[] = "faultshim: a libc symbol is missing\n";
      /* Nothing can work without the real call.  */
      if (write (STDERR_FILENO, msg, sizeof msg - 1) < 0)
        _exit (99);
      _exit (99);
    }
  return sym;
}

static void
setup (void)
{
  if (cfg.ready)
    return;
  real_read = next_symbol ("read");
  real_write = next_symbol ("write");
  real_pread = next_symbol ("pread64");
  real_pwrite = next_symbol ("pwrite64");
  real_preadv2 = next_symbol ("preadv64v2");
  real_pwritev2 = next_symbol ("pwritev64v2");
  real_cfr = next_symbol ("copy_file_range");
  real_sendfile = next_symbol ("sendfile64");
  real_mmap = next_symbol ("mmap64");
  real_close = next_symbol ("close");
  real_fsync = next_symbol ("fsync");
  real_fdatasync = next_symbol ("fdatasync");
  real_syncfs = next_symbol ("syncfs");
  real_futimens = next_symbol ("futimens");
  real_ioctl = next_symbol ("ioctl");
  real_lseek = next_symbol ("lseek64");
  real_open = next_symbol ("open64");
  real_openat = next_symbol ("openat64");
  cfg.ops = parse_ops (getenv ("FAULT_OP"));
  cfg.disabled = parse_ops (getenv ("FAULT_DISABLE"));
  cfg.path_glob = getenv ("FAULT_FD_PATH");
  cfg.at = env_number ("FAULT_AT", 0);
  cfg.len = env_number ("FAULT_LEN", 1);
  cfg.mode = parse_mode (getenv ("FAULT_MODE"));
  cfg.count = env_number ("FAULT_COUNT", -1);
  cfg.sleep_ms = env_number ("FAULT_SLEEP_MS", 50);
  cfg.flag = getenv ("FAULT_FLAG");
  cfg.pause_max = env_number ("FAULT_PAUSE_MAX", 900);
  cfg.target = getenv ("FAULT_TARGET");
  cfg.size = env_number ("FAULT_SIZE", 0);
  cfg.log = getenv ("FAULT_LOG");
  cfg.seek = parse_seek_mode (getenv ("FAULT_SEEK"));
  cfg.eintr_due = true;
  if (!this_rank ())
    cfg.ops = 0;
  /* A sanitizer's runtime reads files before the C library has set up
     the environment; decide again once the settings can be seen.  */
  cfg.ready = environ != NULL;
}

/* Whether FD is the file the faults are aimed at.  */
static bool
fd_matches (int fd)
{
  if (!cfg.path_glob || fd < 0)
    return false;
  char link[64], name[4096];
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink (link, name, sizeof name - 1);
  if (n < 0)
    return false;
  name[n] = '\0';
  return fnmatch (cfg.path_glob, name, 0) == 0;
}

/* Append a line saying what was injected, for the test's log.  */
static void
note (char const *what, off_t offset, size_t len)
{
  if (!cfg.log)
    return;
  int saved_errno = errno;
  int fd = open (cfg.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (0 <= fd)
    {
      char line[128];
      int n = snprintf (line, sizeof line, "%s at %lld len %zu\n", what,
                        (long long) offset, len);
      if (real_write (fd, line, n) < 0)
        n = 0;
      close (fd);
    }
  errno = saved_errno;
}

static void
sleep_ms (long ms)
{
  struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
  nanosleep (&ts, NULL);
}

/* Signal, through FAULT_FLAG, that the call has been reached, and wait
   for the test to let it go on by removing that file.  A test that
   never does would hang, so the wait has a limit; but a pause that
   ends on its own breaks the order the test forced, and a test that
   goes on as if it held would check what it no longer forces.  So the
   process says so on standard error, which the tests compare, and
   removes the flag, which no longer tells that it is paused.  */
static void
pause_here (void)
{
  if (!cfg.flag)
    return;
  int fd = open (cfg.flag, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (0 <= fd)
    close (fd);
  for (long i = 0; i < cfg.pause_max * 20; i++)
    {
      if (access (cfg.flag, F_OK) != 0)
        return;
      sleep_ms (50);
    }
  int saved_errno = errno;
  char line[4200];
  int n = snprintf (line, sizeof line,
                    "faultshim: %s not removed after %ld s; going on\n",
                    cfg.flag, cfg.pause_max);
  if (sizeof line <= (size_t) n)
    n = sizeof line - 1;
  if (real_write (STDERR_FILENO, line, n) < 0)
    n = 0;
  unlink (cfg.flag);
  errno = saved_errno;
}

/* Where the hold starts: -1 if FAULT_FLAG does not exist, else the
   number it holds, 0 if none.  */
static off_t
hold_offset (void)
{
  if (!cfg.flag)
    return -1;
  int fd = real_open (cfg.flag, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  char buf[32];
  ssize_t n = real_read (fd, buf, sizeof buf - 1);
  real_close (fd);
  buf[n < 0 ? 0 : n] = '\0';
  return strtoll (buf, NULL, 10);
}

static void
resize_target (void)
{
  if (!cfg.target)
    return;
  int fd = open (cfg.target, O_WRONLY | O_CLOEXEC);
  if (0 <= fd)
    {
      if (ftruncate (fd, cfg.size) != 0)
        note ("resize-failed", cfg.size, 0);
      close (fd);
    }
}

/* Whether a call moving *LEN bytes at OFFSET can move some before
   FROM, in whole blocks for direct I/O: if so, *LEN is cut to them.  */
static bool
up_to (off_t from, off_t offset, size_t *len)
{
  off_t before = from - offset;
  if (before <= 0)
    return false;
  before -= before % cfg.align;
  if (before == 0)
    return false;
  *len = before;
  return true;
}

/* The decision for one call moving *LEN bytes at OFFSET of a matching
   descriptor: return 0 to make the call (perhaps with *LEN reduced),
   or an errno value to fail it with.  */
static int
inject (char const *what, off_t offset, size_t *len)
{
  if (cfg.mode == MODE_NONE || cfg.count == 0)
    return 0;
  /* Not there yet: the call ends before the fault's offset.  */
  if (offset + (off_t) *len <= cfg.at && !(*len == 0 && offset == cfg.at))
    return 0;

  int err = 0;
  switch (cfg.mode)
    {
    case MODE_EIO:
    case MODE_ENOSPC:
      /* Past the bad region: nothing wrong there.  */
      if (cfg.at + cfg.len <= offset)
        return 0;
      err = cfg.mode == MODE_EIO ? EIO : ENOSPC;
      break;
    case MODE_SHORT:
      if (*len <= cfg.align)
        return 0;
      if (offset < cfg.at)
        *len = cfg.at - offset;
      else
        *len /= 2;
      /* Direct I/O moves whole blocks, even when it comes up short.  */
      *len -= *len % cfg.align;
      if (*len == 0)
        *len = cfg.align;
      break;
    case MODE_EINTR:
      cfg.eintr_due = !cfg.eintr_due;
      if (cfg.eintr_due)
        return 0;
      err = EINTR;
      break;
    case MODE_SLOW:
      sleep_ms (cfg.sleep_ms);
      break;
    case MODE_PAUSE:
      /* A call from before the offset moves its bytes up to it and the
         next call is held: a copy killed there has written exactly
         that much, even one that would move the whole file at once.  */
      if (up_to (cfg.at, offset, len))
        return 0;
      note (what, offset, *len);
      pause_here ();
      break;
    case MODE_RESIZE:
      resize_target ();
      break;
    case MODE_HOLD:
      {
        off_t from = hold_offset ();
        if (from < 0 || offset + (off_t) *len <= from
            || up_to (from, offset, len))
          return 0;
      }
      sleep_ms (cfg.sleep_ms);
      if (cfg.align < *len)
        *len = cfg.align;
      break;
    case MODE_CORRUPT:
      cfg.corrupt_now = true;
      break;
    case MODE_NONE:
      return 0;
    }
  if (cfg.mode != MODE_PAUSE)
    note (what, offset, *len);
  if (0 < cfg.count)
    cfg.count--;
  if (cfg.mode == MODE_PAUSE || cfg.mode == MODE_RESIZE)
    cfg.count = 0;
  return err;
}

/* Decide for a call of kind OP on FD at OFFSET (-1: FD's own offset).  */
static int
decide (int op, char const *what, int fd, off_t offset, size_t *len)
{
  setup ();
  if (cfg.disabled & op)
    return ENOSYS;
  if (!(cfg.ops & op) || !fd_matches (fd))
    return 0;
  if (offset < 0)
    offset = lseek (fd, 0, SEEK_CUR);
  if (offset < 0)
    offset = 0;
  int flags = fcntl (fd, F_GETFL);
  cfg.align = 0 <= flags && (flags & O_DIRECT) ? 4096 : 1;
  return inject (what, offset, len);
}

/* In corrupt mode, where the call just decided is to corrupt: the LEN
   bytes at BUF, to be written at OFFSET, with the first byte at or
   after FAULT_AT turned over, in a copy that the caller frees;
   otherwise BUF itself.  */
static void const *
corrupted (void const *buf, size_t len, off_t offset)
{
  if (!cfg.corrupt_now)
    return buf;
  cfg.corrupt_now = false;
  if (offset < 0)
    offset = 0;
  size_t i = cfg.at <= offset ? 0 : cfg.at - offset;
  if (len <= i)
    return buf;
  /* Aligned, for a descriptor open for direct I/O.  */
  unsigned char *copy;
  if (posix_memalign ((void **) &copy, 4096, len) != 0)
    return buf;
  memcpy (copy, buf, len);
  copy[i] ^= 0xff;
  return copy;
}

/* Free what corrupted returned for BUF.  */
static void
uncorrupted (void const *data, void const *buf)
{
  if (data != buf)
    free ((void *) data);
}

ssize_t
read (int fd, void *buf, size_t len)
{
  int err = decide (OP_READ, "read", fd, -1, &len);
  if (err)
    {
      errno = err;
      return -1;
    }
  return real_read (fd, buf, len);
}

ssize_t
__read_chk (int fd, void *buf, size_t len, size_t buflen)
{
  return read (fd, buf, len < buflen ? len : buflen);
}

ssize_t
write (int fd, void const *buf, size_t len)
{
  setup ();
  off_t offset = (cfg.mode == MODE_CORRUPT && (cfg.ops & OP_WRITE)
                  ? real_lseek (fd, 0, SEEK_CUR) : -1);
  int err = decide (OP_WRITE, "write", fd, -1, &len);
  if (err)
    {
      errno = err;
      return -1;
    }
  void const *data = corrupted (buf, len, offset);
  ssize_t n = real_write (fd, data, len);
  uncorrupted (data, buf);
  return n;
}

ssize_t
pread64 (int fd, void *buf, size_t len, off_t offset)
{
  int err = decide (OP_PREAD, "pread", fd, offset, &len);
  if (err)
    {
      errno = err;
      return -1;
    }
  return real_pread (fd, buf, len, offset);
}

ssize_t
pread (int fd, void *buf, size_t len, off_t offset)
{
  return pread64 (fd, buf, len, offset);
}

ssize_t
pwrite64 (int fd, void const *buf, size_t len, off_t offset)
{
  int err = decide (OP_PWRITE, "pwrite", fd, offset, &len);
  if (err)
    {
      errno = err;
      return -1;
    }
  void const *data = corrupted (buf, len, offset);
  ssize_t n = real_pwrite (fd, data, len, offset);
  uncorrupted (data, buf);
  return n;
}

ssize_t
pwrite (int fd, void const *buf, size_t len, off_t offset)
{
  return pwrite64 (fd, buf, len, offset);
}

/* The number of vectors of IOV (COUNT of them, at least one) that hold
   the first LEN bytes, the last one cut to fit into *LAST; LEN is at
   most their total.  */
static int
iov_prefix (struct iovec const *iov, int count, size_t len,
            struct iovec *last)
{
  int i = 0;
  for (; i < count - 1 && iov[i].iov_len < len; i++)
    len -= iov[i].iov_len;
  last->iov_base = iov[i].iov_base;
  last->iov_len = len;
  return i + 1;
}

/* The vectored calls with flags: the total length decides as for
   pread and pwrite, and a call cut short moves a prefix of the
   vectors.  */
static ssize_t
vectored (int op, char const *what, int fd, struct iovec const *iov,
          int count, off_t offset, int flags)
{
  ssize_t (*real) (int, struct iovec const *, int, off_t, int);
  setup ();
  real = op == OP_PREADV2 ? real_preadv2 : real_pwritev2;
  if ((cfg.disabled & op) && flags != 0)
    {
      errno = EOPNOTSUPP;
      return -1;
    }
  if (count < 0)
    return real (fd, iov, count, offset, flags);
  size_t total = 0;
  for (int i = 0; i < count; i++)
    total += iov[i].iov_len;
  size_t len = total;
  int err = (cfg.disabled & op) ? 0 : decide (op, what, fd, offset, &len);
  if (err)
    {
      errno = err;
      return -1;
    }
  if (cfg.corrupt_now && len == total)
    {
      /* One buffer of all the vectors, turned over at FAULT_AT.  */
      char *flat;
      if (posix_memalign ((void **) &flat, 4096, total ? total : 1) == 0)
        {
          size_t at = 0;
          for (int i = 0; i < count; i++)
            {
              memcpy (flat + at, iov[i].iov_base, iov[i].iov_len);
              at += iov[i].iov_len;
            }
          void const *data = corrupted (flat, total, offset);
          struct iovec one = { (void *) data, total };
          ssize_t n = real (fd, &one, 1, offset, flags);
          uncorrupted (data, flat);
          free (flat);
          return n;
        }
    }
  if (len == total)
    return real (fd, iov, count, offset, flags);

  struct iovec last;
  int n = iov_prefix (iov, count, len, &last);
  struct iovec cut[n];
  memcpy (cut, iov, (n - 1) * sizeof *iov);
  cut[n - 1] = last;
  return real (fd, cut, n, offset, flags);
}

ssize_t
preadv64v2 (int fd, struct iovec const *iov, int count, off_t offset,
            int flags)
{
  return vectored (OP_PREADV2, "preadv2", fd, iov, count, offset, flags);
}

ssize_t
preadv2 (int fd, struct iovec const *iov, int count, off_t offset,
         int flags)
{
  return preadv64v2 (fd, iov, count, offset, flags);
}

ssize_t
pwritev64v2 (int fd, struct iovec const *iov, int count, off_t offset,
             int flags)
{
  return vectored (OP_PWRITEV2, "pwritev2", fd, iov, count, offset, flags);
}

ssize_t
pwritev2 (int fd, struct iovec const *iov, int count, off_t offset,
          int flags)
{
  return pwritev64v2 (fd, iov, count, offset, flags);
}

/* The kernel-side copies are aimed at by their input descriptor, or
   else by their output descriptor.  */
static int
decide_pair (int op, char const *what, int in, off_t const *in_off,
             int out, off_t const *out_off, size_t *len)
{
  setup ();
  if (cfg.disabled & op)
    return ENOSYS;
  if (!(cfg.ops & op))
    return 0;
  if (fd_matches (in))
    return decide (op, what, in, in_off ? *in_off : -1, len);
  return decide (op, what, out, out_off ? *out_off : -1, len);
}

ssize_t
copy_file_range (int in, off_t *in_off, int out, off_t *out_off,
                 size_t len, unsigned int flags)
{
  int err = decide_pair (OP_CFR, "copy_file_range", in, in_off,
                         out, out_off, &len);
  if (err)
    {
      errno = err;
      return -1;
    }
  return real_cfr (in, in_off, out, out_off, len, flags);
}

ssize_t
sendfile64 (int out, int in, off_t *offset, size_t len)
{
  int err = decide_pair (OP_SENDFILE, "sendfile", in, offset, out, NULL,
                         &len);
  if (err)
    {
      errno = err;
      return -1;
    }
  return real_sendfile (out, in, offset, len);
}

ssize_t
sendfile (int out, int in, off_t *offset, size_t len)
{
  return sendfile64 (out, in, offset, len);
}

/* In corrupt mode, a file that matches and is opened to be read has
   the byte at FAULT_AT turned over first, through a descriptor of the
   shim's own: the data changed between a copy and its read-back.  */
static void
corrupt_on_open (int fd, int flags)
{
  if (fd < 0 || !(cfg.ops & OP_OPEN) || cfg.mode != MODE_CORRUPT
      || (flags & O_ACCMODE) != O_RDONLY || !fd_matches (fd))
    return;
  size_t len = 1;
  inject ("open", cfg.at, &len);
  if (!cfg.corrupt_now)
    return;
  cfg.corrupt_now = false;
  char name[64];
  snprintf (name, sizeof name, "/proc/self/fd/%d", fd);
  int rw = real_open (name, O_RDWR);
  if (rw < 0)
    return;
  unsigned char c;
  if (real_pread (rw, &c, 1, cfg.at) == 1)
    {
      c ^= 0xff;
      real_pwrite (rw, &c, 1, cfg.at);
    }
  real_close (rw);
}

int
open64 (char const *name, int flags, ...)
{
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, mode_t);
      va_end (ap);
    }
  setup ();
  int fd = real_open (name, flags, mode);
  corrupt_on_open (fd, flags);
  return fd;
}

int open (char const *name, int flags, ...)
  __attribute__ ((alias ("open64")));

int
openat64 (int dirfd, char const *name, int flags, ...)
{
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, mode_t);
      va_end (ap);
    }
  setup ();
  int fd = real_openat (dirfd, name, flags, mode);
  if (fd < 0 || !(cfg.ops & OP_OPENDIR) || !(flags & O_DIRECTORY)
      || !fd_matches (fd))
    return fd;
  size_t len = 0;
  int err = inject ("opendir", 0, &len);
  if (err)
    {
      real_close (fd);
      errno = err;
      return -1;
    }
  return fd;
}

int openat (int dirfd, char const *name, int flags, ...)
  __attribute__ ((alias ("openat64")));

/* What glibc's openat turns into with _FORTIFY_SOURCE, as __open64_2
   below.  */
int
__openat64_2 (int dirfd, char const *name, int flags)
{
  return openat64 (dirfd, name, flags);
}

int __openat_2 (int dirfd, char const *name, int flags)
  __attribute__ ((alias ("__openat64_2")));

/* What glibc's open turns into when built with _FORTIFY_SOURCE and
   given flags it cannot check at compile time.  */
int
__open64_2 (char const *name, int flags)
{
  return open64 (name, flags);
}

int
__open_2 (char const *name, int flags)
{
  return open64 (name, flags);
}

/* A mapping is hit after it is made, so that a resize pulls the file
   out from under pages the program is about to touch.  Error modes
   fail the mmap call itself.  */
void *
mmap64 (void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
  size_t n = len;
  int err = 0;
  bool resize = false;

  setup ();
  if (cfg.disabled & OP_MMAP)
    err = ENODEV;
  else if (cfg.mode == MODE_RESIZE)
    {
      resize = (cfg.ops & OP_MMAP) && 0 <= fd && fd_matches (fd)
               && cfg.count != 0 && cfg.at < offset + (off_t) len;
    }
  else if (0 <= fd)
    err = decide (OP_MMAP, "mmap", fd, offset, &n);
  if (err)
    {
      errno = err;
      return MAP_FAILED;
    }
  void *p = real_mmap (addr, len, prot, flags, fd, offset);
  if (resize && p != MAP_FAILED)
    inject ("mmap", offset, &n);
  return p;
}

void *
mmap (void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
  return mmap64 (addr, len, prot, flags, fd, offset);
}

/* The calls that move no data are hit at FAULT_AT itself, whatever the
   descriptor's offset.  */
static int
decide_at_fault (int op, char const *what, int fd)
{
  size_t len = 0;
  setup ();
  if (cfg.disabled & op)
    return ENOSYS;
  if (!(cfg.ops & op) || !fd_matches (fd))
    return 0;
  return inject (what, cfg.at, &len);
}

int
close (int fd)
{
  int err = decide_at_fault (OP_CLOSE, "close", fd);
  int r = real_close (fd);
  if (err && r == 0)
    {
      errno = err;
      return -1;
    }
  return r;
}

int
fsync (int fd)
{
  int err = decide_at_fault (OP_FSYNC, "fsync", fd);
  if (err)
    {
      errno = err;
      return -1;
    }
  return real_fsync (fd);
}

/* FICLONE is the only request faulted (FAULT_OP=clone), on the
   destination's descriptor, the one the request is made on.  */
int
ioctl (int fd, unsigned long int request, ...)
{
  va_list args;
  va_start (args, request);
  void *arg = va_arg (args, void *);
  va_end (args);
  if (request == FICLONE)
    {
      int err = decide_at_fault (OP_CLONE, "clone", fd);
      if (err)
        {
          errno = err;
          return -1;
        }
    }
  else
    setup ();
  return real_ioctl (fd, request, arg);
}

int
fdatasync (int fd)
{
  int err = decide_at_fault (OP_FDATASYNC, "fdatasync", fd);
  if (err)
    {
      errno = err;
      return -1;
    }
  return real_fdatasync (fd);
}

/* The file system of FD is what syncfs writes: FAULT_FD_PATH matches
   the file FD was opened as.  */
int
syncfs (int fd)
{
  int err = decide_at_fault (OP_SYNCFS, "syncfs", fd);
  if (err)
    {
      errno = err;
      return -1;
    }
  return real_syncfs (fd);
}

/* A file whose times can't be set, as where its owner's are kept on
   a server that refuses them.  */
int
futimens (int fd, struct timespec const times[2])
{
  int err = decide_at_fault (OP_FUTIMENS, "futimens", fd);
  if (err)
    {
      errno = err;
      return -1;
    }
  return real_futimens (fd, times);
}

/* Move FD's offset to OFFSET and return it, as lseek would.  */
static off_t
seek_to (int fd, off_t offset)
{
  return real_lseek (fd, offset, SEEK_SET);
}

/* SEEK_DATA and SEEK_HOLE as FAULT_SEEK says; the rest as usual.  */
off_t
lseek64 (int fd, off_t offset, int whence)
{
  setup ();
  if (cfg.seek == SEEK_MODE_TRUE
      || (whence != SEEK_DATA && whence != SEEK_HOLE) || !fd_matches (fd))
    return real_lseek (fd, offset, whence);

  if (cfg.seek == SEEK_MODE_NONE)
    {
      errno = EINVAL;
      return -1;
    }
  struct stat st;
  if (fstat (fd, &st) != 0)
    return -1;
  if (offset < 0 || st.st_size <= offset)
    {
      errno = ENXIO;
      return -1;
    }
  if (cfg.seek == SEEK_MODE_TRIVIAL)
    return seek_to (fd, whence == SEEK_DATA ? offset : st.st_size);
  if (whence == SEEK_HOLE && cfg.count != 0)
    {
      note ("lseek", offset, 0);
      if (0 < cfg.count)
        cfg.count--;
      return seek_to (fd, offset);
    }
  return real_lseek (fd, offset, whence);
}

off_t
lseek (int fd, off_t offset, int whence)
{
  return lseek64 (fd, offset, whence);
}
