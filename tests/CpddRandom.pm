# CpddRandom.pm -- randomised differential testing of cp and dd.
#
# Each case is a fixture (a list of shell commands that build a small
# tree: files of varied sizes, sparse files, nested directories,
# symbolic links of every kind, hard-link groups, FIFOs, modes, owners
# and times, and often a destination tree that partly overlaps the
# source) and a random command line.  The case is run twice, with
# GNU's program and with ours, each time in a freshly built fixture at
# the same absolute path, and the two runs are compared: standard
# output, standard error (dd's time and rate figures masked), exit
# status and the resulting tree (tests/diff-helpers.sh's tree_digest_
# with nanosecond times, plus the hard-link structure).
#
# A case's randomness comes only from the seed and its number, so any
# case can be replayed alone.  The environment steers a run:
#
#   CPDD_RAND_SEED=N      the seed (each test has a fixed default)
#   CPDD_RAND_CASES=N     how many cases to run
#   CPDD_RAND_CASE=N      run only case N of the seed
#   CPDD_RAND_MINIMIZE=N  shrink the first N differing cases to a
#                         minimal reproducer (default 1; 0 for none)
#   CPDD_RAND_VERBOSE=1   print every case's command line
#   CPDD_RAND_KEEP=1      keep the scratch directory
#
# For each difference it prints a self-contained reproducer: the
# fixture's shell commands and the command line, then how GNU's and
# our outcome differ.  A difference that the manual documents as
# deliberate is recognised by one of the predicates in @known below
# and counted as excused instead of failing; one that does not come
# back when the case is run again is shown as FLAKY and does not fail
# the test (GNU's own output can depend on inode numbers), and neither
# does one shown as ORDER: a tree that differs after a directory was
# copied into itself, where the two runs met its entries in another
# inode order.
#
#   use CpddRandom;
#   exit run_random ('cp', 1, 40);

package CpddRandom;

use strict;
use warnings;
use Exporter 'import';
use File::Temp qw(tempdir);
use File::Path qw(remove_tree);
use Cwd qw(abs_path);
use CpddTest ();

our @EXPORT = qw(run_random);

sub fill_dir ($$$$$);
sub overlap_dir ($$$$$);
sub cp_case ();
sub dd_case ();

my $gnu_dir;
my $is_root = $> == 0;

# Extended attributes and file capabilities, where the tools to set
# them are installed (the random choices are made all the same, so
# that a seed gives the same cases elsewhere); a fixture with any is
# digested with its attributes (DIFF_XATTRS), which is slower.
my $setfattr = -x '/usr/bin/setfattr' ? '/usr/bin/setfattr' : undef;
my $setcap = $is_root && -x '/usr/sbin/setcap' ? '/usr/sbin/setcap' : undef;

# Every fixture time is before this (2021-01-01); a time after it was
# set by the run itself, and is compared only as "now".
my $fixture_epoch_end = 1609459200;

# --------------------------------------------------------------------
# Random choices.

sub pick { return $_[int rand @_] }
sub chance ($) { return rand () < $_[0] }
sub between ($$) { my ($lo, $hi) = @_; return $lo + int rand ($hi - $lo + 1) }

# Quote S for the shell, unless it needs no quoting.
sub shq ($)
{
  my ($s) = @_;
  return $s if $s =~ m{^[-\w./=,:+@%]+$};
  $s =~ s/'/'\\''/g;
  return "'$s'";
}

# A random time between 2000 and 2020, with nanoseconds.
sub random_time ()
{
  my $t = between (946684800, 1600000000);
  return sprintf '@%d.%09d', $t, int rand 1e9;
}

# --------------------------------------------------------------------
# Fixtures.  A fixture is a list of groups of shell lines; a group
# makes one thing, so the minimiser can drop it whole.  Lines run with
# "set -e" in an empty directory.

# Random printable content of about N bytes, as a printf command.
sub text_lines ($)
{
  my ($n) = @_;
  my @words = qw(alpha Beta GAMMA delta Eps zeta_9 x yy QUUX tab	end);
  my $s = '';
  while (length $s < $n)
    {
      $s .= pick (@words);
      $s .= chance (0.2) ? "\n" : ' ';
    }
  $s = substr ($s, 0, $n);
  $s =~ s/\\/\\\\/g;
  $s =~ s/%/%%/g;
  $s =~ s/\n/\\n/g;
  $s =~ s/\t/\\t/g;
  return "printf " . shq ($s);
}

# A printf of N random bytes of any value.
sub binary_bytes ($)
{
  my ($n) = @_;
  return "printf '" . join ('', map { sprintf '\\%03o', int rand 256 } 1 .. $n)
    . "'";
}

# Lines that make a regular file PATH with varied content.
sub make_file ($)
{
  my ($path) = @_;
  my $q = shq ($path);
  my $r = rand;
  return ": > $q" if $r < 0.15;
  return text_lines (between (1, 200)) . " > $q" if $r < 0.55;
  return binary_bytes (between (1, 40)) . " > $q" if $r < 0.65;
  return "yes " . shq (pick (qw(line Word 0123456789abcdef))) . " | head -c "
    . between (1000, 70000) . " > $q" if $r < 0.8;
  # Sparse: data, a hole, maybe more data.
  my @l = (text_lines (between (1, 50)) . " > $q",
           "truncate -s " . pick (4096, 65536, 100000, 1048576) . " $q");
  push @l, text_lines (between (1, 50)) . " >> $q" if chance (0.6);
  return join (' && ', @l);
}

