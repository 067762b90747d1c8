/* probe.c -- ask the system, as our programs would, what it can do.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* Built for the target as our programs are, and run as they are, so
   that under qemu-user (make check-cross) it meets the emulator's
   system calls, not the host's.  The tests compare what it finds with
   what cp --debug says it used.

     probe machine                  the CPU uname names: under
                                    qemu-user the emulated one, where
                                    the tests' native shell hears the
                                    host's (diff-helpers.sh's emulated_)
     probe copy_file_range IN OUT   whether the kernel copies IN's first
                                    byte to OUT with copy_file_range
     probe io_uring                 whether io_uring_setup makes a ring
     probe dontcache FILE           whether a write to FILE with
                                    RWF_DONTCACHE is taken
     probe mmap_high FILE           whether a mapping of FILE at an
                                    offset past 4 GiB shows the bytes
                                    there (qemu-arm 7.2 cuts the
                                    offset to 32 bits)
     probe sigbus FILE              whether the SIGBUS of a mapping of
                                    FILE past its end names an address
                                    in the page touched (qemu-s390x
                                    7.2's does not, and qemu-arm 7.2's
                                    is a page too high)

   Each but the first prints "yes", or "no" and the error's number;
   the exit status is 0 unless the probe itself went wrong.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

static int
answer (bool yes, int err)
{
  int n = yes ? printf ("yes\n") : printf ("no %d\n", err);
  return n < 0 || fflush (stdout) != 0;
}

static int
machine (void)
{
  struct utsname u;
  if (uname (&u) != 0)
    {
      perror ("probe: uname");
      return 1;
    }
  return printf ("%s\n", u.machine) < 0 || fflush (stdout) != 0;
}

static int
offload (char const *in, char const *out)
{
  int ifd = open (in, O_RDONLY);
  int ofd = open (out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (ifd < 0 || ofd < 0)
    {
      perror ("probe: open");
      return 1;
    }
#if HAVE_COPY_FILE_RANGE
  ssize_t n = copy_file_range (ifd, NULL, ofd, NULL, 1, 0);
  int err = errno;
#else
  ssize_t n = -1;
  int err = ENOSYS;
#endif
  close (ifd);
  close (ofd);
  return answer (n == 1, n < 0 ? err : 0);
}

static int
uring (void)
{
#ifdef SYS_io_uring_setup
  /* Room for the parameters the kernel fills in: struct io_uring_params
     is 120 bytes, and zeros ask for no feature.  */
  long params[32];
  memset (params, 0, sizeof params);
  long fd = syscall (SYS_io_uring_setup, 2, params);
  int err = errno;
  if (0 <= fd)
    close (fd);
  return answer (0 <= fd, err);
#else
  return answer (false, ENOSYS);
#endif
}

static int
dontcache (char const *file)
{
  int fd = open (file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    {
      perror ("probe: open");
      return 1;
    }
#if HAVE_PWRITEV2
  /* Linux's value, which older headers lack.  */
  char byte = 'x';
  struct iovec iov = { &byte, 1 };
  ssize_t n = pwritev2 (fd, &iov, 1, -1, 0x00000080);
  int err = errno;
#else
  ssize_t n = -1;
  int err = ENOSYS;
#endif
  close (fd);
  return answer (n == 1, n < 0 ? err : 0);
}

static int
mmap_high (char const *file)
{
  off_t high = (off_t) 1 << 32;
  long page = sysconf (_SC_PAGESIZE);
  int fd = open (file, O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || pwrite (fd, "x", 1, high + 1) != 1)
    {
      perror ("probe: mmap_high");
      return 1;
    }
  char const *p = mmap (NULL, page, PROT_READ, MAP_SHARED, fd, high);
  int err = errno;
  bool seen = p != MAP_FAILED && p[1] == 'x';
  if (p != MAP_FAILED)
    munmap ((void *) p, page);
  close (fd);
  return answer (seen, p == MAP_FAILED ? err : 0);
}

/* The mapping sigbus touches, for the handler.  */
static char *volatile mapped;
enum { MAPPED_PAGES = 3 };

/* The page sigbus touches: the mapping's last, so that an address
   reported a page or more off falls outside the mapping, as it does
   for the mmap reader (xfer-window.c) when its window's last page is
   the one that faults.  */
static char const *
touched_page (void)
{
  long page = sysconf (_SC_PAGESIZE);
  return mapped + (MAPPED_PAGES - 1) * page;
}

static void
on_sigbus (int sig, siginfo_t *info, void *context)
{
  long page = sysconf (_SC_PAGESIZE);
  char const *addr = info->si_addr;
  char const *page_start = touched_page ();
  _exit (answer (page_start <= addr && addr < page_start + page, 0));
}

static int
sigbus (char const *file)
{
  long page = sysconf (_SC_PAGESIZE);
  int fd = open (file, O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || ftruncate (fd, MAPPED_PAGES * page) != 0)
    {
      perror ("probe: sigbus");
      return 1;
    }
  mapped = mmap (NULL, MAPPED_PAGES * page, PROT_READ, MAP_SHARED, fd, 0);
  struct sigaction act = { .sa_sigaction = on_sigbus,
                           .sa_flags = SA_SIGINFO };
  if (mapped == MAP_FAILED || ftruncate (fd, 0) != 0
      || sigaction (SIGBUS, &act, NULL) != 0)
    {
      perror ("probe: sigbus");
      return 1;
    }
  /* A byte past the new end, not at a page's start.  */
  char byte = touched_page ()[100];
  fprintf (stderr, "probe: no SIGBUS past the end of %s (%d)\n", file, byte);
  return 1;
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "machine") == 0)
    return machine ();
  if (argc == 4 && strcmp (argv[1], "copy_file_range") == 0)
    return offload (argv[2], argv[3]);
  if (argc == 2 && strcmp (argv[1], "io_uring") == 0)
    return uring ();
  if (argc == 3 && strcmp (argv[1], "dontcache") == 0)
    return dontcache (argv[2]);
  if (argc == 3 && strcmp (argv[1], "mmap_high") == 0)
    return mmap_high (argv[2]);
  if (argc == 3 && strcmp (argv[1], "sigbus") == 0)
    return sigbus (argv[2]);
  fprintf (stderr, "probe: usage: probe machine | copy_file_range IN OUT"
           " | io_uring | dontcache FILE | mmap_high FILE"
           " | sigbus FILE\n");
  return 2;
}
