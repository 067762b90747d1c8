/* dd.h -- what dd's parts share: the settings its operands decide.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_DD_H
#define CPDD_DD_H

#include <stdbool.h>
#include <stdint.h>

#include "idx.h"
#include "xfer-hash.h"

/* conv= symbols, as bits.  */
enum
{
  DD_CONV_ASCII = 1 << 0,
  DD_CONV_EBCDIC = 1 << 1,
  DD_CONV_IBM = 1 << 2,
  DD_CONV_BLOCK = 1 << 3,
  DD_CONV_UNBLOCK = 1 << 4,
  DD_CONV_LCASE = 1 << 5,
  DD_CONV_UCASE = 1 << 6,
  DD_CONV_SPARSE = 1 << 7,
  DD_CONV_SWAB = 1 << 8,
  DD_CONV_SYNC = 1 << 9,
  DD_CONV_EXCL = 1 << 10,
  DD_CONV_NOCREAT = 1 << 11,
  DD_CONV_NOTRUNC = 1 << 12,
  DD_CONV_NOERROR = 1 << 13,
  DD_CONV_FDATASYNC = 1 << 14,
  DD_CONV_FSYNC = 1 << 15,

  /* Conversions that look at the data, and so need the input copied
     into a separate output buffer.  */
  DD_CONV_DATA = (DD_CONV_ASCII | DD_CONV_EBCDIC | DD_CONV_IBM
                  | DD_CONV_BLOCK | DD_CONV_UNBLOCK | DD_CONV_LCASE
                  | DD_CONV_UCASE | DD_CONV_SWAB)
};

/* iflag= and oflag= symbols that are not open flags, as bits.  */
enum
{
  DD_FLAG_FULLBLOCK = 1 << 0,
  DD_FLAG_NOCACHE = 1 << 1,
  DD_FLAG_COUNT_BYTES = 1 << 2,
  DD_FLAG_SKIP_BYTES = 1 << 3,
  DD_FLAG_SEEK_BYTES = 1 << 4,
  DD_FLAG_MMAP = 1 << 5		/* cpdd: read the input through mmap */
};

enum dd_status
{
  DD_STATUS_DEFAULT,
  DD_STATUS_NONE,
  DD_STATUS_NOXFER,
  DD_STATUS_PROGRESS,
  DD_STATUS_JSON
};

/* Everything the operands decide, checked for consistency.  */
struct dd_settings
{
  char const *input_file;	/* NULL: standard input */
  char const *output_file;	/* NULL: standard output */
  idx_t ibs, obs, cbs;		/* cbs 0: no block or unblock */
  bool reblock;			/* bs= not given: gather input into obs blocks */
  int conv;			/* DD_CONV_* bits */
  int iflags, oflags;		/* open flags for each end */
  int iextra, oextra;		/* DD_FLAG_* bits for each end */

  /* Positions and limits, each as whole blocks plus bytes.  */
  intmax_t skip_records;
  idx_t skip_bytes;
  intmax_t seek_records;
  idx_t seek_bytes;
  intmax_t max_records;		/* INTMAX_MAX: no count= */
  idx_t max_bytes;

  enum dd_status status;
  bool warn_partial_read;	/* short reads can miscount: say so */
  /* hash= and hashlog= (cpdd extensions): the algorithms to hash the
     data written with, in the order given, and where their lines go
     (NULL: with the statistics).  */
  enum xfer_hash_algo hashes[XFER_HASH_ALGOS];
  int nhashes;
  char const *hashlog;
};

/* Decode the operands ARGV[FIRST..ARGC-1] into *S.  On any error print
   GNU dd's diagnostic and exit.  */
void dd_parse_operands (int argc, char **argv, int first,
                        struct dd_settings *s);

#endif /* CPDD_DD_H */
