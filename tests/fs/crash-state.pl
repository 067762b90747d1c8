#!/usr/bin/perl
# crash-state.pl -- the state that a crash of the crash-simulating file
# system (tests/shim/plainfuse --journal) leaves, read from its journal.
#
# Usage: crash-state.pl JOURNAL-DIR N VARIANT OUT-DIR
#
# Makes OUT-DIR (which must not exist) hold what the file system would
# show after a crash just before its call number N: the calls numbered
# below N were done, the others never were; of what was done, only what
# the model below keeps.  N one past the last number is a crash after
# everything.  The model, stated for people in tests/fs/CRASH-MODEL:
#
# - A regular file's data and size are what its last fsync or fdatasync
#   (before N) saw; its mode, owner and times what its last fsync saw.
#   A file never synced is empty, with the attributes it was made with.
#   Writes are never durable by themselves.
# - A directory's entries are what its last fsyncdir saw (variant
#   "lost": a name made, removed or renamed is lost until its directory
#   is synced), or are every name operation before N (variant "eager":
#   names reach storage at once, data does not).  A directory never
#   synced is empty in "lost".  Its attributes are those of its last
#   fsyncdir.
# - In "eager" only, a size set by truncate or by an open with O_TRUNC
#   is durable too, as a journaling file system logs it at once: data
#   cut off is gone, and the file extended reads as zeros (holes) where
#   its data was not synced.  A file written but never synced therefore
#   is empty, and one extended by ftruncate keeps its size with zeros.
# - What the file system had when it was mounted is all durable.
# A third variant, "kill", is no crash of the file system but of the
# program (SIGKILL), or a crash where everything done reached storage:
# every call before N is kept, names, data and attributes, except that
# writes and name operations leave times as the last change of
# attributes, or the making of the object, set them.
# Objects are told apart by backing inode number and by when they were
# made, so that an inode number used again names a new object.
#
# Limits: no extended attributes (the file system has none); times of
# symbolic links are set where the kernel allows; devices and sockets
# are made with mknod(1), which only root can.

use strict;
use warnings;
use File::Copy qw(copy);
use POSIX ();

@ARGV == 4 or die "usage: $0 JOURNAL-DIR N VARIANT OUT-DIR\n";
my ($jdir, $crash, $variant, $out) = @ARGV;
$variant =~ /^(lost|eager|kill)$/
  or die "$0: $variant: not lost, eager or kill\n";

my (%gen, %cur);   # inode number -> times made, its current object
my (%made, %sync); # object -> its state as made, as last fsync'ed
my %data;          # object -> [call number, data file, size] of its last
                   # fsync or fdatasync
my %durable;       # directory -> {name -> object}, as last fsyncdir'ed
my %volatile;      # directory -> {name -> object}, as the calls left it
my %sizes;         # object -> [[call number, size] ...] set by truncate
my %now;           # object -> its state as last seen
my %base;          # object -> its data file when mounted
my %calls;         # object -> [[size] or [offset, data file] ...]: its
                   # truncations and writes, in order
my ($root, $new_in, $new_name);

