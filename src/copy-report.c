/* copy-report.c -- the record of each file a copy handled.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* cp --report writes JSON Lines: one object a line, in the order the
   files' copies ended.  A file name is bytes, and JSON's strings are
   Unicode: a name that is valid UTF-8 is written as its string; one
   that is not has its bytes written in base64 in a field of its own
   ("source_base64"), and its string holds U+FFFD for each byte that
   is not part of a valid UTF-8 sequence, for people to read.  */

#include <config.h>

#include "copy-report.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "side-file.h"
#include "xalloc.h"
#include "xfer-hash.h"
#include "xfer-stats.h"

struct copy_report
{
  pthread_mutex_t lock;		/* over all below: workers record too */
  FILE *out;			/* --report, or NULL */
  char const *out_name;
  FILE *failed;			/* --failed, or NULL */
  char const *failed_name;
  bool lines;			/* records are written as JSON */
  bool names;			/* failed sources are listed */
  FILE *held;			/* on mpicp's ranks but the first, where
                                   the records wait for an answer, in
                                   HELD_TEXT; else NULL */
  char *held_text;
  size_t held_len;
  bool out_error;		/* writing failed, said once */
  bool failed_error;
  struct timespec start;
  intmax_t copied;
  intmax_t skipped;
  intmax_t failures;
  intmax_t bytes;
};

/* The stream to write the file NAME that OPTION names, NULL if NAME
   is: standard output for "-", else NAME, emptied, once checked
   against the N_BOUNDS files of BOUNDS; exit after a diagnostic if it
   can't be, or is a file the copy reads or writes.  */
static FILE *
open_record_file (char const *name, char const *option,
                  struct side_bound const *bounds, idx_t n_bounds)
{
  if (!name)
    return NULL;
  if (STREQ (name, "-"))
    return stdout;
  struct side_file f;
  side_file_check (&f, name, option, bounds, n_bounds);
  return side_file_stream (&f);
}

struct copy_report *
copy_report_open (char const *report_file, char const *failed_file,
                  struct side_bound const *bounds, idx_t n_bounds)
{
  struct copy_report *r = xzalloc (sizeof *r);
  if (pthread_mutex_init (&r->lock, NULL) != 0)
    xalloc_die ();
  r->out = open_record_file (report_file, "--report", bounds, n_bounds);
  r->out_name = report_file;
  r->failed = open_record_file (failed_file, "--failed", bounds, n_bounds);
  r->failed_name = failed_file;
  r->lines = r->out != NULL;
  r->names = r->failed != NULL;
  clock_gettime (CLOCK_MONOTONIC, &r->start);
  return r;
}

void
copy_record_begin (struct copy_record *r, struct copy_report *report,
                   char const *src, char const *dst, mode_t type)
{
  r->report = report;
  if (!report)
    return;
  r->src = src;
  r->dst = dst;
  r->type = type;
  r->bytes = 0;
  r->method = NULL;
  r->hash = NULL;
  if (report->lines)
    clock_gettime (CLOCK_MONOTONIC, &r->start);
  error_note_take (&r->scope, &r->note);
}

void
copy_record_data (struct copy_record *r, struct xfer_report const *xr,
                  int algo, char const *hex)
{
  if (!r->report)
    return;
  r->bytes = xr->bytes;
  r->method = xr->reflinked ? "reflink" : xfer_method_name (xr->method);
  if (hex && *hex)
    {
      r->hash_algo = algo;
      r->hash = xstrdup (hex);
    }
}

void
copy_record_drop (struct copy_record *r)
{
  if (!r->report)
    return;
  error_note_give_back (&r->scope);
  free (r->note.text);
  free (r->hash);
  r->report = NULL;
}

void
copy_record_pass (struct copy_record *r, struct copy_record *to,
                  char const *src, char const *dst)
{
  if (!r->report)
    {
      to->report = NULL;
      return;
    }
  error_note_give_back (&r->scope);
  *to = *r;
  to->src = src;
  to->dst = dst;
  r->report = NULL;
}

