/* plainfuse -- a FUSE file system for cpdd's tests: a directory passed
   through, with none of the calls a copy may hope for.

   Usage: plainfuse [--delay=MICROSECONDS] BACKING-DIR MOUNT-POINT
                    [FUSE-OPTION...]

   Files are opened, read and written with plain calls.  It has no
   lseek operation, so SEEK_DATA and SEEK_HOLE see one extent of data;
   no copy_file_range, fallocate or extended attributes; and an open
   asking for O_DIRECT is refused with EINVAL, as some network and FUSE
   file systems do.  It stands for the file systems that answer a copy
   worst, so that the tests can show the copy still comes out right.

   With --delay, every operation waits that long before it is done, as
   a network file system's calls wait for their round trip to a server.
   The wait is a sleep, not work, so a copy that has many calls in
   flight at once is timed as it would be on such a file system, even
   on a machine with few CPUs.  Attributes and names are then kept by
   the kernel for a second, as NFS clients keep them.  A create, open,
   write or change of attributes costs one round trip, as on NFS; a
   lookup of a name not yet known costs one more.  */

#define FUSE_USE_VERSION 31

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* The backing directory, open.  */
static int root_fd = -1;

/* The round trip each operation waits for, or zero.  */
static struct timespec delay;

/* Whether this thread's call that just succeeded made something or
   changed its attributes.  FUSE then asks for the attributes to put in
   its reply; an NFS server's reply to such a call carries them, so
   that question costs no round trip of its own.  */
static __thread bool reply_has_attributes;

/* ANSWER, a result as status gives it, of a call whose reply carries
   the attributes when it succeeds.  */
static int
answered_with_attributes (int answer)
{
  reply_has_attributes = answer == 0;
  return answer;
}

static void
round_trip (void)
{
  if (delay.tv_sec || delay.tv_nsec)
    {
      struct timespec left = delay;
      while (nanosleep (&left, &left) != 0 && errno == EINTR)
        continue;
    }
}

/* PATH, as FUSE gives it, relative to the backing directory.  */
static char const *
rel (char const *path)
{
  while (*path == '/')
    path++;
  return *path ? path : ".";
}

/* -errno if RESULT is negative, else 0.  */
static int
status (int result)
{
  return result < 0 ? -errno : 0;
}

/* status (RESULT), of a call that made something or changed its
   attributes.  */
static int
changed (int result)
{
  return answered_with_attributes (status (result));
}

static void *
pf_init (struct fuse_conn_info *conn, struct fuse_config *cfg)
{
  (void) conn;
  /* The backing files' inode numbers, so that hard links are seen as
     such; and no caching of attributes that another path changed.  */
  cfg->use_ino = 1;
  double keep = delay.tv_sec || delay.tv_nsec ? 1 : 0;
  cfg->attr_timeout = keep;
  cfg->entry_timeout = keep;
  cfg->negative_timeout = 0;
  return NULL;
}

static int
pf_getattr (char const *path, struct stat *st, struct fuse_file_info *fi)
{
  if (reply_has_attributes)
    reply_has_attributes = false;
  else
    round_trip ();
  if (fi)
    return status (fstat (fi->fh, st));
  return status (fstatat (root_fd, rel (path), st, AT_SYMLINK_NOFOLLOW));
}

static int
pf_readlink (char const *path, char *buf, size_t size)
{
  round_trip ();
  ssize_t n = readlinkat (root_fd, rel (path), buf, size - 1);
  if (n < 0)
    return -errno;
  buf[n] = '\0';
  return 0;
}

static int
pf_mknod (char const *path, mode_t mode, dev_t rdev)
{
  round_trip ();
  return changed (mknodat (root_fd, rel (path), mode, rdev));
}

static int
pf_mkdir (char const *path, mode_t mode)
{
  round_trip ();
  return changed (mkdirat (root_fd, rel (path), mode));
}

static int
pf_unlink (char const *path)
{
  round_trip ();
  return status (unlinkat (root_fd, rel (path), 0));
}

static int
pf_rmdir (char const *path)
{
  round_trip ();
  return status (unlinkat (root_fd, rel (path), AT_REMOVEDIR));
}

static int
pf_symlink (char const *target, char const *path)
{
  round_trip ();
  return changed (symlinkat (target, root_fd, rel (path)));
}

static int
pf_rename (char const *from, char const *to, unsigned int flags)
{
  round_trip ();
  return status (renameat2 (root_fd, rel (from), root_fd, rel (to), flags));
}

static int
pf_link (char const *from, char const *to)
{
  round_trip ();
  return changed (linkat (root_fd, rel (from), root_fd, rel (to), 0));
}

static int
pf_chmod (char const *path, mode_t mode, struct fuse_file_info *fi)
{
  round_trip ();
  if (fi)
    return changed (fchmod (fi->fh, mode));
  return changed (fchmodat (root_fd, rel (path), mode, 0));
}

static int
pf_chown (char const *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
  round_trip ();
  if (fi)
    return changed (fchown (fi->fh, uid, gid));
  return changed (fchownat (root_fd, rel (path), uid, gid,
                            AT_SYMLINK_NOFOLLOW));
}

