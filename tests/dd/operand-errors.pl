#!/usr/bin/perl
# dd's operand parsing: accepted sizes, and GNU's exact messages and
# exit status for operands it refuses.

use strict;
use warnings;
use CpddTest;

my $try = "Try 'dd --help' for more information.\n";
my @cases =
  (
   { name => 'unknown-operand', args => ['foo'], EXIT => 1,
     ERR => "dd: unrecognized operand 'foo'\n$try" },
   { name => 'unknown-key', args => ['colour=red'], GNU => 1 },
   { name => 'bad-status', args => ['status=loud'], EXIT => 1,
     ERR => "dd: invalid status level: 'loud'\n$try" },
   { name => 'empty-bs', args => ['bs='], GNU => 1 },
   { name => 'zero-bs', args => ['bs=0'], GNU => 1 },
   { name => 'negative', args => ['count=-1'], GNU => 1 },
   { name => 'zero-multiplier', args => ['bs=0x5'], GNU => 1 },
   { name => 'overflow', args => ['bs=99999999999999999999'], GNU => 1 },
   { name => 'too-big-unit', args => ['bs=1Y'], GNU => 1 },
   { name => 'bad-suffix', args => ['bs=1Q'], GNU => 1 },
   { name => 'double-B', args => ['bs=1BB'], GNU => 1 },
   { name => 'Mi', args => ['bs=1Mi'], GNU => 1 },
   { name => 'three-factors', args => ['bs=2x3x4'], GNU => 1 },
  );

# Sizes that must be accepted: the copy shows the size through how the
# 5000-byte input splits into records.
for my $bs (qw(1B 1KB 1kB 1KiB 1k 2x3 1Bx2 3xk 1c 1w 1b 00x5 512))
  {
    push @cases, { name => "bs=$bs", args => ["bs=$bs", 'status=noxfer'],
                   in => 'x' x 5000, GNU => 1 };
  }

exit run_cases ('dd', \@cases);