void
copy_record_resume (struct copy_record *r)
{
  if (!r->report)
    return;
  struct error_note walk_note = r->note;
  error_note_take (&r->scope, &r->note);
  r->note = walk_note;
}

enum copy_outcome
copy_record_outcome (struct copy_record const *r, bool ok)
{
  if (ok || (r->report && S_ISDIR (r->type) && !r->note.text))
    return COPY_COPIED;
  return COPY_FAILED;
}

/* The length of the valid UTF-8 sequence at the start of the N bytes
   at P, or 0 if none is there.  */
static int
utf8_length (unsigned char const *p, size_t n)
{
  unsigned char c = p[0];
  if (c < 0x80)
    return 1;
  int len = c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
  if (!len || n < (size_t) len)
    return 0;
  /* The second byte's range rules out overlong forms, surrogates and
     what is beyond U+10FFFF.  */
  unsigned char lo = (c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80);
  unsigned char hi = (c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF);
  if (p[1] < lo || hi < p[1])
    return 0;
  for (int i = 2; i < len; i++)
    if ((p[i] & 0xC0) != 0x80)
      return 0;
  return len;
}

/* Write S to O as a JSON string; return whether S was valid UTF-8,
   each other byte having been written as U+FFFD.  */
static bool
put_json_string (FILE *o, char const *s)
{
  unsigned char const *p = (unsigned char const *) s;
  size_t n = strlen (s);
  bool valid = true;
  putc ('"', o);
  while (n)
    {
      int len = utf8_length (p, n);
      if (!len)
        {
          fputs ("\\ufffd", o);
          valid = false;
          len = 1;
        }
      else if (*p == '"' || *p == '\\')
        fprintf (o, "\\%c", *p);
      else if (*p == '\n')
        fputs ("\\n", o);
      else if (*p == '\t')
        fputs ("\\t", o);
      else if (*p < 0x20 || *p == 0x7F)
        fprintf (o, "\\u%04x", *p);
      else
        fwrite (p, 1, len, o);
      p += len;
      n -= len;
    }
  putc ('"', o);
  return valid;
}

/* Write the bytes of S to O in base64, as a JSON string.  */
static void
put_base64 (FILE *o, char const *s)
{
  static char const digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  unsigned char const *p = (unsigned char const *) s;
  size_t n = strlen (s);
  putc ('"', o);
  for (; 0 < n; p += 3, n -= n < 3 ? n : 3)
    {
      unsigned int v = (p[0] << 16) | (1 < n ? p[1] << 8 : 0)
                       | (2 < n ? p[2] : 0);
      putc (digits[v >> 18], o);
      putc (digits[(v >> 12) & 63], o);
      putc (1 < n ? digits[(v >> 6) & 63] : '=', o);
      putc (2 < n ? digits[v & 63] : '=', o);
    }
  putc ('"', o);
}

/* Write the field KEY with the file name NAME to O, and where NAME is
   not UTF-8 its bytes as KEY_base64.  */
static void
put_name (FILE *o, char const *key, char const *name)
{
  fprintf (o, ",\"%s\":", key);
  if (!put_json_string (o, name))
    {
      fprintf (o, ",\"%s_base64\":", key);
      put_base64 (o, name);
    }
}

/* The word the report has for the file type of MODE.  */
static char const *
type_word (mode_t mode)
{
  switch (mode & S_IFMT)
    {
    case S_IFREG: return "regular";
    case S_IFDIR: return "directory";
    case S_IFLNK: return "symlink";
    case S_IFIFO: return "fifo";
    case S_IFSOCK: return "socket";
    case S_IFCHR: return "character-device";
    case S_IFBLK: return "block-device";
    default: return "unknown";
    }
}

static char const *const outcome_words[] = { "copied", "skipped", "failed" };

/* Write the time from START to now to O as seconds, with a point
   whatever the locale says.  */