sub object { my $ino = shift; $cur{$ino} //= "$ino.0" }
sub name { my $s = shift; $s =~ s/%([0-9A-F]{2})/chr hex $1/ge; $s }

open my $log, '<', "$jdir/log" or die "$0: $jdir/log: $!\n";
while (<$log>)
  {
    chomp;
    my ($n, $what, @f) = split /\t/, $_, -1;
    last if $n >= $crash;
    if ($what eq 'root') { $root = object ($f[0]) }
    elsif ($what eq 'new') { ($new_in, $new_name) = (object ($f[0]), name ($f[1])) }
    elsif ($what eq 'state')
      {
        my ($how, $ino, @st) = @f;
        my %st; @st{qw(type mode uid gid atime mtime size extra)} = @st;
        if ($how eq 'new')
          {
            my $o = $cur{$ino} = "$ino." . ++$gen{$ino};
            $made{$o} = $now{$o} = \%st;
            $volatile{$new_in}{$new_name} = $o;
            next;
          }
        my $o = object ($ino);
        $made{$o} //= \%st;
        $now{$o} = \%st;
        next if $how eq 'now';
        $sync{$o} = \%st if $how eq 'sync';
        if ($st{type} eq 'f')
          {
            $data{$o} = [$n, "$jdir/data/$n-$ino", $st{size}];
            $base{$o} //= "$jdir/data/$n-$ino" if $n == 0;
          }
      }
    elsif ($what eq 'dir')
      {
        my %e;
        for (split / /, $f[1])
          {
            my ($name, $ino) = split /:/;
            $e{name ($name)} = object ($ino);
          }
        my $o = object ($f[0]);
        $durable{$o} = \%e;
        $volatile{$o} = {%e} if $n == 0;
      }
    elsif ($what eq 'link') { $volatile{object ($f[0])}{name ($f[1])} = object ($f[2]) }
    elsif ($what eq 'unlink') { delete $volatile{object ($f[0])}{name ($f[1])} }
    elsif ($what eq 'rename')
      {
        my ($from, $to) = ($volatile{object ($f[0])} //= {},
                           $volatile{object ($f[2])} //= {});
        my ($a, $b) = (name ($f[1]), name ($f[3]));
        if ($f[4] & 2)   # RENAME_EXCHANGE
          { ($from->{$a}, $to->{$b}) = ($to->{$b}, $from->{$a}) }
        else
          { $to->{$b} = delete $from->{$a} }
      }
    elsif ($what eq 'trunc')
      {
        push @{$sizes{object ($f[0])}}, [$n, $f[1]];
        push @{$calls{object ($f[0])}}, [$f[1]];
      }
    elsif ($what eq 'write')
      { push @{$calls{object ($f[0])}}, [$f[1], "$jdir/data/$n-$f[0]"] }
  }
close $log;
defined $root or die "$0: $jdir/log: no root\n";

require 'syscall.ph';
my $AT_FDCWD = -100;
my $AT_SYMLINK_NOFOLLOW = 0x100;

# Give PATH the attributes ST, the times to the nanosecond.
sub set_attributes
{
  my ($path, $st) = @_;
  if ($> == 0)
    {
      POSIX::lchown ($st->{uid}, $st->{gid}, $path)
        or die "$0: chown $path: $!\n";
    }
  if ($st->{type} ne 'l')
    {
      chmod oct $st->{mode}, $path or die "$0: chmod $path: $!\n";
    }
  my @t = map { /^(\d+)\.(\d+)$/ or die "$0: bad time $_\n"; ($1, $2) }
    $st->{atime}, $st->{mtime};
  my $times = pack 'q4', @t;
  syscall (&SYS_utimensat, $AT_FDCWD, "$path", $times, $AT_SYMLINK_NOFOLLOW) == 0
    or $st->{type} eq 'l'
    or die "$0: utimensat $path: $!\n";
}

my %written;   # object (not a directory) -> where it was written first

sub build
{
  my ($o, $path, $above) = @_;
  my $st = ($variant eq 'kill' ? $now{$o} : $sync{$o} // $made{$o})
    // die "$0: $o: no state\n";
  my $type = $st->{type};
  if ($type ne 'd' && defined $written{$o})
    {
      link $written{$o}, $path or die "$0: link $path: $!\n";
      return;
    }
  if ($type eq 'd')
    {
      mkdir $path or die "$0: mkdir $path: $!\n";
      my $entries = ($variant eq 'lost' ? $durable{$o} : $volatile{$o}) // {};
      for my $name (sort keys %$entries)
        {
          my $child = $entries->{$name};
          # A directory renamed into itself, as names can be lost, is
          # left out rather than followed forever.
          next if $above->{$child};
          build ($child, "$path/$name", {%$above, $o => 1});
        }
    }
  elsif ($type eq 'f' && $variant eq 'kill')
    {
      if (defined $base{$o}) { copy ($base{$o}, $path) or die "$0: $path: $!\n" }
      else { open my $fh, '>', $path or die "$0: $path: $!\n"; close $fh }
      open my $fh, '+<', $path or die "$0: $path: $!\n";
      binmode $fh;
      for (@{$calls{$o} // []})
        {
          my ($at, $file) = @$_;
          if (!defined $file)
            {
              truncate $fh, $at or die "$0: truncate $path: $!\n";
              next;
            }
          open my $in, '<', $file or die "$0: $file: $!\n";
          binmode $in;
          local $/;
          my $bytes = <$in>;
          close $in;
          sysseek $fh, $at, 0 or die "$0: seek $path: $!\n";
          syswrite ($fh, $bytes) == length $bytes or die "$0: write $path: $!\n";
        }
      close $fh or die "$0: $path: $!\n";
      $written{$o} = $path;
    }
  elsif ($type eq 'f')
    {
      my ($n, $file, $size) = @{$data{$o} // [0, undef, 0]};
      if (defined $file) { copy ($file, $path) or die "$0: $path: $!\n" }
      else { open my $fh, '>', $path or die "$0: $path: $!\n"; close $fh }
      truncate $path, $size or die "$0: truncate $path: $!\n";
      if ($variant eq 'eager')
        {
          for (@{$sizes{$o} // []})
            {
              next if $_->[0] <= $n;
              truncate $path, $_->[1] or die "$0: truncate $path: $!\n";
            }
        }
      $written{$o} = $path;
    }
  elsif ($type eq 'l')
    {
      symlink name ($made{$o}{extra}), $path or die "$0: symlink $path: $!\n";
      $written{$o} = $path;
    }
  elsif ($type eq 'p')
    {
      POSIX::mkfifo ($path, 0600) or die "$0: mkfifo $path: $!\n";
      $written{$o} = $path;
    }
  else
    {
      $type ne 's' or die "$0: $path: sockets are not modelled\n";
      my @dev = ($type, split /,/, $st->{extra});
      system ('mknod', $path, @dev) == 0 or die "$0: mknod $path failed\n";
      $written{$o} = $path;
    }
  set_attributes ($path, $st);
}

build ($root, $out, {});
