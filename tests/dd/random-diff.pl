#!/usr/bin/perl
# Random inputs and random dd command lines (operands with every size
# suffix, conversions, flags, files and pipes), run with GNU's dd and
# ours side by side (see tests/CpddRandom.pm).  A longer run by hand:
#
#   CPDD_RAND_SEED=7 CPDD_RAND_CASES=2000 \
#     make check TESTS=tests/dd/random-diff.pl
#
# or, from the top build directory,
#
#   srcdir=. abs_top_builddir=$PWD CPDD_RAND_SEED=7 CPDD_RAND_CASES=2000 \
#     perl -Itests tests/dd/random-diff.pl
#
# CPDD_RAND_CASE=N replays case N of the seed alone; CPDD_RAND_MINIMIZE
# is how many differing cases to shrink to a minimal reproducer.

use strict;
use warnings;
use CpddRandom;

exit run_random ('dd', 1, 200);
