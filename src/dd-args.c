/* dd-args.c -- decode dd's operands into its settings.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#include <config.h>

#include "system.h"
#include "dd.h"
#include "xfer-size.h"

/* One word of a comma separated list: its name, and the bits it sets
   in each of up to two masks.  */
struct dd_symbol
{
  char const *name;
  int bits;
  int extra;
};

/* A character set change comes with its record conversion: EBCDIC
   data is fixed-length records, so going to ASCII makes lines and
   coming from it makes records.  Both need cbs=, and are dropped
   without it.  */
static struct dd_symbol const conv_symbols[] =
{
  {"ascii", DD_CONV_ASCII | DD_CONV_UNBLOCK, 0},
  {"ebcdic", DD_CONV_EBCDIC | DD_CONV_BLOCK, 0},
  {"ibm", DD_CONV_IBM | DD_CONV_BLOCK, 0},
  {"block", DD_CONV_BLOCK, 0},
  {"unblock", DD_CONV_UNBLOCK, 0},
  {"lcase", DD_CONV_LCASE, 0},
  {"ucase", DD_CONV_UCASE, 0},
  {"sparse", DD_CONV_SPARSE, 0},
  {"swab", DD_CONV_SWAB, 0},
  {"sync", DD_CONV_SYNC, 0},
  {"excl", DD_CONV_EXCL, 0},
  {"nocreat", DD_CONV_NOCREAT, 0},
  {"notrunc", DD_CONV_NOTRUNC, 0},
  {"noerror", DD_CONV_NOERROR, 0},
  {"fdatasync", DD_CONV_FDATASYNC, 0},
  {"fsync", DD_CONV_FSYNC, 0},
  {NULL, 0, 0}
};

/* iflag= and oflag= share one list; the flags that make sense at one
   end only are refused after all operands are read, as GNU does.
   mmap is cpdd's own, and GNU dd knows no such output flag at all, so
   oflag= refuses it at once.  */
static struct dd_symbol const flag_symbols[] =
{
  {"append", O_APPEND, 0},
  {"direct", O_DIRECT, 0},
  {"directory", O_DIRECTORY, 0},
  {"dsync", O_DSYNC, 0},
  {"noatime", O_NOATIME, 0},
  {"nocache", 0, DD_FLAG_NOCACHE},
  {"noctty", O_NOCTTY, 0},
  {"nofollow", O_NOFOLLOW, 0},
  {"nonblock", O_NONBLOCK, 0},
  {"sync", O_SYNC, 0},
  {"fullblock", 0, DD_FLAG_FULLBLOCK},
  {"mmap", 0, DD_FLAG_MMAP},
  {"count_bytes", 0, DD_FLAG_COUNT_BYTES},
  {"skip_bytes", 0, DD_FLAG_SKIP_BYTES},
  {"seek_bytes", 0, DD_FLAG_SEEK_BYTES},
  {NULL, 0, 0}
};

static struct dd_symbol const status_symbols[] =
{
  {"none", DD_STATUS_NONE, 0},
  {"noxfer", DD_STATUS_NOXFER, 0},
  {"progress", DD_STATUS_PROGRESS, 0},
  {"json", DD_STATUS_JSON, 0},
  {NULL, 0, 0}
};

/* An operand whose value is a comma separated list of symbols: the
   symbols it knows, the diagnostic for a word that is none of them
   or has any of the extra bits REFUSED, and whether the last symbol
   replaces the others (EXCLUSIVE) instead of adding to them.  */
struct dd_symbol_list
{
  struct dd_symbol const *symbols;
  char const *what;
  int refused;
  bool exclusive;
};

static struct dd_symbol_list const conv_list =
  { conv_symbols, N_("invalid conversion"), 0, false };
static struct dd_symbol_list const iflag_list =
  { flag_symbols, N_("invalid input flag"), 0, false };
static struct dd_symbol_list const oflag_list =
  { flag_symbols, N_("invalid output flag"), DD_FLAG_MMAP, false };
static struct dd_symbol_list const status_list =
  { status_symbols, N_("invalid status level"), 0, true };