# Whether a copy over an existing set-ID file or directory can be
# compared with GNU's: GNU cp keeps the set-ID bits there as libacl
# leaves them, and cp built without ACL support sets the whole mode.
my $setid_comparable = CpddTest::cpdd_has ('USE_ACL');

# MODE, less its set-ID bits where they cannot be compared.  The pick
# is made all the same, so that a seed gives the same cases.
sub comparable_mode ($)
{
  my ($mode) = @_;
  return $setid_comparable ? $mode : sprintf ('%o', oct ($mode) & ~06000);
}

sub file_mode ()
{
  my @m = qw(600 644 444 755 700 640 400 664 4755 2755 1755 777);
  push @m, '000' if $is_root;
  return comparable_mode (pick (@m));
}

sub dir_mode ()
{
  my @m = qw(755 700 775 1777 2775 750 555);
  push @m, '500' if $is_root;
  return comparable_mode (pick (@m));
}

# The state of a fixture being built: its groups, the names made so
# far and their types, and the lines that set times and modes, which
# run last so that making children does not disturb them.
sub new_fixture ()
{
  return { groups => [], types => {}, order => [], late => [] };
}

sub add ($$$@)
{
  my ($fx, $path, $type, @lines) = @_;
  push @{$fx->{groups}}, [@lines];
  $fx->{types}{$path} = $type;
  push @{$fx->{order}}, $path;
}

# Give PATH a time (always) and maybe a mode, owner, at the end.
sub finish_entry ($$$)
{
  my ($fx, $path, $type) = @_;
  my $q = shq ($path);
  my @l;
  if ($type ne 'link')
    {
      push @l, "chmod " . ($type eq 'dir' ? dir_mode () : file_mode ()) . " $q"
        if chance (0.3);
      push @l, "chown nobody:nogroup $q" if $is_root && chance (0.08);
      push @l, "setfattr -n user." . pick (qw(a b colour)) . " -v "
        . pick (qw(1 red 0x00ff)) . " $q"
        if $type ne 'fifo' && chance (0.1) && $setfattr;
      push @l, "setcap cap_net_raw+ep $q"
        if $type eq 'file' && chance (0.03) && $setcap;
    }
  push @l, "touch -c -h -d '" . random_time () . "' $q";
  unshift @{$fx->{late}}, [@l];
}

# Relative path from directory FROM (relative to the fixture's top) to
# TO.
sub relative_to ($$)
{
  my ($from, $to) = @_;
  my @f = grep { length } split m{/}, $from;
  my @t = split m{/}, $to;
  while (@f && @t > 1 && $f[0] eq $t[0]) { shift @f; shift @t }
  return join '/', ('..') x @f, @t;
}

sub dirname_of ($)
{
  my ($p) = @_;
  return $p =~ m{^(.*)/[^/]*$} ? $1 : '';
}

# Make a random symbolic link at PATH.
sub make_symlink ($$)
{
  my ($fx, $path) = @_;
  my $q = shq ($path);
  my @existing = grep { $fx->{types}{$_} ne 'fifo' } @{$fx->{order}};
  my $r = rand;
  my $target;
  if (@existing && $r < 0.45)
    {
      $target = relative_to (dirname_of ($path), pick (@existing));
    }
  elsif (@existing && $r < 0.6)
    {
      return "ln -s \"\$PWD\"/" . shq (pick (@existing)) . " $q";
    }
  elsif ($r < 0.72)
    {
      $target = pick ('nowhere', 'no/such/file', '../gone');
    }
  elsif ($r < 0.8)
    {
      # A loop: to itself, or through the parent directory.
      $target = pick ((split m{/}, $path)[-1], '.', '..');
      $target = '..' if $target eq '..' && dirname_of ($path) eq '';
      $target = '.' if $target eq '..';
    }
  elsif ($r < 0.88)
    {
      # A pair of links pointing at each other.
      my $other = $path . 'x';
      my $base = (split m{/}, $path)[-1];
      $fx->{types}{$other} = 'link';
      push @{$fx->{order}}, $other;
      return "ln -s " . shq ($base . 'x') . " $q && ln -s " . shq ($base)
        . " " . shq ($other);
    }
  else
    {
      $target = pick ('/etc/hostname', '/nonexistent/x');
    }
  return "ln -s " . shq ($target) . " $q";
}

# Fill directory DIR (relative, '' for the top) with N random entries
# named PREFIX1, PREFIX2...; DEPTH limits nesting.
sub fill_dir ($$$$$)
{
  my ($fx, $dir, $n, $depth, $counter) = @_;
  for (1 .. $n)
    {
      my $r = rand;
      my @files = grep { $fx->{types}{$_} eq 'file' } @{$fx->{order}};
      my $type;
      if ($r < 0.42) { $type = 'file' }
      elsif ($r < 0.62) { $type = $depth < 3 ? 'dir' : 'file' }
      elsif ($r < 0.82) { $type = 'link' }
      elsif ($r < 0.94) { $type = @files ? 'hard' : 'file' }
      else { $type = length $dir ? 'fifo' : 'file' }
      my $letter = { file => 'f', dir => 'd', link => 'l', hard => 'h',
                     fifo => 'p' }->{$type};
      my $name = $letter . ++$$counter;
      my $path = length $dir ? "$dir/$name" : $name;
      my $q = shq ($path);
      if ($type eq 'file')
        {
          add ($fx, $path, 'file', make_file ($path));
          finish_entry ($fx, $path, 'file');
        }
      elsif ($type eq 'dir')
        {
          add ($fx, $path, 'dir', "mkdir $q");
          fill_dir ($fx, $path, between (0, 4), $depth + 1, $counter);
          finish_entry ($fx, $path, 'dir');
        }
      elsif ($type eq 'link')
        {
          my $line = make_symlink ($fx, $path);
          add ($fx, $path, 'link', $line);
          finish_entry ($fx, $path, 'link');
        }
      elsif ($type eq 'hard')
        {
          add ($fx, $path, 'file', "ln " . shq (pick (@files)) . " $q");
        }
      else
        {
          add ($fx, $path, 'fifo', "mkfifo $q");
          finish_entry ($fx, $path, 'fifo');
        }
    }
}

