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
   { name => 'unknown-quote', args => ["it's"], GNU => 1 },
   { name => 'number-quote', args => ["bs=1'"], GNU => 1 },
   { name => 'number-newline', args => ["count=1\n2"], GNU => 1 },
   { name => 'number-8bit', args => ["skip=\xc3\xa9"], GNU => 1 },
   { name => 'overflow-quote', args => ["bs=1Q'"], GNU => 1 },
   { name => 'conv-quote', args => ["conv=it's"], GNU => 1 },
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
   { name => 'ronna', args => ['bs=1R'], GNU => 1 },
   { name => 'quetta-times-zero', args => ['skip=1Qx0'], GNU => 1 },
   { name => 'zero-multiplier-each', args => ['count=0x0x3'], in => 'abc',
     GNU => 1 },
   { name => 'zero-multiplier-later', args => ['bs=2x0x3'], GNU => 1 },
   { name => 'no-value', args => ['if'], GNU => 1 },
   { name => 'no-name', args => ['=x'], GNU => 1 },
   { name => 'dash-option', args => ['-x'], GNU => 1 },
   { name => 'bad-conv', args => ['conv=foo'], GNU => 1 },
   { name => 'empty-conv', args => ['conv='], GNU => 1 },
   { name => 'empty-conv-word', args => ['conv=sync,,swab'], GNU => 1 },
   { name => 'conv-prefix', args => ['conv=asc'], GNU => 1 },
   { name => 'bad-iflag', args => ['iflag=foo'], GNU => 1 },
   { name => 'bad-oflag', args => ['oflag=bar'], GNU => 1 },
   { name => 'no-binary', args => ['iflag=binary'], GNU => 1 },
   { name => 'no-text', args => ['oflag=text'], GNU => 1 },
   { name => 'no-cio', args => ['iflag=cio'], GNU => 1 },
   { name => 'no-nolinks', args => ['oflag=nolinks'], GNU => 1 },
   { name => 'oflag-fullblock', args => ['oflag=fullblock'], GNU => 1 },
   { name => 'ascii-ebcdic', args => ['conv=ascii,ebcdic'], GNU => 1 },
   { name => 'ebcdic-ibm', args => ['conv=ibm,ebcdic'], GNU => 1 },
   { name => 'block-unblock', args => ['conv=block,unblock', 'cbs=4'],
     GNU => 1 },
   { name => 'lcase-ucase', args => ['conv=lcase,ucase'], GNU => 1 },
   { name => 'excl-nocreat', args => ['conv=excl,nocreat'], GNU => 1 },
   { name => 'direct-nocache-in', args => ['iflag=direct,nocache'],
     GNU => 1 },
   { name => 'direct-nocache-out', args => ['oflag=nocache,direct'],
     GNU => 1 },
   { name => 'number-before-conflict',
     args => ['conv=lcase,ucase', 'bs=x'], GNU => 1 },
   { name => 'flag-before-conflict',
     args => ['conv=lcase,ucase', 'oflag=fullblock'], GNU => 1 },
   { name => 'unknown-before-number', args => ['bs=x', 'foo=1'], GNU => 1 },
   { name => 'zero-cbs', args => ['cbs=0'], GNU => 1 },
   { name => 'huge-cbs', args => ['cbs=9223372036854775807'], GNU => 1 },
   { name => 'too-big-bs', args => ['bs=9223372036854775807'], GNU => 1 },
   { name => 'count-overflow', args => ['count=9223372036854775808'],
     GNU => 1 },
   { name => 'zero-times-overflow',
     args => ['count=0x99999999999999999999'], GNU => 1 },
   { name => 'overflow-product', args => ['skip=4x9223372036854775807'],
     GNU => 1 },
   { name => 'space', args => ['count= 1'], GNU => 1 },
   { name => 'zero-multiplier-count', args => ['count=0x3'], in => 'abc',
     GNU => 1 },
   { name => 'append-warning-first', args => ['oflag=append', 'if=nope'],
     GNU => 1 },
   { name => 'missing-input', args => ['if=nope'], GNU => 1 },
   # Two errors at once: GNU refuses a number, an unknown operand or
   # symbol as soon as it reads it, and the conflicts after reading
   # all operands, in a fixed order.
   { name => 'oflag-mmap-after-fullblock',
     args => ['oflag=fullblock', 'oflag=mmap'], GNU => 1 },
   { name => 'oflag-mmap-before-fullblock',
     args => ['oflag=mmap', 'oflag=fullblock'], GNU => 1 },
   { name => 'oflag-mmap-in-list', args => ['oflag=fullblock,mmap'],
     GNU => 1 },
   { name => 'oflag-mmap-before-bad', args => ['oflag=mmap,foo'], GNU => 1 },
   { name => 'ascii-block', args => ['conv=ascii,block', 'cbs=4'], GNU => 1 },
   { name => 'ibm-unblock', args => ['conv=ibm', 'cbs=3', 'conv=unblock'],
     GNU => 1 },
   { name => 'ascii-block-no-cbs', args => ['conv=ascii,block'], GNU => 1 },
   { name => 'block-unblock-no-cbs', args => ['conv=block,unblock'],
     GNU => 1 },
   { name => 'block-unblock-before-case',
     args => ['conv=lcase,ucase', 'conv=block,unblock', 'cbs=1'], GNU => 1 },
   { name => 'case-before-excl',
     args => ['conv=excl,nocreat', 'conv=lcase,ucase'], GNU => 1 },
   { name => 'excl-before-direct',
     args => ['iflag=direct,nocache', 'conv=excl,nocreat'], GNU => 1 },
   { name => 'fullblock-before-charset',
     args => ['conv=ascii,ebcdic', 'oflag=fullblock'], GNU => 1 },
   { name => 'charset-before-block',
     args => ['conv=block,unblock', 'cbs=1', 'conv=ebcdic,ibm'], GNU => 1 },
   { name => 'zero-cbs-block', args => ['conv=block', 'cbs=0'], GNU => 1 },
   { name => 'bad-cbs-before-conflict',
     args => ['conv=block,unblock', 'cbs=x'], GNU => 1 },
   { name => 'number-before-conv', args => ['bs=0', 'conv=foo'], GNU => 1 },
   { name => 'conv-before-number', args => ['conv=foo', 'bs=0'], GNU => 1 },
   { name => 'unknown-before-conflict',
     args => ['conv=lcase,ucase', 'foo'], GNU => 1 },
   { name => 'status-before-number', args => ['status=x', 'count=y'],
     GNU => 1 },
   { name => 'missing-dir-output', args => ['of=no/such'], GNU => 1 },
  );