/* The operands that are numbers, as given, until the block sizes they
   are counted in are known.  Whether the last skip=, seek= or count=
   was in bytes: a later repetition of an operand replaces its unit
   along with its value.  */
struct dd_amounts
{
  intmax_t bs, ibs, obs, cbs;
  intmax_t skip, seek, count;
  bool skip_in_bytes, seek_in_bytes, count_in_bytes;
};

/* An operand or number is quoted as for the shell, as in GNU dd 9.10,
   to be pasted back into a command line; a word of a list is not.  */
static _Noreturn void
unrecognized (char const *arg)
{
  error (0, 0, _("unrecognized operand %s"), quoteaf (arg));
  usage (EXIT_FAILURE);
}

static _Noreturn void
usage_error (char const *what, char const *str, idx_t len)
{
  error (0, 0, "%s: %s", what,
         quotearg_n_style_mem (0, locale_quoting_style, str, len));
  usage (EXIT_FAILURE);
}

/* Decode LIST, the value of an operand of the kind KIND, or exit with
   its diagnostic.  OR the bits of each symbol into *BITS and *EXTRA,
   or have the last replace the others where KIND says.  */
static void
parse_symbols (char const *list, struct dd_symbol_list const *kind,
               int *bits, int *extra)
{
  for (char const *word = list; ; )
    {
      char const *comma = strchr (word, ',');
      idx_t len = comma ? comma - word : strlen (word);
      struct dd_symbol const *sym = kind->symbols;
      while (sym->name
             && ! (strlen (sym->name) == len && !memcmp (sym->name, word, len)))
        sym++;
      if (!sym->name || (sym->extra & kind->refused))
        usage_error (_(kind->what), word, len);
      if (kind->exclusive)
        *bits = sym->bits;
      else
        {
          *bits |= sym->bits;
          *extra |= sym->extra;
        }
      if (!comma)
        return;
      word = comma + 1;
    }
}

/* Add the algorithms of the comma separated list LIST (hash=) to
   those of S, each once, or exit with a diagnostic.  */
static void
parse_hashes (char const *list, struct dd_settings *s)
{
  for (char const *word = list; ; )
    {
      char const *comma = strchr (word, ',');
      idx_t len = comma ? comma - word : strlen (word);
      char name[16];
      int algo = -1;
      if (len < (idx_t) sizeof name)
        {
          memcpy (name, word, len);
          name[len] = '\0';
          algo = xfer_hash_lookup (name);
        }
      if (algo < 0)
        usage_error (_("invalid hash algorithm"), word, len);
      if (!xfer_hash_available (algo))
        error (EXIT_FAILURE, 0,
               _("hash algorithm %s needs %s, which this dd was built"
                 " without"), quote (name), xfer_hash_library (algo));
      int i = 0;
      while (i < s->nhashes && s->hashes[i] != algo)
        i++;
      if (i == s->nhashes)
        s->hashes[s->nhashes++] = algo;
      if (!comma)
        return;
      word = comma + 1;
    }
}

/* "0x10" is zero times ten, not hexadecimal sixteen: warn once for
   each factor but the last of the number VAL, which was parsed, that
   is written "0x".  In a number that parsed every 'x' joins two
   factors, as no factor has an 'x' in it.  */
static void
warn_zero_multipliers (char const *val)
{
  for (char const *p = val; p; p = strchr (p, 'x'))
    {
      if (p != val)
        p++;
      if (strncmp (p, "0x", 2) == 0)
        error (0, 0, _("warning: %s is a zero multiplier; "
                       "use %s if that is intended"),
               quote_n (0, "0x"), quote_n (1, "00x"));
    }
}

/* Parse the number VAL of an operand; exit with GNU dd's message if it
   is malformed or outside MIN..MAX.  */