static void
put_seconds (FILE *o, struct timespec start)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  intmax_t ns = ((intmax_t) (now.tv_sec - start.tv_sec) * 1000000000
                 + now.tv_nsec - start.tv_nsec);
  if (ns < 0)
    ns = 0;
  fprintf (o, ",\"seconds\":%jd.%06jd", ns / 1000000000,
           ns % 1000000000 / 1000);
}

/* Format R, ended as OUTCOME, as a line of JSON into a buffer of its
   own: *LINE, *LEN bytes, to be freed.  */
static void
format_record (struct copy_record const *r, enum copy_outcome outcome,
               char **line, size_t *len)
{
  FILE *o = open_memstream (line, len);
  if (!o)
    xalloc_die ();
  fprintf (o, "{\"record\":\"file\",\"outcome\":\"%s\"",
           outcome_words[outcome]);
  put_name (o, "source", r->src);
  put_name (o, "destination", r->dst);
  fprintf (o, ",\"type\":\"%s\",\"bytes\":%jd", type_word (r->type),
           r->bytes);
  if (r->method)
    fprintf (o, ",\"method\":\"%s\"", r->method);
  put_seconds (o, r->start);
  if (r->hash)
    fprintf (o, ",\"hash_algorithm\":\"%s\",\"hash\":\"%s\"",
             xfer_hash_name (r->hash_algo), r->hash);
  if (outcome == COPY_FAILED && r->note.text)
    {
      fputs (",\"error\":", o);
      put_json_string (o, r->note.text);
      if (r->note.errnum)
        fprintf (o, ",\"errno\":%d", r->note.errnum);
    }
  fputs ("}\n", o);
  if (fclose (o) != 0)
    xalloc_die ();
}

/* Write the LEN bytes at P to F, named NAME, unless writing to it has
   failed before, as *ERR says; say so the first time it fails, but
   for standard output, whose errors close_stdout reports at exit, as
   for any of cp's output.  */
static void
put_bytes (FILE *f, char const *name, bool *err, char const *p, size_t len)
{
  if (!f || *err)
    return;
  if (fwrite (p, 1, len, f) != len || ferror (f))
    {
      *err = true;
      if (f != stdout)
        error (0, errno, _("error writing %s"), quoteaf (name));
    }
}

/* A record held for rank 0 is its outcome's letter, its bytes in
   decimal and a space, the source's name (if failed sources are
   listed) and a NUL, then its JSON line (if lines are written) and a
   line break.  */
static char const outcome_letters[] = "csf";

/* Add to REPORT, whose lock is held, the record of SRC that ended as
   OUTCOME having produced BYTES, and its LEN bytes of JSON at LINE:
   hold it, or count and write it.  */
static void
take_record (struct copy_report *report, enum copy_outcome outcome,
             intmax_t bytes, char const *src, char const *line, size_t len)
{
  if (report->held)
    {
      fprintf (report->held, "%c%jd %s", outcome_letters[outcome], bytes,
               report->names ? src : "");
      putc ('\0', report->held);
      /* Without --report there is no line, only its end.  */
      if (len)
        fwrite (line, 1, len, report->held);
      else
        putc ('\n', report->held);
      return;
    }
  if (outcome == COPY_COPIED)
    report->copied++;
  else if (outcome == COPY_SKIPPED)
    report->skipped++;
  else
    {
      report->failures++;
      put_bytes (report->failed, report->failed_name, &report->failed_error,
                 src, strlen (src) + 1);
    }
  report->bytes += bytes;
  put_bytes (report->out, report->out_name, &report->out_error, line, len);
}

void
copy_record_end (struct copy_record *r, enum copy_outcome outcome)
{
  struct copy_report *report = r->report;
  if (!report)
    return;
  error_note_give_back (&r->scope);
  char *line = NULL;
  size_t len = 0;
  if (report->lines)
    format_record (r, outcome, &line, &len);
  free (r->note.text);
  free (r->hash);

  pthread_mutex_lock (&report->lock);
  take_record (report, outcome, r->bytes, r->src, line, len);
  pthread_mutex_unlock (&report->lock);
  free (line);
}