# Block sizes past 2^31: a 64-bit dd takes them and fails only if the
# buffer cannot be had, as GNU's dd does here; a 32-bit one refuses the
# number itself, as GNU's dd built for 32 bits does.
my $huge_sizes =
  [
   { name => 'max-bs', args => ['bs=9223372036854775806', 'count=0'] },
   { name => 'ibuf-exhausted', args => ['bs=1E', 'count=1'] },
   { name => 'ibs-exhausted', args => ['ibs=1E', 'count=1'] },
   { name => 'obuf-exhausted', args => ['obs=1E', 'count=1'] },
   { name => 'huge-bs-count0', args => ['bs=1E', 'count=0'] },
   { name => 'bs-4G', args => ['bs=4G', 'count=0'] },
  ];
for my $c (@$huge_sizes)
  {
    if (cpdd_sizeof ('SIZEOF_SIZE_T') >= 8)
      {
        $c->{GNU} = 1;
      }
    else
      {
        my $n = $c->{args}[0] =~ s/^[io]?bs=//r;
        $c->{EXIT} = 1;
        $c->{ERR} = "dd: invalid number: '$n': "
                    . "Value too large for defined data type\n";
      }
    push @cases, $c;
  }

# Sizes that must be accepted: the copy shows the size through how the
# 5000-byte input splits into records.
for my $bs (qw(1B 1KB 1kB 1KiB 1k 2x3 1Bx2 3xk 1c 1w 1b 00x5 512))
  {
    push @cases, { name => "bs=$bs", args => ["bs=$bs", 'status=noxfer'],
                   in => 'x' x 5000, GNU => 1 };
  }

exit run_cases ('dd', \@cases);