static intmax_t
parse_number (char const *val, intmax_t min, intmax_t max)
{
  uintmax_t n;
  strtol_error e = xfer_parse_size (val, &n);

  if (e == LONGINT_OK)
    warn_zero_multipliers (val);

  if (e == LONGINT_OK && n < min)
    e = LONGINT_INVALID;
  else if (e == LONGINT_OK && max < n)
    e = LONGINT_OVERFLOW;
  if (e != LONGINT_OK)
    error (EXIT_FAILURE, e & LONGINT_OVERFLOW ? EOVERFLOW : 0,
           "%s: %s", _("invalid number"), quoteaf (val));
  return n;
}

/* Split the amount N, in bytes if IN_BYTES else in blocks, into whole
   blocks of BLK bytes and left over bytes.  */
static void
split_amount (intmax_t n, bool in_bytes, idx_t blk,
              intmax_t *records, idx_t *bytes)
{
  *records = in_bytes ? n / blk : n;
  *bytes = in_bytes ? n % blk : 0;
}

static void
check_exclusive (int mask, int a, int b, char const *msg)
{
  if ((mask & a) && (mask & b))
    error (EXIT_FAILURE, 0, "%s", msg);
}

/* The largest block: it must fit in ssize_t for read and write, in
   off_t for seeking, and leave room for one more byte for swab.  */
static intmax_t
max_block (void)
{
  return MIN (IDX_MAX - 1, MIN (SSIZE_MAX, TYPE_MAXIMUM (off_t)));
}

#define IS(name) (namelen == sizeof name - 1 && !memcmp (arg, name, namelen))

/* If ARG, whose name is NAMELEN bytes long, is an operand whose value
   VAL is a file name or a list, store it in S and return true.  */
static bool
parse_word_operand (char const *arg, idx_t namelen, char const *val,
                    struct dd_settings *s)
{
  if (IS ("if"))
    s->input_file = val;
  else if (IS ("of"))
    s->output_file = val;
  else if (IS ("conv"))
    parse_symbols (val, &conv_list, &s->conv, &s->conv);
  else if (IS ("iflag"))
    parse_symbols (val, &iflag_list, &s->iflags, &s->iextra);
  else if (IS ("oflag"))
    parse_symbols (val, &oflag_list, &s->oflags, &s->oextra);
  else if (IS ("hash"))
    parse_hashes (val, s);
  else if (IS ("hashlog"))
    s->hashlog = val;
  else if (IS ("status"))
    {
      int level = 0;
      parse_symbols (val, &status_list, &level, &level);
      s->status = level;
    }
  else
    return false;
  return true;
}

/* Store in A the number VAL of the operand ARG, whose name is NAMELEN
   bytes long, or exit if there is no such operand.  */
static void
parse_number_operand (char const *arg, idx_t namelen, char const *val,
                      struct dd_amounts *a)
{
  /* A size's 'B' anywhere means bytes, not blocks.  */
  bool bytes = !!strchr (val, 'B');
  if (IS ("bs"))
    a->bs = parse_number (val, 1, max_block ());
  else if (IS ("ibs"))
    a->ibs = parse_number (val, 1, max_block ());
  else if (IS ("obs"))
    a->obs = parse_number (val, 1, max_block ());
  else if (IS ("cbs"))
    a->cbs = parse_number (val, 1, INTMAX_MAX);
  else if (IS ("skip") || IS ("iseek"))
    {
      a->skip = parse_number (val, 0, INTMAX_MAX);
      a->skip_in_bytes = bytes;
    }
  else if (IS ("seek") || IS ("oseek"))
    {
      a->seek = parse_number (val, 0, INTMAX_MAX);
      a->seek_in_bytes = bytes;
    }
  else if (IS ("count"))
    {
      a->count = parse_number (val, 0, INTMAX_MAX);
      a->count_in_bytes = bytes;
    }
  else
    unrecognized (arg);
}

#undef IS