# Make, below DST, things that collide with the source entries NAMES
# (relative to SRCDIR): the same type or another, older or newer,
# symbolic links back into the source.
sub overlap_dir ($$$$$)
{
  my ($fx, $srcdir, $dst, $names, $depth) = @_;
  for my $name (@$names)
    {
      next unless chance (0.6);
      my $src = length $srcdir ? "$srcdir/$name" : $name;
      my $stype = $fx->{types}{$src} // 'file';
      my $path = "$dst/$name";
      my $q = shq ($path);
      my $r = rand;
      if ($stype eq 'dir' && $r < 0.55 && $depth < 3)
        {
          add ($fx, $path, 'dir', "mkdir $q");
          my @kids = map { m{^\Q$src\E/([^/]+)$} ? $1 : () } @{$fx->{order}};
          overlap_dir ($fx, $src, $path, \@kids, $depth + 1);
          finish_entry ($fx, $path, 'dir');
        }
      elsif ($r < 0.7)
        {
          add ($fx, $path, 'file', make_file ($path));
          finish_entry ($fx, $path, 'file');
        }
      elsif ($r < 0.8)
        {
          add ($fx, $path, 'dir', "mkdir $q");
          finish_entry ($fx, $path, 'dir');
        }
      elsif ($r < 0.9)
        {
          add ($fx, $path, 'link',
               "ln -s " . shq (relative_to (dirname_of ($path), $src)) . " $q");
          finish_entry ($fx, $path, 'link');
        }
      else
        {
          add ($fx, $path, 'link', "ln -s " . shq (pick ('nowhere', $name))
               . " $q");
          finish_entry ($fx, $path, 'link');
        }
    }
}

sub top_names ($)
{
  my ($fx) = @_;
  return grep { !m{/} } @{$fx->{order}};
}

# A fixture for cp: sources at the top, and often a directory "dst"
# that partly overlaps them.
sub cp_fixture ()
{
  my $fx = new_fixture ();
  my $counter = 0;
  fill_dir ($fx, '', between (2, 5), 0, \$counter);
  if (chance (0.65))
    {
      add ($fx, 'dst', 'dir', 'mkdir dst');
      my @top = grep { $_ ne 'dst' } top_names ($fx);
      overlap_dir ($fx, '', 'dst', \@top, 0);
      finish_entry ($fx, 'dst', 'dir');
    }
  return $fx;
}

sub fixture_lines ($)
{
  my ($fx) = @_;
  return [@{$fx->{groups}}, @{$fx->{late}}];
}

# --------------------------------------------------------------------
# cp command lines.

