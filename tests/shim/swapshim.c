/* swapshim.c -- an LD_PRELOAD library that swaps a directory for a
   symbolic link at a chosen call, for race tests.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* A race between cp and someone replacing a directory of the source
   or the destination is won by the other side whenever the tests say
   so: just before the call they name, this library renames the
   directory SWAP_DIR to SWAP_DIR.moved and puts a symbolic link to
   SWAP_TARGET in its place, once.  It is driven by the environment:

   SWAP_DIR     the directory to replace, an absolute name
   SWAP_TARGET  what the symbolic link put there says
   SWAP_CALL    the calls that can set it off, a comma-separated list
                of openat mkdirat closedir fchmod fchmodat fchown
                fchownat futimens utimensat
   SWAP_PATH    a glob (fnmatch, without FNM_PATHNAME) the file the
                call is about must match: for a call given a directory
                descriptor and a name, the directory's name in
                /proc/self/fd, a slash and the name; for one given a
                descriptor, its name there; closedir always matches,
                and stands for the end of a listing by getdents64 too
   SWAP_FLAGS   for openat, "creat" to match only calls that may create
                the file, "dir" only those that open a directory
   SWAP_NTH     swap at the Nth matching call (default 1)
   SWAP_LOG     a file to which "swapped CALL PATH" is appended when the
                swap happens, so a test can tell that it did.  */

#define _GNU_SOURCE 1

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool swapped;
static long matches;

/* Whether CALL is one of SWAP_CALL's.  */
static bool
armed_for (char const *call)
{
  char const *calls = getenv ("SWAP_CALL");
  if (swapped || !calls || !getenv ("SWAP_DIR"))
    return false;
  size_t len = strlen (call);
  for (char const *p = calls; *p; )
    {
      size_t n = strcspn (p, ",");
      if (n == len && memcmp (p, call, n) == 0)
        return true;
      p += n + (p[n] == ',');
    }
  return false;
}

/* The name of descriptor FD (AT_FDCWD: the working directory) in BUF.  */
static void
fd_name (int fd, char *buf, size_t size)
{
  buf[0] = '\0';
  if (fd == AT_FDCWD)
    {
      if (!getcwd (buf, size))
        buf[0] = '\0';
      return;
    }
  char link[64];
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink (link, buf, size - 1);
  buf[n < 0 ? 0 : n] = '\0';
}

/* Swap now.  */
static void
do_swap (char const *call, char const *path)
{
  char const *dir = getenv ("SWAP_DIR");
  char const *target = getenv ("SWAP_TARGET");
  char moved[PATH_MAX];
  int saved = errno;
  swapped = true;
  snprintf (moved, sizeof moved, "%s.moved", dir);
  if (rename (dir, moved) != 0 || symlink (target ? target : "/", dir) != 0)
    {
      perror ("swapshim");
      abort ();
    }
  char const *log = getenv ("SWAP_LOG");
  FILE *f = log ? fopen (log, "a") : NULL;
  if (f)
    {
      fprintf (f, "swapped %s %s\n", call, path);
      fclose (f);
    }
  errno = saved;
}

/* CALL is about PATH: swap if it is the one.  */
static void
maybe_swap (char const *call, char const *path)
{
  char const *glob = getenv ("SWAP_PATH");
  if (glob && fnmatch (glob, path, 0) != 0)
    return;
  char const *nth = getenv ("SWAP_NTH");
  if (++matches < (nth ? atol (nth) : 1))
    return;
  do_swap (call, path);
}

/* CALL is about NAME in the directory DIRFD.  */
static void
check_at (char const *call, int dirfd, char const *name)
{
  if (!armed_for (call))
    return;
  char path[2 * PATH_MAX];
  if (name[0] == '/')
    snprintf (path, sizeof path, "%s", name);
  else
    {
      char dir[PATH_MAX];
      fd_name (dirfd, dir, sizeof dir);
      snprintf (path, sizeof path, "%s/%s", dir, name);
    }
  maybe_swap (call, path);
}