static int
pf_truncate (char const *path, off_t size, struct fuse_file_info *fi)
{
  round_trip ();
  if (fi)
    return changed (ftruncate (fi->fh, size));
  int fd = openat (root_fd, rel (path), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  int r = status (ftruncate (fd, size));
  close (fd);
  return answered_with_attributes (r);
}

static int
pf_utimens (char const *path, struct timespec const ts[2],
            struct fuse_file_info *fi)
{
  round_trip ();
  if (fi)
    return changed (futimens (fi->fh, ts));
  return changed (utimensat (root_fd, rel (path), ts,
                             AT_SYMLINK_NOFOLLOW));
}

/* Open PATH with FLAGS (and MODE, when creating) into FI.  */
static int
open_file (char const *path, int flags, mode_t mode,
           struct fuse_file_info *fi)
{
  if (flags & O_DIRECT)
    return -EINVAL;
  int fd = openat (root_fd, rel (path), flags | O_CLOEXEC, mode);
  if (fd < 0)
    return -errno;
  fi->fh = fd;
  return 0;
}

static int
pf_open (char const *path, struct fuse_file_info *fi)
{
  round_trip ();
  return open_file (path, fi->flags, 0, fi);
}

static int
pf_create (char const *path, mode_t mode, struct fuse_file_info *fi)
{
  round_trip ();
  return answered_with_attributes (open_file (path, fi->flags | O_CREAT,
                                              mode, fi));
}

static int
pf_read (char const *path, char *buf, size_t size, off_t offset,
         struct fuse_file_info *fi)
{
  round_trip ();
  (void) path;
  ssize_t n = pread (fi->fh, buf, size, offset);
  return n < 0 ? -errno : n;
}

static int
pf_write (char const *path, char const *buf, size_t size, off_t offset,
          struct fuse_file_info *fi)
{
  round_trip ();
  (void) path;
  ssize_t n = pwrite (fi->fh, buf, size, offset);
  return n < 0 ? -errno : n;
}

static int
pf_statfs (char const *path, struct statvfs *st)
{
  round_trip ();
  (void) path;
  return status (fstatvfs (root_fd, st));
}

static int
pf_release (char const *path, struct fuse_file_info *fi)
{
  round_trip ();
  (void) path;
  return status (close (fi->fh));
}

static int
pf_fsync (char const *path, int datasync, struct fuse_file_info *fi)
{
  round_trip ();
  (void) path;
  return status (datasync ? fdatasync (fi->fh) : fsync (fi->fh));
}

static int
pf_opendir (char const *path, struct fuse_file_info *fi)
{
  round_trip ();
  int fd = openat (root_fd, rel (path),
                   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  DIR *dir = fdopendir (fd);
  if (!dir)
    {
      int err = errno;
      close (fd);
      return -err;
    }
  fi->fh = (uintptr_t) dir;
  return 0;
}

static int
pf_readdir (char const *path, void *buf, fuse_fill_dir_t fill, off_t offset,
            struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
  round_trip ();
  (void) path;
  (void) offset;
  (void) flags;
  DIR *dir = (DIR *) (uintptr_t) fi->fh;
  rewinddir (dir);
  for (;;)
    {
      errno = 0;
      struct dirent *e = readdir (dir);
      if (!e)
        return -errno;
      struct stat st = { .st_ino = e->d_ino, .st_mode = DTTOIF (e->d_type) };
      if (fill (buf, e->d_name, &st, 0, 0))
        return 0;
    }
}

static int
pf_fsyncdir (char const *path, int datasync, struct fuse_file_info *fi)
{
  round_trip ();
  (void) path;
  (void) datasync;
  return status (fsync (dirfd ((DIR *) (uintptr_t) fi->fh)));
}

static int
pf_releasedir (char const *path, struct fuse_file_info *fi)
{
  round_trip ();
  (void) path;
  return status (closedir ((DIR *) (uintptr_t) fi->fh));
}

static struct fuse_operations const ops = {
  .init = pf_init,
  .getattr = pf_getattr,
  .readlink = pf_readlink,
  .mknod = pf_mknod,
  .mkdir = pf_mkdir,
  .unlink = pf_unlink,
  .rmdir = pf_rmdir,
  .symlink = pf_symlink,
  .rename = pf_rename,
  .link = pf_link,
  .chmod = pf_chmod,
  .chown = pf_chown,
  .truncate = pf_truncate,
  .utimens = pf_utimens,
  .open = pf_open,
  .create = pf_create,
  .read = pf_read,
  .write = pf_write,
  .statfs = pf_statfs,
  .release = pf_release,
  .fsync = pf_fsync,
  .opendir = pf_opendir,
  .readdir = pf_readdir,
  .releasedir = pf_releasedir,
  .fsyncdir = pf_fsyncdir,
};

/* Set the delay from ARG, a number of microseconds; false if it is
   not one.  */
static bool
set_delay (char const *arg)
{
  char *end;
  errno = 0;
  long usec = strtol (arg, &end, 10);
  if (errno || end == arg || *end || usec < 0)
    return false;
  delay.tv_sec = usec / 1000000;
  delay.tv_nsec = usec % 1000000 * 1000;
  return true;
}

int
main (int argc, char **argv)
{
  static char const delay_opt[] = "--delay=";
  if (argc > 1 && strncmp (argv[1], delay_opt, sizeof delay_opt - 1) == 0)
    {
      if (!set_delay (argv[1] + sizeof delay_opt - 1))
        {
          fprintf (stderr, "%s: %s: not a number of microseconds\n",
                   argv[0], argv[1]);
          return 2;
        }
      argv[1] = argv[0];
      argv++;
      argc--;
    }
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s [--delay=MICROSECONDS] BACKING-DIR"
               " MOUNT-POINT [OPTION...]\n", argv[0]);
      return 2;
    }
  root_fd = open (argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0)
    {
      perror (argv[1]);
      return 1;
    }
  /* Files are made with the modes asked for, not masked again here.  */
  umask (0);
  argv[1] = argv[0];
  return fuse_main (argc - 1, argv + 1, &ops, NULL);
}
