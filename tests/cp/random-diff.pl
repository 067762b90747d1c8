#!/usr/bin/perl
# Random fixtures and random cp command lines, run with GNU's cp and
# ours side by side (see tests/CpddRandom.pm).  A longer run by hand:
#
#   CPDD_RAND_SEED=7 CPDD_RAND_CASES=2000 \
#     make check TESTS=tests/cp/random-diff.pl
#
# or, from the top build directory,
#
#   srcdir=. abs_top_builddir=$PWD CPDD_RAND_SEED=7 CPDD_RAND_CASES=2000 \
#     perl -Itests tests/cp/random-diff.pl
#
# CPDD_RAND_CASE=N replays case N of the seed alone; CPDD_RAND_MINIMIZE
# is how many differing cases to shrink to a minimal reproducer.

use strict;
use warnings;
use CpddRandom;

exit run_random ('cp', 1, 60);
