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

   Each but the first prints "yes", or "no" and the error's number;
   the exit status is 0 unless the probe itself went wrong.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
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
  fprintf (stderr, "probe: usage: probe machine | copy_file_range IN OUT"
           " | io_uring | dontcache FILE\n");
  return 2;
}
