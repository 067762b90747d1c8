/* plainfuse -- a FUSE file system for cpdd's tests: a directory passed
   through, with none of the calls a copy may hope for.

   Usage: plainfuse [--delay=MICROSECONDS] [--journal=DIR] BACKING-DIR
                    MOUNT-POINT [FUSE-OPTION...]

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
   lookup of a name not yet known costs one more.

   With --journal, it is also the crash-simulating file system of the
   crash tests (tests/fs/crash-lib.sh, whose model tests/fs/CRASH-MODEL
   states).  It then serves requests one at a time, in the order the
   kernel sends them, and writes to DIR/log a line for every call that
   changes something, numbered in order: that number is the crash
   point.  What each call made durable is kept beside it: an fsync or
   fdatasync of a file copies the file's data to DIR/data/N-INODE and
   logs its attributes; an fsyncdir logs the directory's entries and
   attributes.  The bytes each write wrote are kept too (also in
   DIR/data/N-INODE), for the state a kill of the program leaves.  The
   backing directory's content when mounted is logged as durable under
   number 0.  Objects are named by their backing inode
   numbers; a "new" line starts a new object under a number that may
   have been used before.  tests/fs/crash-state.pl reads the log back
   into the state a crash before any numbered call leaves.  Here the
   file system also answers lseek (so SEEK_DATA and SEEK_HOLE see the
   backing file's holes), and unlinks at once a file still open.

   The log's lines are "N<TAB>WHAT<TAB>FIELD...", names and symbolic
   link targets with every byte but [A-Za-z0-9._+,-] written %XX:
     0 root INO                        the backing directory
     N new PARENT NAME                 NAME made in PARENT; a state line
                                       follows with the new object
     N state HOW INO TYPE MODE UID GID ATIME MTIME SIZE EXTRA
                                       HOW: new (as made), sync (made
                                       durable by fsync: data and
                                       attributes), data (fdatasync:
                                       data and size only), now (after
                                       a change of attributes); TYPE as
                                       find's %y; EXTRA the link target
                                       or device number, else "-"
     N dir INO NAME:INO...             the entries fsyncdir made durable
     N link PARENT NAME INO            a hard link made
     N unlink PARENT NAME              a name removed (unlink, rmdir)
     N rename PARENT NAME PARENT2 NAME2 FLAGS
     N trunc INO SIZE                  a size set (truncate, O_TRUNC)
     N write INO OFFSET LENGTH         the bytes written in data/N-INO
     N attr INO                        a mode, owner or times changed
     N fsync INO / fsyncdir INO / release INO
   */

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
#include <stdarg.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* The backing directory, open.  */
static int root_fd = -1;

/* The round trip each operation waits for, or zero.  */
static struct timespec delay;

/* With --journal: its directory, open; the log in it; and the number
   of the last call logged.  */
static int journal_fd = -1;
static FILE *journal;
static unsigned long op_number;

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

/* The journal, with --journal.  Any failure to keep it ends the file
   system: a crash test must never check a state that was not logged.  */

static _Noreturn void
journal_failure (char const *what)
{
  perror (what);
  abort ();
}

/* Start the log's line for the next numbered call, of kind WHAT.  */
static void
log_call (char const *what)
{
  op_number++;
  fprintf (journal, "%lu\t%s", op_number, what);
}

/* Start a line of kind WHAT that belongs to the call last numbered.  */
static void
log_more (char const *what)
{
  fprintf (journal, "%lu\t%s", op_number, what);
}

static void
log_number (uintmax_t n)
{
  fprintf (journal, "\t%ju", n);
}

/* Write NAME to the log after SEP, with every byte that could be
   taken for a separator written %XX.  */
static void
log_name (char sep, char const *name)
{
  putc (sep, journal);
  for (unsigned char const *p = (unsigned char const *) name; *p; p++)
    if (('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z')
        || ('0' <= *p && *p <= '9') || strchr ("._+,-", *p))
      putc (*p, journal);
    else
      fprintf (journal, "%%%02X", *p);
}

static void
log_end (void)
{
  putc ('\n', journal);
  if (fflush (journal) != 0)
    journal_failure ("journal");
}

/* PATH's attributes, as the backing file system has them.  */
static struct stat
stat_of (char const *path)
{
  struct stat st;
  if (fstatat (root_fd, rel (path), &st, AT_SYMLINK_NOFOLLOW) != 0)
    journal_failure (path);
  return st;
}