/* Set the block sizes and conversions of S from A.  */
static void
settle_blocks (struct dd_settings *s, struct dd_amounts const *a)
{
  if (a->skip_in_bytes)
    s->iextra |= DD_FLAG_SKIP_BYTES;
  if (a->seek_in_bytes)
    s->oextra |= DD_FLAG_SEEK_BYTES;
  if (a->count_in_bytes)
    s->iextra |= DD_FLAG_COUNT_BYTES;

  s->reblock = !a->bs;
  s->ibs = a->bs ? a->bs : a->ibs ? a->ibs : 512;
  s->obs = a->bs ? a->bs : a->obs ? a->obs : 512;
  s->cbs = a->cbs;
  /* Even block or unblock that the lack of cbs= turns off keeps input
     and output blocks apart, as in GNU dd.  */
  if (s->conv & DD_CONV_DATA)
    s->reblock = true;
  if (!a->cbs)
    s->conv &= ~(DD_CONV_BLOCK | DD_CONV_UNBLOCK);
}

/* Exit with a diagnostic if S asks for what cannot be done together.  */
static void
check_conflicts (struct dd_settings const *s)
{
  if (s->oextra & DD_FLAG_FULLBLOCK)
    usage_error (_("invalid output flag"), "fullblock", strlen ("fullblock"));

  int charsets = s->conv & (DD_CONV_ASCII | DD_CONV_EBCDIC | DD_CONV_IBM);
  if (charsets & (charsets - 1))
    error (EXIT_FAILURE, 0, _("cannot combine any two of {ascii,ebcdic,ibm}"));
  check_exclusive (s->conv, DD_CONV_BLOCK, DD_CONV_UNBLOCK,
                   _("cannot combine block and unblock"));
  check_exclusive (s->conv, DD_CONV_LCASE, DD_CONV_UCASE,
                   _("cannot combine lcase and ucase"));
  check_exclusive (s->conv, DD_CONV_EXCL, DD_CONV_NOCREAT,
                   _("cannot combine excl and nocreat"));
  if (((s->iflags & O_DIRECT) && (s->iextra & DD_FLAG_NOCACHE))
      || ((s->oflags & O_DIRECT) && (s->oextra & DD_FLAG_NOCACHE)))
    error (EXIT_FAILURE, 0, _("cannot combine direct and nocache"));
}

/* Set the records and bytes to skip, seek and copy of S from A, once
   the block sizes are known.  */
static void
settle_amounts (struct dd_settings *s, struct dd_amounts const *a)
{
  split_amount (a->skip, s->iextra & DD_FLAG_SKIP_BYTES, s->ibs,
                &s->skip_records, &s->skip_bytes);
  split_amount (a->seek, s->oextra & DD_FLAG_SEEK_BYTES, s->obs,
                &s->seek_records, &s->seek_bytes);
  if (a->count == INTMAX_MAX)
    s->max_records = INTMAX_MAX;
  else
    split_amount (a->count, s->iextra & DD_FLAG_COUNT_BYTES, s->ibs,
                  &s->max_records, &s->max_bytes);

  /* With bs= and no iflag=fullblock, one short read makes every later
     count and offset wrong, so a short read in the middle is worth a
     warning when counting, skipping or using direct I/O.  */
  s->warn_partial_read =
    (!s->reblock && !(s->iextra & DD_FLAG_FULLBLOCK)
     && (s->skip_records
         || (0 < s->max_records && s->max_records < INTMAX_MAX)
         || ((s->iflags | s->oflags) & O_DIRECT)));
}

void
dd_parse_operands (int argc, char **argv, int first, struct dd_settings *s)
{
  struct dd_amounts a = { .count = INTMAX_MAX };
  *s = (struct dd_settings) { .status = DD_STATUS_DEFAULT };

  for (int i = first; i < argc; i++)
    {
      char const *arg = argv[i];
      char const *eq = strchr (arg, '=');
      if (!eq)
        unrecognized (arg);
      if (!parse_word_operand (arg, eq - arg, eq + 1, s))
        parse_number_operand (arg, eq - arg, eq + 1, &a);
    }

  settle_blocks (s, &a);
  check_conflicts (s);

  if (s->iflags & (O_DSYNC | O_SYNC))
    s->iflags |= O_RSYNC;

  /* A log asked for without a hash holds the hash it is named for.  */
  if (s->hashlog && !s->nhashes)
    s->hashes[s->nhashes++] = XFER_HASH_SHA256;

  settle_amounts (s, &a);
}
