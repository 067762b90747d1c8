# CpddTest.pm -- table-driven tests of cpdd's programs from Perl.
#
# A test is a list of cases; each case names the program, its
# arguments, optional standard input, and what is expected: either
# explicit OUT/ERR/EXIT values, or GNU => 1 to expect exactly what
# GNU's program of the pinned release (tests/gnu-oracle) does with the
# same arguments and input.  dd's
# time and rate figures are masked before comparing.
#
#   use CpddTest;
#   exit run_cases ('dd', [
#     { name => 'count', args => ['bs=1', 'count=2'], in => "abc", GNU => 1 },
#     { name => 'bad', args => ['foo'], EXIT => 1,
#       ERR => "dd: unrecognized operand 'foo'\n"
#              . "Try 'dd --help' for more information.\n" },
#   ]);

package CpddTest;

use strict;
use warnings;
use Exporter 'import';
use File::Temp qw(tempdir);

our @EXPORT = qw(run_cases cpdd_has cpdd_sizeof gnu_libc_words);

# The directory of GNU's cp and dd of the release cpdd matches, which
# the harness passes in $gnu_oracle, or undef after warning why a test
# that needs them skips: $gnu_oracle then holds the reason.
sub gnu_oracle_dir ($)
{
  my ($prog) = @_;
  my $oracle = $ENV{gnu_oracle} // '';
  my $why = $oracle eq '' ? 'run the tests through make check' : $oracle;
  if ($oracle =~ m{^/})
    {
      return $oracle if system ("$oracle/$prog --version >/dev/null 2>&1") == 0;
      $why = "GNU's $prog in $oracle does not run";
    }
  warn "skipped: no GNU $prog to compare with: $why\n";
  return undef;
}

sub ours_dir ()
{
  my $top = $ENV{abs_top_builddir} // '.';
  return "$top/src";
}

# The lines of the build's config.h, read once.
my @config_h;
sub config_lines ()
{
  return @config_h if @config_h;
  my $top = $ENV{abs_top_builddir} // '.';
  open my $fh, '<', "$top/config.h" or die "$top/config.h: $!\n";
  @config_h = <$fh>;
  close $fh;
  return @config_h;
}

# Whether configure compiled in the optional feature MACRO (USE_ACL,
# HAVE_FICLONE...), as the shell tests' cpdd_has_ tells.
sub cpdd_has ($)
{
  my ($macro) = @_;
  return scalar grep { /^#define \Q$macro\E 1$/ } config_lines ();
}

# The size in bytes of the C type whose SIZEOF_ macro is MACRO, in the
# build under test: a 32-bit build refuses sizes a 64-bit one accepts.
sub cpdd_sizeof ($)
{
  my ($macro) = @_;
  for (config_lines ())
    {
      return $1 if /^#define \Q$macro\E ([0-9]+)$/;
    }
  die "config.h does not define $macro\n";
}

# This build's C library may word an error otherwise than glibc, the
# C library of the GNU programs compared with (and of perl, whose $! is
# glibc's words).  Its words for each error number that glibc words
# otherwise, mapped to glibc's, read once from tests/strerror-words.
# Words it gives more than one number (musl's "No error information")
# cannot be mapped back, and stay.
my $libc_words;
sub libc_words ()
{
  return $libc_words if $libc_words;
  my $top = $ENV{abs_top_builddir} // '.';
  my $prog = "$top/tests/strerror-words";
  open my $fh, '-|', $prog or die "$prog: $!\n";
  local $/ = "\n";
  my (%glibc, %count);
  while (<$fh>)
    {
      chomp;
      my ($n, $ours) = split /\t/, $_, 2;
      local $! = $n;
      my $theirs = "$!";
      $count{$ours}++;
      $glibc{$ours} = $theirs
        if $ours ne $theirs && $theirs !~ /^Unknown error/;
    }
  close $fh or die "$prog failed\n";
  delete @glibc{grep { $count{$_} > 1 } keys %count};
  return $libc_words = \%glibc;
}

# TEXT, with each error description at the end of a line, as our
# programs print them, in glibc's words.
sub gnu_libc_words ($)
{
  my ($text) = @_;
  my $words = libc_words ();
  return $text unless %$words;
  my $any = join '|', map { quotemeta } sort { length $b <=> length $a }
                                         keys %$words;
  $text =~ s/: ($any)$/: $words->{$1}/mg;
  return $text;
}

sub mask_times ($)
{
  my ($s) = @_;
  $s =~ s/copied, [0-9.e+-]+ s, (?:[0-9.]+ [kMGTPEZYRQ]?|Infinity )B\/s$/copied, T s, R B\/s/mg;
  return $s;
}

# Run PROG from DIR with ARGS and INPUT in a scratch directory; return
# (stdout, stderr, exit status).
sub run_prog ($$$$)
{
  my ($dir, $prog, $args, $input) = @_;
  my $tmp = tempdir (CLEANUP => 1);
  my $in = "$tmp/in";
  open my $fh, '>', $in or die "$in: $!";
  binmode $fh;
  print $fh (defined $input ? $input : '');
  close $fh or die "$in: $!";

  my $pid = fork // die "fork: $!";
  if ($pid == 0)
    {
      chdir $tmp or die "$tmp: $!";
      open STDIN, '<', $in or die;
      open STDOUT, '>', "$tmp/out" or die;
      open STDERR, '>', "$tmp/err" or die;
      $ENV{PATH} = "$dir:$ENV{PATH}";
      $ENV{LC_ALL} = 'C';
      exec $prog, @$args or exit 127;
    }
  waitpid $pid, 0;
  my $status = $? >> 8;
  local $/;
  my ($out, $err) = ('', '');
  if (open my $o, '<', "$tmp/out") { $out = <$o> }
  if (open my $e, '<', "$tmp/err") { $err = <$e> }
  $err //= '';
  # A build with AddressSanitizer (make check-sanitize) warns before it
  # refuses a huge allocation; what the program then says is the test.
  $err =~ s/^==\d+==WARNING: AddressSanitizer failed to allocate .*\n//mg;
  $err = gnu_libc_words ($err) if $dir eq ours_dir ();
  return ($out // '', mask_times ($err), $status);
}

sub show ($)
{
  my ($s) = @_;
  $s =~ s/\n/\\n/g;
  return "'$s'";
}

# Run each case of CASES with PROG.  Print a line per failure and
# return the exit status for the harness: 0 if all passed, 1 if not,
# 77 if a case needs GNU's program and the system lacks it.
sub run_cases ($$)
{
  my ($prog, $cases) = @_;
  my $fail = 0;

  my $gnu_dir;
  if (grep { $_->{GNU} } @$cases)
    {
      $gnu_dir = gnu_oracle_dir ($prog) // return 77;
    }

  for my $c (@$cases)
    {
      my ($out, $err, $status)
        = run_prog (ours_dir (), $prog, $c->{args}, $c->{in});
      my %exp;
      if ($c->{GNU})
        {
          @exp{qw(OUT ERR EXIT)}
            = run_prog ($gnu_dir, $prog, $c->{args}, $c->{in});
        }
      for my $k (qw(OUT ERR EXIT))
        {
          $exp{$k} = $c->{$k} if exists $c->{$k};
        }
      my %got = (OUT => $out, ERR => $err, EXIT => $status);
      for my $k (qw(OUT ERR EXIT))
        {
          next unless exists $exp{$k};
          next if $got{$k} eq $exp{$k};
          warn "$c->{name}: $k: expected " . show ($exp{$k})
            . ", got " . show ($got{$k}) . "\n";
          $fail = 1;
        }
    }
  return $fail;
}

1;