static ino_t
ino_of (char const *path, struct fuse_file_info *fi)
{
  struct stat st;
  if (fi ? fstat (fi->fh, &st) != 0 : false)
    journal_failure ("fstat");
  return fi ? st.st_ino : stat_of (path).st_ino;
}

/* The inode number of the directory that holds PATH, and in *NAME
   PATH's last component.  */
static ino_t
parent_of (char const *path, char const **name)
{
  char const *slash = strrchr (path, '/');
  char dir[PATH_MAX];
  size_t len = slash - path;
  memcpy (dir, path, len);
  dir[len] = '\0';
  *name = slash + 1;
  return stat_of (dir).st_ino;
}

/* Log a state line: HOW, ST, and TARGET for a symbolic link.  */
static void
log_state (char const *how, struct stat const *st, char const *target)
{
  log_more ("state");
  log_name ('\t', how);
  log_number (st->st_ino);
  char type = (S_ISREG (st->st_mode) ? 'f' : S_ISDIR (st->st_mode) ? 'd'
               : S_ISLNK (st->st_mode) ? 'l' : S_ISFIFO (st->st_mode) ? 'p'
               : S_ISCHR (st->st_mode) ? 'c' : S_ISBLK (st->st_mode) ? 'b'
               : 's');
  fprintf (journal, "\t%c\t%o", type, (unsigned int) (st->st_mode & 07777));
  log_number (st->st_uid);
  log_number (st->st_gid);
  fprintf (journal, "\t%jd.%09ld\t%jd.%09ld",
           (intmax_t) st->st_atim.tv_sec, st->st_atim.tv_nsec,
           (intmax_t) st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
  log_number (st->st_size);
  if (target)
    log_name ('\t', target);
  else if (type == 'c' || type == 'b')
    fprintf (journal, "\t%u,%u", major (st->st_rdev), minor (st->st_rdev));
  else
    fputs ("\t-", journal);
  log_end ();
}

/* Log the state of the object NAME in DIRFD, made durable (HOW sync)
   or as it was made (HOW new); for a symbolic link with its target.  */
static void
log_state_at (char const *how, int dirfd, char const *name)
{
  struct stat st;
  if (fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    journal_failure (name);
  char target[PATH_MAX];
  ssize_t n = 0;
  if (S_ISLNK (st.st_mode))
    {
      n = readlinkat (dirfd, name, target, sizeof target - 1);
      if (n < 0)
        journal_failure (name);
      target[n] = '\0';
    }
  log_state (how, &st, S_ISLNK (st.st_mode) ? target : NULL);
}

/* A new file data/N-INO in the journal, N the number of the call last
   logged, open to write; its name in NAME.  */
static int
journal_file (ino_t ino, char name[64])
{
  snprintf (name, 64, "data/%lu-%ju", op_number, (uintmax_t) ino);
  int out = openat (journal_fd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                    0600);
  if (out < 0)
    journal_failure (name);
  return out;
}

/* Keep the N bytes of BUF that the call last logged wrote to INO.  */
static void
keep_bytes (char const *buf, size_t n, ino_t ino)
{
  char name[64];
  int out = journal_file (ino, name);
  if (write (out, buf, n) != (ssize_t) n || close (out) != 0)
    journal_failure (name);
}

/* Copy the data of the regular file open on FD to the journal's
   data/N-INO, N the number of the call last logged.  */
static void
keep_data (int fd, ino_t ino)
{
  char name[64];
  int out = journal_file (ino, name);
  char buf[65536];
  for (off_t off = 0;; )
    {
      ssize_t n = pread (fd, buf, sizeof buf, off);
      if (n < 0)
        journal_failure ("read for the journal");
      if (n == 0)
        break;
      if (write (out, buf, n) != n)
        journal_failure (name);
      off += n;
    }
  if (close (out) != 0)
    journal_failure (name);
}

/* Log the entries of the directory open on FD as made durable, and
   its attributes.  */
static void
log_dir (int fd)
{
  int dfd = openat (fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *dir = dfd < 0 ? NULL : fdopendir (dfd);
  if (!dir)
    journal_failure ("directory for the journal");
  struct stat st;
  if (fstat (dfd, &st) != 0)
    journal_failure ("fstat");
  log_more ("dir");
  log_number (st.st_ino);
  char sep = '\t';
  for (struct dirent *e; (errno = 0, e = readdir (dir)); )
    {
      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      /* d_ino is not st_ino on some file systems (overlayfs).  */
      struct stat est;
      if (fstatat (dfd, e->d_name, &est, AT_SYMLINK_NOFOLLOW) != 0)
        journal_failure (e->d_name);
      log_name (sep, e->d_name);
      sep = ' ';
      fprintf (journal, ":%ju", (uintmax_t) est.st_ino);
    }
  if (errno)
    journal_failure ("readdir");
  closedir (dir);
  if (sep == '\t')
    putc ('\t', journal);
  log_end ();
  log_state ("sync", &st, NULL);
}

/* Log the tree under the directory open on FD as durable, each regular
   file's data kept.  */
static void
log_initial (int fd)
{
  log_dir (fd);
  int dfd = openat (fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *dir = dfd < 0 ? NULL : fdopendir (dfd);
  if (!dir)
    journal_failure ("directory for the journal");
  for (struct dirent *e; (errno = 0, e = readdir (dir)); )
    {
      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      struct stat st;
      if (fstatat (dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        journal_failure (e->d_name);
      if (S_ISDIR (st.st_mode))
        {
          int sub = openat (dfd, e->d_name,
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (sub < 0)
            journal_failure (e->d_name);
          log_initial (sub);
          close (sub);
          continue;
        }
      log_state_at ("sync", dfd, e->d_name);
      if (S_ISREG (st.st_mode))
        {
          int in = openat (dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
          if (in < 0)
            journal_failure (e->d_name);
          keep_data (in, st.st_ino);
          close (in);
        }
    }
  if (errno)
    journal_failure ("readdir");
  closedir (dir);
}

/* Log PATH, just made, as a new object.  */
static void
log_new (char const *path)
{
  char const *name;
  ino_t parent = parent_of (path, &name);
  log_call ("new");
  log_number (parent);
  log_name ('\t', name);
  log_end ();
  char const *slash = strrchr (path, '/');
  char dir[PATH_MAX];
  memcpy (dir, path, slash - path);
  dir[slash - path] = '\0';
  int dfd = openat (root_fd, rel (dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    journal_failure (dir);
  log_state_at ("new", dfd, name);
  close (dfd);
}

/* Log a call WHAT about the object INO, with N numbers from ARGS.  */
static void
log_ino (char const *what, ino_t ino, int n, ...)
{
  log_call (what);
  log_number (ino);
  va_list args;
  va_start (args, n);
  while (n--)
    log_number (va_arg (args, uintmax_t));
  va_end (args);
  log_end ();
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
  if (journal)
    {
      /* Writes reach the file system as the program makes them, not
         later from the kernel's cache; and an unlinked file still open
         is not renamed to a hidden name, which would show in the
         crash states.  */
      conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
      cfg->hard_remove = 1;
    }
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
  int r = changed (mknodat (root_fd, rel (path), mode, rdev));
  if (r == 0 && journal)
    log_new (path);
  return r;
}

static int
pf_mkdir (char const *path, mode_t mode)
{
  round_trip ();
  int r = changed (mkdirat (root_fd, rel (path), mode));
  if (r == 0 && journal)
    log_new (path);
  return r;
}

/* Remove PATH with unlinkat's FLAGS.  */
static int
removed (char const *path, int flags)
{
  char const *name;
  ino_t parent = journal ? parent_of (path, &name) : 0;
  int r = status (unlinkat (root_fd, rel (path), flags));
  if (r == 0 && journal)
    {
      log_call ("unlink");
      log_number (parent);
      log_name ('\t', name);
      log_end ();
    }
  return r;
}

static int
pf_unlink (char const *path)
{
  round_trip ();
  return removed (path, 0);
}

static int
pf_rmdir (char const *path)
{
  round_trip ();
  return removed (path, AT_REMOVEDIR);
}

static int
pf_symlink (char const *target, char const *path)
{
  round_trip ();
  int r = changed (symlinkat (target, root_fd, rel (path)));
  if (r == 0 && journal)
    log_new (path);
  return r;
}

static int
pf_rename (char const *from, char const *to, unsigned int flags)
{
  round_trip ();
  char const *from_name, *to_name;
  ino_t from_parent = journal ? parent_of (from, &from_name) : 0;
  ino_t to_parent = journal ? parent_of (to, &to_name) : 0;
  int r = status (renameat2 (root_fd, rel (from), root_fd, rel (to), flags));
  if (r == 0 && journal)
    {
      log_call ("rename");
      log_number (from_parent);
      log_name ('\t', from_name);
      log_number (to_parent);
      log_name ('\t', to_name);
      log_number (flags);
      log_end ();
    }
  return r;
}

static int
pf_link (char const *from, char const *to)
{
  round_trip ();
  int r = changed (linkat (root_fd, rel (from), root_fd, rel (to), 0));
  if (r == 0 && journal)
    {
      char const *name;
      ino_t parent = parent_of (to, &name);
      log_call ("link");
      log_number (parent);
      log_name ('\t', name);
      log_number (stat_of (to).st_ino);
      log_end ();
    }
  return r;
}

/* RESULT, status () of a call that changed PATH's attributes (open in
   FI, if not null), logged as such if it succeeded.  */
static int
attr_changed (int result, char const *path, struct fuse_file_info *fi)
{
  int r = changed (result);
  if (r == 0 && journal)
    {
      struct stat st;
      if (fi ? fstat (fi->fh, &st) != 0 : false)
        journal_failure ("fstat");
      if (!fi)
        st = stat_of (path);
      log_ino ("attr", st.st_ino, 0);
      log_state ("now", &st, NULL);
    }
  return r;
}

static int
pf_chmod (char const *path, mode_t mode, struct fuse_file_info *fi)
{
  round_trip ();
  if (fi)
    return attr_changed (fchmod (fi->fh, mode), path, fi);
  return attr_changed (fchmodat (root_fd, rel (path), mode, 0), path, fi);
}

static int
pf_chown (char const *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
  round_trip ();
  if (fi)
    return attr_changed (fchown (fi->fh, uid, gid), path, fi);
  return attr_changed (fchownat (root_fd, rel (path), uid, gid,
                                 AT_SYMLINK_NOFOLLOW), path, fi);
}

static int
pf_truncate (char const *path, off_t size, struct fuse_file_info *fi)
{
  round_trip ();
  int r;
  if (fi)
    r = changed (ftruncate (fi->fh, size));
  else
    {
      int fd = openat (root_fd, rel (path), O_WRONLY | O_CLOEXEC);
      if (fd < 0)
        return -errno;
      r = answered_with_attributes (status (ftruncate (fd, size)));
      close (fd);
    }
  if (r == 0 && journal)
    log_ino ("trunc", ino_of (path, fi), 1, (uintmax_t) size);
  return r;
}

static int
pf_utimens (char const *path, struct timespec const ts[2],
            struct fuse_file_info *fi)
{
  round_trip ();
  if (fi)
    return attr_changed (futimens (fi->fh, ts), path, fi);
  return attr_changed (utimensat (root_fd, rel (path), ts,
                                  AT_SYMLINK_NOFOLLOW), path, fi);
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

/* Log the truncation an open of PATH into FI with FLAGS did, if any.  */
static void
log_open_trunc (char const *path, int flags, struct fuse_file_info *fi)
{
  if (journal && (flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY)
    log_ino ("trunc", ino_of (path, fi), 1, (uintmax_t) 0);
}

static int
pf_open (char const *path, struct fuse_file_info *fi)
{
  round_trip ();
  int r = open_file (path, fi->flags, 0, fi);
  if (r == 0)
    log_open_trunc (path, fi->flags, fi);
  return r;
}

static int
pf_create (char const *path, mode_t mode, struct fuse_file_info *fi)
{
  round_trip ();
  struct stat st;
  bool is_new = (journal
                 && fstatat (root_fd, rel (path), &st, AT_SYMLINK_NOFOLLOW) != 0
                 && errno == ENOENT);
  int r = open_file (path, fi->flags | O_CREAT, mode, fi);
  if (r == 0 && is_new)
    log_new (path);
  else if (r == 0)
    log_open_trunc (path, fi->flags, fi);
  return answered_with_attributes (r);
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
  ssize_t n = pwrite (fi->fh, buf, size, offset);
  if (n < 0)
    return -errno;
  if (journal)
    {
      ino_t ino = ino_of (path, fi);
      log_ino ("write", ino, 2, (uintmax_t) offset, (uintmax_t) n);
      keep_bytes (buf, n, ino);
    }
  return n;
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
  if (journal && (fi->flags & O_ACCMODE) != O_RDONLY)
    log_ino ("release", ino_of (path, fi), 0);
  return status (close (fi->fh));
}

static int
pf_fsync (char const *path, int datasync, struct fuse_file_info *fi)
{
  round_trip ();
  (void) path;
  int r = status (datasync ? fdatasync (fi->fh) : fsync (fi->fh));
  if (r == 0 && journal)
    {
      /* /proc gives a descriptor that can read, even for a file opened
         only to write and for one already unlinked.  */
      char proc[64];
      snprintf (proc, sizeof proc, "/proc/self/fd/%d", (int) fi->fh);
      int in = open (proc, O_RDONLY | O_CLOEXEC);
      struct stat st;
      if (in < 0 || fstat (in, &st) != 0)
        journal_failure (proc);
      log_ino ("fsync", st.st_ino, 0);
      log_state (datasync ? "data" : "sync", &st, NULL);
      keep_data (in, st.st_ino);
      close (in);
    }
  return r;
}

static int
pf_fsyncdir (char const *path, int datasync, struct fuse_file_info *fi)
{
  round_trip ();
  (void) path;
  (void) datasync;
  int fd = dirfd ((DIR *) (uintptr_t) fi->fh);
  int r = status (fsync (fd));
  if (r == 0 && journal)
    {
      struct stat st;
      if (fstat (fd, &st) != 0)
        journal_failure ("fstat");
      log_ino ("fsyncdir", st.st_ino, 0);
      log_dir (fd);
    }
  return r;
}

static off_t
pf_lseek (char const *path, off_t off, int whence, struct fuse_file_info *fi)
{
  round_trip ();
  (void) path;
  off_t r = lseek (fi->fh, off, whence);
  return r < 0 ? -errno : r;
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

/* Start the journal in DIR: its log, and the backing directory's
   content as durable.  */
static void
start_journal (char const *dir)
{
  journal_fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (journal_fd < 0 || mkdirat (journal_fd, "data", 0700) != 0)
    journal_failure (dir);
  int fd = openat (journal_fd, "log", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                   0600);
  journal = fd < 0 ? NULL : fdopen (fd, "w");
  if (!journal)
    journal_failure ("log");
  struct stat st;
  if (fstat (root_fd, &st) != 0)
    journal_failure ("fstat");
  log_more ("root");
  log_number (st.st_ino);
  log_end ();
  log_initial (root_fd);
}

int
main (int argc, char **argv)
{
  static char const delay_opt[] = "--delay=";
  static char const journal_opt[] = "--journal=";
  char const *journal_dir = NULL;
  for (;;)
    {
      if (argc > 1 && strncmp (argv[1], delay_opt, sizeof delay_opt - 1) == 0)
        {
          if (!set_delay (argv[1] + sizeof delay_opt - 1))
            {
              fprintf (stderr, "%s: %s: not a number of microseconds\n",
                       argv[0], argv[1]);
              return 2;
            }
        }
      else if (argc > 1
               && strncmp (argv[1], journal_opt, sizeof journal_opt - 1) == 0)
        journal_dir = argv[1] + sizeof journal_opt - 1;
      else
        break;
      argv[1] = argv[0];
      argv++;
      argc--;
    }
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s [--delay=MICROSECONDS] [--journal=DIR]"
               " BACKING-DIR MOUNT-POINT [OPTION...]\n", argv[0]);
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
  struct fuse_operations all_ops = ops;
  char **args = argv + 1;
  int nargs = argc - 1;
  if (journal_dir)
    {
      start_journal (journal_dir);
      all_ops.lseek = pf_lseek;
      /* One request at a time, so that the log has them in the order
         they were done.  */
      args = malloc ((nargs + 2) * sizeof *args);
      if (!args)
        journal_failure ("malloc");
      memcpy (args, argv + 1, nargs * sizeof *args);
      args[nargs++] = (char *) "-s";
      args[nargs] = NULL;
    }
  return fuse_main (nargs, args, &all_ops, NULL);
}