/* Start holding REPORT's records, in memory.  */
static void
start_holding (struct copy_report *report)
{
  report->held = open_memstream (&report->held_text, &report->held_len);
  if (!report->held)
    xalloc_die ();
}

struct copy_report *
copy_report_hold (bool lines, bool names)
{
  struct copy_report *r = xzalloc (sizeof *r);
  if (pthread_mutex_init (&r->lock, NULL) != 0)
    xalloc_die ();
  r->lines = lines;
  r->names = names;
  start_holding (r);
  return r;
}

void
copy_report_take (struct copy_report *report, char **text, size_t *len)
{
  *text = NULL;
  *len = 0;
  /* Rank 0 answers for work other ranks give it, but writes its
     records itself.  */
  if (!report || !report->held)
    return;
  pthread_mutex_lock (&report->lock);
  if (fclose (report->held) != 0)
    xalloc_die ();
  *text = report->held_text;
  *len = report->held_len;
  start_holding (report);
  pthread_mutex_unlock (&report->lock);
}

/* Take the record at the start of the N bytes at P, made by
   take_record, into REPORT, whose lock is held; return its length, or
   0 if it is malformed.  */
static size_t
put_one (struct copy_report *report, char const *p, size_t n)
{
  char const *end = p + n;
  char const *letter = n ? memchr (outcome_letters, p[0], 3) : NULL;
  char const *nul = memchr (p, '\0', n);
  if (!letter || !nul)
    return 0;
  char const *nl = memchr (nul, '\n', end - nul);
  char *num_end;
  errno = 0;
  intmax_t bytes = strtoimax (p + 1, &num_end, 10);
  if (!nl || errno || num_end == p + 1 || *num_end != ' ' || bytes < 0
      || nul < num_end)
    return 0;
  size_t len = nl - nul;
  take_record (report, letter - outcome_letters, bytes, num_end + 1,
               nul + 1, len == 1 ? 0 : len);
  return nl + 1 - p;
}

bool
copy_report_put (struct copy_report *report, char const *text, size_t len)
{
  if (!report)
    return len == 0;
  bool ok = true;
  pthread_mutex_lock (&report->lock);
  while (ok && len)
    {
      size_t n = put_one (report, text, len);
      ok = n != 0;
      text += n;
      len -= n;
    }
  pthread_mutex_unlock (&report->lock);
  return ok;
}

intmax_t
copy_report_files (struct copy_report const *report)
{
  return report->copied + report->skipped + report->failures;
}

intmax_t
copy_report_failures (struct copy_report const *report)
{
  return report->failures;
}

/* Close F, named NAME, which had failed if *ERR, unless it is standard
   output, which close_stdout checks at exit; say so if that fails.  */
static void
close_record_file (FILE *f, char const *name, bool *err)
{
  if (!f || f == stdout)
    return;
  if (fclose (f) != 0 && !*err)
    {
      *err = true;
      error (0, errno, _("error writing %s"), quoteaf (name));
    }
}

bool
copy_report_close (struct copy_report *report)
{
  if (report->held)
    {
      fclose (report->held);
      free (report->held_text);
    }
  if (report->out)
    {
      char *line = NULL;
      size_t len = 0;
      FILE *o = open_memstream (&line, &len);
      if (!o)
        xalloc_die ();
      fprintf (o, "{\"record\":\"summary\",\"files\":%jd,\"copied\":%jd,"
               "\"skipped\":%jd,\"failed\":%jd,\"bytes\":%jd",
               copy_report_files (report), report->copied, report->skipped,
               report->failures, report->bytes);
      put_seconds (o, report->start);
      fputs ("}\n", o);
      if (fclose (o) != 0)
        xalloc_die ();
      put_bytes (report->out, report->out_name, &report->out_error, line,
                 len);
      free (line);
    }
  close_record_file (report->out, report->out_name, &report->out_error);
  close_record_file (report->failed, report->failed_name,
                     &report->failed_error);
  bool ok = !report->out_error && !report->failed_error;
  pthread_mutex_destroy (&report->lock);
  free (report);
  return ok;
}