/* CALL is about the file open as FD.  */
static void
check_fd (char const *call, int fd)
{
  if (!armed_for (call))
    return;
  char path[PATH_MAX];
  fd_name (fd, path, sizeof path);
  maybe_swap (call, path);
}

/* Set real_ to the next definition of FN, under the name NAME.  */
#define REAL(name, fn) \
  static __typeof__ (&fn) real_; \
  if (!real_) \
    real_ = (__typeof__ (&fn)) dlsym (RTLD_NEXT, name)

static bool
open_flags_match (int flags)
{
  char const *want = getenv ("SWAP_FLAGS");
  if (!want)
    return true;
  if (strcmp (want, "creat") == 0)
    return flags & O_CREAT;
  if (strcmp (want, "dir") == 0)
    return flags & O_DIRECTORY;
  return true;
}

static int
do_openat (int dirfd, char const *name, int flags, mode_t mode)
{
  REAL ("openat", openat);
  if (open_flags_match (flags))
    check_at ("openat", dirfd, name);
  return real_ (dirfd, name, flags, mode);
}

int
openat (int dirfd, char const *name, int flags, ...)
{
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, mode_t);
      va_end (ap);
    }
  return do_openat (dirfd, name, flags, mode);
}

/* What an openat call without a mode becomes in a program built with
   _FORTIFY_SOURCE, as the Debian package's cp is.  */
int
__openat_2 (int dirfd, char const *name, int flags)
{
  return do_openat (dirfd, name, flags, 0);
}

/* The 64-bit names are the same calls on the systems the shim is
   built for (it is not built where off_t has 32 bits).  */
int openat64 (int, char const *, int, ...) __attribute__ ((alias ("openat")));
int __openat64_2 (int, char const *, int)
  __attribute__ ((alias ("__openat_2")));

int
mkdirat (int dirfd, char const *name, mode_t mode)
{
  REAL ("mkdirat", mkdirat);
  check_at ("mkdirat", dirfd, name);
  return real_ (dirfd, name, mode);
}

int
closedir (DIR *dirp)
{
  REAL ("closedir", closedir);
  if (armed_for ("closedir"))
    maybe_swap ("closedir", "");
  return real_ (dirp);
}

/* A directory read without a stream is done with when getdents64
   finds nothing more: "closedir" stands for that moment too.  */
ssize_t
getdents64 (int fd, void *buf, size_t size)
{
  REAL ("getdents64", getdents64);
  ssize_t n = real_ (fd, buf, size);
  if (n == 0 && armed_for ("closedir"))
    maybe_swap ("closedir", "");
  return n;
}

int
fchmod (int fd, mode_t mode)
{
  REAL ("fchmod", fchmod);
  check_fd ("fchmod", fd);
  return real_ (fd, mode);
}

int
fchmodat (int dirfd, char const *name, mode_t mode, int flags)
{
  REAL ("fchmodat", fchmodat);
  check_at ("fchmodat", dirfd, name);
  return real_ (dirfd, name, mode, flags);
}

int
fchown (int fd, uid_t uid, gid_t gid)
{
  REAL ("fchown", fchown);
  check_fd ("fchown", fd);
  return real_ (fd, uid, gid);
}

int
fchownat (int dirfd, char const *name, uid_t uid, gid_t gid, int flags)
{
  REAL ("fchownat", fchownat);
  check_at ("fchownat", dirfd, name);
  return real_ (dirfd, name, uid, gid, flags);
}

int
futimens (int fd, struct timespec const ts[2])
{
  REAL ("futimens", futimens);
  check_fd ("futimens", fd);
  return real_ (fd, ts);
}

int
utimensat (int dirfd, char const *name, struct timespec const ts[2],
           int flags)
{
  REAL ("utimensat", utimensat);
  check_at ("utimensat", dirfd, name);
  return real_ (dirfd, name, ts, flags);
}