# Maybe shorten a long option to a prefix, as getopt allows (or not,
# when the prefix is ambiguous).
sub maybe_abbreviate ($)
{
  my ($opt) = @_;
  return $opt unless chance (0.12) && $opt =~ /^--([a-z-]+)(=.*)?$/;
  my ($name, $arg) = ($1, $2 // '');
  return $opt if length $name <= 3;
  return '--' . substr ($name, 0, between (3, length ($name) - 1)) . $arg;
}

sub preserve_list ()
{
  my @attrs = qw(mode ownership timestamps links all xattr);
  my @l = map { pick (@attrs) } 1 .. between (1, 3);
  push @l, 'bogus' if chance (0.03);
  return join ',', @l;
}

sub cp_option ()
{
  my @simple = qw(-a -r -R -p -d -P -L -H -l -s -u -n -i -f -b -x -v -T
                  --remove-destination --parents --attributes-only
                  --archive --recursive --no-dereference --dereference
                  --link --symbolic-link --update --no-clobber --interactive
                  --force --verbose --one-file-system --strip-trailing-slashes
                  --no-target-directory --backup);
  my $r = rand;
  return [pick (@simple)] if $r < 0.7;
  return ['--backup=' . pick (qw(none off numbered t existing nil simple
                                  never bogus))] if $r < 0.76;
  return ['-S', pick ('.bak', '~', '_old')] if $r < 0.79;
  return ['--suffix=' . pick ('.orig', '~~')] if $r < 0.81;
  return ['--preserve=' . preserve_list ()] if $r < 0.87;
  return ['--preserve'] if $r < 0.88;
  return ['--no-preserve=' . preserve_list ()] if $r < 0.93;
  return ['--sparse=' . pick (qw(always never auto))] if $r < 0.95;
  return ['--reflink=' . pick (qw(auto never always))] if $r < 0.96;
  return ['--update=' . pick (qw(all none none-fail older none- o no
                                  bogus))] if $r < 0.985;
  return [pick ('-Z', '--context', '--keep-directory-symlink')];
}

# Merge some single-letter options into one argument, as in "-av".
sub bundle_short (@)
{
  my @opts = @_;
  my (@out, @letters);
  for my $o (@opts)
    {
      if ($o =~ /^-([a-zA-Z])$/ && $1 ne 'S' && $1 ne 't' && chance (0.4))
        {
          push @letters, $1;
        }
      else
        {
          push @out, $o;
        }
    }
  unshift @out, '-' . join ('', @letters) if @letters;
  return @out;
}

# A random source operand: a top-level entry or a path below one.
# Never a FIFO: cp would open it and wait for a writer for ever (no
# link leads to one either); a recursive copy of a directory with one
# makes a FIFO.
sub cp_source ($$)
{
  my ($fx, $parents) = @_;
  my @top = grep { $_ ne 'dst' && $fx->{types}{$_} ne 'fifo' } top_names ($fx);
  my @deep = grep { m{/} && !m{^dst/} && $fx->{types}{$_} ne 'fifo' }
    @{$fx->{order}};
  my $r = rand;
  my $s;
  if ($r < 0.05) { $s = 'nosuch' }
  elsif (@deep && ($parents ? $r < 0.6 : $r < 0.2)) { $s = pick (@deep) }
  else { $s = pick (@top) }
  $s .= '/' if chance (0.12);
  $s = "./$s" if chance (0.04);
  $s .= '.' if $s =~ m{/$} && chance (0.2);
  return $s;
}

sub cp_case ()
{
  my $fx = cp_fixture ();
  my @opts = map { @{cp_option ()} } 1 .. between (0, 5);
  # --keep-directory-symlink does nothing without --copy-contents,
  # which would wait for ever on a FIFO found in a directory.
  push @opts, '--copy-contents'
    if chance (0.5) && grep ({ /^--keep/ } @opts)
       && !grep { $_ eq 'fifo' } values %{$fx->{types}};
  @opts = map { /^--/ ? maybe_abbreviate ($_) : $_ } @opts;
  my $parents = grep { /^--pa/ } @opts;
  my (@src, %seen);
  for (1 .. pick (1, 1, 1, 2, 2, 3))
    {
      my $s = cp_source ($fx, $parents);
      push @src, $s unless $seen{$s}++;
    }
  # A source named twice is a case of its own, not a frequent accident.
  push @src, $src[0] if chance (0.05);
  my $has_dst = exists $fx->{types}{dst};
  my @dests = ('new', 'new/');
  push @dests, ('dst', 'dst', 'dst/') if $has_dst;
  push @dests, pick (grep { $_ ne 'dst' } top_names ($fx)) if chance (0.3);
  push @dests, pick (grep { m{^dst/} } @{$fx->{order}})
    if chance (0.3) && grep { m{^dst/} } @{$fx->{order}};
  my $dest = pick (@dests);
  my @args = bundle_short (@opts);
  if (chance (0.12))
    {
      my @t = ('-t', $dest);
      @t = ("--target-directory=$dest") if chance (0.5);
      @args = chance (0.5) ? (@t, @args, @src) : (@args, @src, @t);
    }
  else
    {
      push @args, @src, $dest;
    }
  my $stdin;
  if (grep { /^-[a-zA-Z]*i|^--in/ } @args)
    {
      $stdin = join '', map { pick ("y\n", "n\n", "yes\n", "\n", "Y\n") }
        1 .. between (0, 6);
    }
  return { fixture => fixture_lines ($fx), prog => 'cp', args => [@args],
           stdin => $stdin };
}

# --------------------------------------------------------------------
# dd command lines.

sub dd_number ($)
{
  my ($kind) = @_;
  my $n = pick (0, 1, 2, 3, 5, 7, 10, 16, 100, 512, 1000, 4096);
  my @suffix = ('', '', '', 'c', 'w', 'b', 'B', 'K', 'k', 'KB', 'kB', 'KiB',
                'x2', 'Kx2', 'M', 'xw', 'bx3');
  push @suffix, pick ('x', 'cB', 'wB', 'Q', 'x2x3', 'Rx0', 'x0x5', 'Bx2B')
    if chance (0.1);
  @suffix = ('', '', 'c', 'w', 'B', 'x3', 'b', 'K', 'kB', '0') if $kind eq 'pos';
  my $s = pick (@suffix);
  $n = 1 if $n == 0 && $kind eq 'bs' && chance (0.5);
  $n = -1 if chance (0.01);
  return "$n$s";
}

# The value of a number as dd_number makes them, roughly: enough to
# tell a modest one from a huge one.
sub dd_value ($)
{
  my ($s) = @_;
  my %mult = ('' => 1, c => 1, w => 2, b => 512, B => 1, K => 1024,
              k => 1024, KB => 1000, kB => 1000, KiB => 1024,
              M => 1 << 20, cB => 1);
  my $v = 1;
  for my $f (split /x/, $s)
    {
      my ($n, $suf) = $f =~ /^(-?\d*)(.*)$/;
      $n = 1 if !defined $n || $n eq '' || $n < 0;
      $v *= $n * ($mult{$suf} // 1);
    }
  return $v;
}

sub dd_flags ($$)
{
  my ($which, $pipes) = @_;
  my @common = qw(sync dsync noatime noctty nofollow nocache);
  # Non-blocking reads of a pipe depend on timing.
  push @common, 'nonblock' unless $pipes;
  my @in = (@common, qw(count_bytes skip_bytes fullblock directory));
  my @out = (@common, qw(seek_bytes append directory));
  # binary and text exist only where files have a text mode.
  push @in, pick ('bogus', 'text', 'binary') if chance (0.05);
  push @in, 'direct' if chance (0.05);
  my @l = map { pick ($which eq 'i' ? @in : @out) } 1 .. between (1, 3);
  return join ',', @l;
}

sub dd_conv ()
{
  my @c = qw(ascii ebcdic ibm block unblock lcase ucase swab sync noerror
             notrunc sparse excl nocreat fdatasync fsync);
  push @c, 'nope' if chance (0.05);
  return join ',', map { pick (@c) } 1 .. between (1, 3);
}

# Whether dd operands OPS could make an output file too big to check
# quickly (a seek of many large blocks).
sub dd_too_big (@)
{
  my %v;
  for (@_)
    {
      $v{$1} = dd_value ($2) if /^(\w+)=(.*)$/ && $1 ne 'conv' && !/flag/;
    }
  my $obs = $v{bs} // $v{obs} // 512;
  my $seek = $v{seek} // $v{oseek} // 0;
  $seek = 1 if grep { /^oflag=.*seek_bytes/ } @_;
  return $obs > (16 << 20) || $v{ibs} && $v{ibs} > (16 << 20)
    || $seek * $obs > (64 << 20)
    || $seek * ($v{seek} // $v{oseek} // 0) > (64 << 20);
}

sub dd_case ()
{
  my $fx = new_fixture ();
  my $r = rand;
  my $small = chance (0.5);
  my $input;
  if ($r < 0.4) { $input = text_lines (between (0, $small ? 300 : 3000)) }
  elsif ($r < 0.55) { $input = binary_bytes (between (1, 60)) }
  elsif ($r < 0.7) { $input = "yes 'AbC dEf 12' | head -c " . between (1, 4000) }
  elsif ($r < 0.8) { $input = ':' }
  else
    {
      $input = text_lines (between (0, 100));
      add ($fx, 'in', 'file', "$input > in && truncate -s "
           . pick (8192, 70000) . " in");
    }
  add ($fx, 'in', 'file', "$input > in") unless exists $fx->{types}{in};
  add ($fx, 'out', 'file', make_file ('out')) if chance (0.4);
  add ($fx, 'dir', 'dir', 'mkdir dir') if chance (0.1);
  add ($fx, 'lnk', 'link', 'ln -s in lnk') if chance (0.1);

  # Input and output: named, redirected, or through pipes.
  my $io = rand;
  my $inname = pick ('in', 'in', 'in', 'in', 'lnk', 'nosuch', 'dir', '.');
  my @outs = ('out', 'out', 'out', 'new', 'dir');
  my ($wrap, @ops);
  if ($io < 0.55)
    {
      @ops = ("if=$inname", 'of=' . pick (@outs, 'in'));
    }
  elsif ($io < 0.65)
    {
      $wrap = "%s < $inname > " . pick (@outs, 'in');
    }
  elsif ($io < 0.8)
    {
      # A pipe gets at most PIPE_BUF bytes at once, so that how dd's
      # reads split the input does not depend on timing.
      $wrap = "head -c 4096 in | %s";
      @ops = ('of=' . pick (@outs));
    }
  elsif ($io < 0.9)
    {
      # Not "dir": the shell's error and dd's would race to stderr.
      @ops = ("if=$inname");
      $wrap = "%s | cat > " . pick (grep { $_ ne 'dir' } @outs);
    }
  else
    {
      @ops = ("if=$inname");
      $wrap = "%s > " . pick (@outs, 'in');
    }
  my $pipes = defined $wrap && $wrap =~ /\|/;

  my @names = qw(bs ibs obs cbs count skip seek iseek oseek);
  for (1 .. between (0, 5))
    {
      my $name = pick (@names);
      my $kind = $name =~ /^(?:count|skip|seek|iseek|oseek|cbs)$/
        ? 'pos' : 'bs';
      push @ops, "$name=" . dd_number ($kind);
    }
  push @ops, 'conv=' . dd_conv () if chance (0.6);
  push @ops, 'conv=' . dd_conv () if chance (0.1);
  # With noerror, dd reads a directory again and again for ever.
  @ops = grep { !/^conv=.*noerror/ } @ops if $inname =~ /^(?:dir|\.)$/;
  push @ops, 'iflag=' . dd_flags ('i', $pipes) if chance (0.35);
  push @ops, 'oflag=' . dd_flags ('o', $pipes) if chance (0.3);
  push @ops, 'status=' . pick (qw(none noxfer progress bogus)) if chance (0.25);
  push @ops, pick ('foo=bar', 'bs', 'count=1x', '--bogus', 'if=') if chance (0.03);
  return dd_case () if dd_too_big (@ops);
  # Writing past the start of the file being read makes it grow as fast
  # as it is read: only a count ends that.
  push @ops, 'count=' . between (1, 5) if grep { $_ eq 'of=in' } @ops;

  # Random order of operands.
  for (my $i = @ops - 1; $i > 0; $i--)
    {
      my $j = int rand ($i + 1);
      @ops[$i, $j] = @ops[$j, $i];
    }
  return { fixture => fixture_lines ($fx), prog => 'dd', args => [@ops],
           wrap => $wrap };
}

# --------------------------------------------------------------------
# Running a case.

sub command_argv ($)
{
  my ($c) = @_;
  return ($c->{prog}, @{$c->{args}}) unless defined $c->{wrap};
  my $cmd = join ' ', map { shq ($_) } $c->{prog}, @{$c->{args}};
  (my $line = $c->{wrap}) =~ s/%s/$cmd/;
  return ('sh', '-c', $line);
}

sub command_line ($)
{
  my ($c) = @_;
  my $s;
  if (defined $c->{wrap})
    {
      $s = join ' ', map { shq ($_) } $c->{prog}, @{$c->{args}};
      (my $line = $c->{wrap}) =~ s/%s/$s/;
      $s = $line;
    }
  else
    {
      $s = join ' ', map { shq ($_) } $c->{prog}, @{$c->{args}};
    }
  if (defined $c->{stdin})
    {
      my $in = $c->{stdin};
      $in =~ s/\n/\\n/g;
      $s = "printf '$in' | $s";
    }
  elsif (!defined $c->{wrap})
    {
      $s .= ' < /dev/null';
    }
  return $s;
}

sub slurp ($)
{
  my ($f) = @_;
  open my $fh, '<', $f or return '';
  binmode $fh;
  local $/;
  my $s = <$fh>;
  return $s // '';
}

sub spew ($$)
{
  my ($f, $s) = @_;
  open my $fh, '>', $f or die "$f: $!";
  binmode $fh;
  print $fh $s;
  close $fh or die "$f: $!";
}

# How long a command may run, in seconds.  Some cases never end (cp
# reading a FIFO), so a time-out is an outcome to compare; a case in
# which only one side timed out is run again with a longer limit,
# since a loaded machine (another test's sync) can stall a copy.
our $time_limit = 10;
my $fixture_time_limit = 120;

# Run ARGV in DIR with PATH starting at BIN, standard input from IN and
# output to OUT and ERR, for at most LIMIT seconds; return the exit
# status (124 on a time-out, as timeout(1) says).
sub run_in ($$$$$$@)
{
  my ($limit, $dir, $bin, $in, $out, $err, @argv) = @_;
  my $pid = fork // die "fork: $!";
  if ($pid == 0)
    {
      chdir $dir or die "$dir: $!";
      open STDIN, '<', $in or die "$in: $!";
      open STDOUT, '>', $out or die "$out: $!";
      open STDERR, '>', $err or die "$err: $!";
      $ENV{PATH} = "$bin:$ENV{PATH}";
      $ENV{LC_ALL} = 'C';
      exec 'timeout', $limit, @argv or exit 127;
    }
  waitpid $pid, 0;
  return $? & 127 ? 128 + ($? & 127) : $? >> 8;
}

my $helpers;

# The digest of the tree below DIR: tree_digest_'s lines, with the
# extended attributes if XATTRS, times set during the run shown as
# "now", and for each file with other names, the first of them.
sub digest ($$)
{
  my ($dir, $xattrs) = @_;
  local $ENV{DIFF_XATTRS} = $xattrs ? 1 : '';
  open my $fh, '-|', 'sh', '-c',
    '. "$1"; DIFF_TIMES=ns tree_digest_ "$2"', 'sh', $helpers, $dir
    or die "sh: $!";
  my @lines = <$fh>;
  close $fh;
  my %first;
  for (@lines)
    {
      s/mtime=(\d+)\.\d+/$1 >= $fixture_epoch_end ? 'mtime=now' : $&/e;
      my ($name) = /^(\S+)/;
      next unless defined $name;
      my @st = lstat "$dir/$name";
      next unless @st && $st[3] > 1 && !-d _;
      my $id = "$st[0]:$st[1]";
      if (exists $first{$id}) { s/$/ same-as=$first{$id}/ }
      else { $first{$id} = $name }
    }
  return join '', @lines;
}

# Run case C with the programs in BIN inside WORK, a fresh directory
# at a fixed path.  Return undef if the fixture could not be built.
sub run_side ($$$)
{
  my ($c, $bin, $work) = @_;
  remove_tree ($work) if -e $work;
  system ('chmod', '-R', 'u+rwx', $work) if -e $work;
  remove_tree ($work) if -e $work;
  mkdir $work or die "$work: $!";
  my $script = join "\n", 'set -e', map { @$_ } @{$c->{fixture}};
  my $rc = run_in ($fixture_time_limit, $work, '/usr/bin:/bin', '/dev/null',
                   "$work.fx-out", "$work.fx-err", 'sh', '-c', $script);
  return undef if $rc != 0;
  spew ("$work.in", $c->{stdin} // '');
  my %r;
  $r{rc} = run_in ($time_limit, $work, $bin, "$work.in", "$work.out",
                   "$work.err", command_argv ($c)) . "\n";
  $r{out} = slurp ("$work.out");
  $r{err} = CpddTest::mask_times (slurp ("$work.err"));
  $r{tree} = digest ($work, $script =~ /^(?:setfattr|setcap) /m);
  $r{order} = into_self_orders ($work, $r{err});
  return \%r;
}

# For each directory that ERR says was copied into itself, its entries
# in WORK in inode order, the order in which both cps read them.  Which
# entries get copied before the copy inside the directory is met, and
# the copy stops, depends on this order, that is on the inode numbers
# the fixture and the run happened to get.
sub into_self_orders ($$)
{
  my ($work, $err) = @_;
  my $s = '';
  for my $dir ($err =~ /cannot copy a directory, '([^']*)', into itself/g)
    {
      opendir my $dh, "$work/$dir" or next;
      my @names = grep { $_ ne '.' && $_ ne '..' } readdir $dh;
      closedir $dh;
      my %ino = map { $_ => (lstat "$work/$dir/$_")[1] // 0 } @names;
      $s .= "$dir: " . join (' ', sort { $ino{$a} <=> $ino{$b} } @names)
        . "\n";
    }
  return $s;
}

# --------------------------------------------------------------------
# Differences that the manual documents.  Each predicate gets the case
# and GNU's and our outcomes, and names the entry it stands for.

my @known = (
  { entry => 'doc/cp.texi, "Differences from GNU cp": with -L or -H, a '
      . 'symbolic link that leads back to a directory being copied is '
      . 'refused with "cannot copy a directory, ... into itself"',
    test => sub {
      my ($c, $gnu, $ours) = @_;
      return $c->{prog} eq 'cp'
        && grep ({ /^-[a-zA-Z]*[LH]|^--de/ } @{$c->{args}})
        && $ours->{err} =~ /cannot copy a directory, .* into itself/
        && $gnu->{err} =~ /File name too long|will not create hard link/;
    } },
);

# The backup suffix case C asks for.
sub backup_suffix ($)
{
  my ($c) = @_;
  my $suffix = '~';
  my @a = @{$c->{args}};
  for my $i (0 .. $#a)
    {
      $suffix = $a[$i + 1] if $a[$i] eq '-S' && $i < $#a;
      $suffix = $1 if $a[$i] =~ /^--su[a-z]*=(.*)$/;
    }
  return $suffix;
}

# The names in tree digest T that end in SUFFIX, by base name.
sub backups_in ($$)
{
  my ($t, $suffix) = @_;
  my %b;
  for ($t =~ /^(\S+)/mg)
    {
      $b{$_} = 1 if substr ($_, -length $suffix) eq $suffix;
    }
  return \%b;
}

push @known,
  { entry => 'doc/cp.texi, "Differences from GNU cp": with '
      . '--backup=simple (or never), the backup of a destination in '
      . 'another directory is made beside it, not relative to the working '
      . 'directory',
    test => sub {
      my ($c, $gnu, $ours) = @_;
      return 0 unless $c->{prog} eq 'cp'
        && grep { /^--ba[a-z]*=(?:s|si|sim|simp|simpl|simple|ne|nev|neve|never)$/ }
             @{$c->{args}};
      my $suffix = backup_suffix ($c);
      my $g = backups_in ($gnu->{tree}, $suffix);
      my $o = backups_in ($ours->{tree}, $suffix);
      my %base;
      $base{(split m{/}, $_)[-1]} |= 1 for grep { !$o->{$_} } keys %$g;
      $base{(split m{/}, $_)[-1]} |= 2 for grep { !$g->{$_} } keys %$o;
      return grep { $_ == 3 } values %base;
    } };

sub known_difference ($$$)
{
  my ($c, $gnu, $ours) = @_;
  for my $k (@known)
    {
      return $k->{entry} if $k->{test}->($c, $gnu, $ours);
    }
  return undef;
}

# --------------------------------------------------------------------
# Comparing, minimising, reporting.

my @aspects = qw(rc out err tree);

sub differing ($$)
{
  my ($gnu, $ours) = @_;
  return join ',', grep { $gnu->{$_} ne $ours->{$_} } @aspects;
}

my ($scratch, $ours_bin);

# Run case C on both sides; return (aspects that differ, GNU's and our
# outcomes), or () if its fixture fails to build.
sub compare_case ($)
{
  my ($c) = @_;
  my $work = "$scratch/w";
  my $gnu = run_side ($c, $gnu_dir, $work) or return ();
  my $ours = run_side ($c, $ours_bin, $work) or return ();
  $ours->{err} = CpddTest::gnu_libc_words ($ours->{err});
  return (differing ($gnu, $ours), $gnu, $ours);
}

# Compare case C again with a time limit six times as long.
sub compare_case_longer ($)
{
  my ($c) = @_;
  local $time_limit = 6 * $time_limit;
  return compare_case ($c);
}

# Whether case C still differs as DIFF did, and not for a documented
# reason.
sub still_differs ($$)
{
  my ($c, $diff) = @_;
  my ($d, $gnu, $ours) = compare_case ($c);
  return defined $d && $d eq $diff && !known_difference ($c, $gnu, $ours);
}

# Shrink case C while it differs the same way: drop fixture groups,
# then single fixture lines, then arguments, then standard input.
sub minimise ($$)
{
  my ($c, $diff) = @_;
  my %c = %$c;
  my $changed = 1;
  while ($changed)
    {
      $changed = 0;
      my @fx = @{$c{fixture}};
      for (my $i = $#fx; $i >= 0; $i--)
        {
          my @try = @fx;
          splice @try, $i, 1;
          my %t = (%c, fixture => [@try]);
          if (still_differs (\%t, $diff)) { @fx = @try; %c = %t; $changed = 1 }
        }
      for (my $i = $#fx; $i >= 0; $i--)
        {
          my @lines = map { split / && / } @{$fx[$i]};
          next unless @lines > 1;
          for (my $j = $#lines; $j >= 0; $j--)
            {
              my @l = @lines;
              splice @l, $j, 1;
              my @try = @fx;
              $try[$i] = [@l];
              my %t = (%c, fixture => [@try]);
              if (still_differs (\%t, $diff))
                { @fx = @try; @lines = @l; %c = %t; $changed = 1 }
            }
        }
      # Plain content instead of generated content.
      for my $i (0 .. $#fx)
        {
          my @lines = @{$fx[$i]};
          next unless @lines == 1
            && $lines[0] =~ /^(?:printf|yes) .* > (\S+)$/
            && $lines[0] !~ /^printf x > /;
          my @try = @fx;
          $try[$i] = ["printf x > $1"];
          my %t = (%c, fixture => [@try]);
          if (still_differs (\%t, $diff)) { @fx = @try; %c = %t; $changed = 1 }
        }
      my @args = @{$c{args}};
      for (my $i = $#args; $i >= 0; $i--)
        {
          my @try = @args;
          splice @try, $i, 1;
          my %t = (%c, args => [@try]);
          if (still_differs (\%t, $diff)) { @args = @try; %c = %t; $changed = 1 }
        }
      if (defined $c{stdin} && length $c{stdin})
        {
          my %t = (%c, stdin => '');
          if (still_differs (\%t, $diff)) { %c = %t; $changed = 1 }
        }
    }
  return \%c;
}

sub unified_diff ($$$)
{
  my ($what, $a, $b) = @_;
  my $base = "$scratch/diff";
  spew ("$base.gnu", $a);
  spew ("$base.ours", $b);
  my $d = `diff -u --label 'GNU $what' --label 'our $what' "$base.gnu" "$base.ours"`;
  # A run that loops prints without end: the start of a difference is
  # enough.
  my @l = split /^/, $d;
  $d = join ('', @l[0 .. 59]) . "[... " . (@l - 60) . " more lines]\n"
    if @l > 80;
  return $d;
}

sub reproducer ($)
{
  my ($c) = @_;
  my $s = "mkdir fix && cd fix\n";
  $s .= join ('', map { join (' && ', @$_) . "\n" } @{$c->{fixture}});
  $s .= command_line ($c) . "\n";
  return $s;
}

# Print the reproducer of case C, number N, and how GNU's outcome GNU
# and ours OURS differ; LABEL says what kind of difference it is.
sub report ($$$$$$$)
{
  my ($label, $prog, $seed, $n, $c, $gnu, $ours) = @_;
  my $s = "=== $label $prog seed=$seed case=$n differs in: "
    . differing ($gnu, $ours) . "\n";
  $s .= "--- command: " . command_line ($c) . "\n";
  $s .= "--- replay: CPDD_RAND_SEED=$seed CPDD_RAND_CASE=$n\n";
  $s .= "--- reproducer:\n" . reproducer ($c);
  for my $a (@aspects)
    {
      next if $gnu->{$a} eq $ours->{$a};
      $s .= unified_diff ($a, $gnu->{$a}, $ours->{$a});
    }
  print STDERR $s;
}

# Run COUNT random cases of PROG from SEED (or what the environment
# asks for); return the exit status for the harness.
sub run_random ($$$)
{
  my ($prog, $seed, $count) = @_;
  $seed = $ENV{CPDD_RAND_SEED} if defined $ENV{CPDD_RAND_SEED};
  $count = $ENV{CPDD_RAND_CASES} if defined $ENV{CPDD_RAND_CASES};
  my $to_minimise = $ENV{CPDD_RAND_MINIMIZE} // 1;
  my $verbose = $ENV{CPDD_RAND_VERBOSE};

  $gnu_dir = CpddTest::gnu_oracle_dir ($prog) // return 77;
  my $srcdir = abs_path ($ENV{srcdir} // '.');
  $helpers = "$srcdir/tests/diff-helpers.sh";
  $ours_bin = abs_path (($ENV{abs_top_builddir} // '.') . '/src');
  $scratch = tempdir ('random-diff.XXXXXX', DIR => abs_path ('.'),
                      CLEANUP => 0);

  my @cases = defined $ENV{CPDD_RAND_CASE} ? ($ENV{CPDD_RAND_CASE})
    : (1 .. $count);
  my ($failed, $excused, $ran, $flaky) = (0, 0, 0, 0);
  for my $n (@cases)
    {
      srand ($seed * 1000003 + $n);
      my $c = $prog eq 'cp' ? cp_case () : dd_case ();
      print STDERR "case $n: " . command_line ($c) . "\n" if $verbose;
      my ($diff, $gnu, $ours) = compare_case ($c);
      ($diff, $gnu, $ours) = compare_case_longer ($c)
        if defined $diff && ($gnu->{rc} == 124) != ($ours->{rc} == 124);
      if (!defined $diff)
        {
          print STDERR "case $n: the fixture could not be built:\n"
            . reproducer ($c) . slurp ("$scratch/w.fx-err");
          $failed++;
          next;
        }
      $ran++;
      print STDERR "case $n: timed out\n"
        if $gnu->{rc} == 124 || $ours->{rc} == 124;
      next if $diff eq '';
      if (my $why = known_difference ($c, $gnu, $ours))
        {
          print STDERR "case $n: " . command_line ($c)
            . "\n  differs as documented: $why\n";
          $excused++;
          next;
        }
      # With a directory copied into itself, a tree that differs where
      # the two runs read that directory's entries in another order is
      # no difference between the cps.
      if ($diff eq 'tree' && $gnu->{order} ne ''
          && $gnu->{order} ne $ours->{order})
        {
          report ('ORDER', $prog, $seed, $n, $c, $gnu, $ours);
          print STDERR "--- entry orders, GNU's then ours:\n$gnu->{order}"
            . $ours->{order};
          $flaky++;
          next;
        }
      # A difference that does not come again depends on timing: worth
      # a look, but not a failure.
      my ($again) = compare_case ($c);
      if (defined $again && $again eq '')
        {
          report ('FLAKY', $prog, $seed, $n, $c, $gnu, $ours);
          $flaky++;
          next;
        }
      $failed++;
      if ($to_minimise > 0)
        {
          $to_minimise--;
          my $m = minimise ($c, $diff);
          my ($d, $mgnu, $mours) = compare_case ($m);
          ($c, $gnu, $ours) = ($m, $mgnu, $mours) if defined $d && $d ne '';
        }
      report ('DIFF', $prog, $seed, $n, $c, $gnu, $ours);
    }
  print STDERR "$prog: seed $seed: $ran cases, $failed differ, "
    . "$excused documented differences, $flaky differ only at times\n";
  system ('chmod', '-R', 'u+rwx', $scratch);
  remove_tree ($scratch) unless $ENV{CPDD_RAND_KEEP};
  return $failed ? 1 : 0;
}

1;
