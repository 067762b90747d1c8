#!/bin/sh
# mpicp turns Nagle's algorithm off only on the TCP connections the
# MPI runtime makes: a TCP socket it inherits, open beyond its standard
# descriptors, is its caller's, whose options it must leave alone, as
# cp does.  Run without mpirun (a job of one rank), mpicp kept such a
# socket, and set TCP_NODELAY on it.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_mpicp_
perl -MIO::Socket::INET -e 1 2> /dev/null \
  || skip_ "no perl with IO::Socket::INET"

echo a > a || framework_failure_

# A connection on the loopback, one end of which mpicp inherits; print
# that end's TCP_NODELAY after mpicp ran, or "no connection".
perl -MIO::Socket::INET -MSocket=IPPROTO_TCP,TCP_NODELAY -MFcntl -e '
  my $l = IO::Socket::INET->new (Listen => 1, LocalAddr => "127.0.0.1",
                                 LocalPort => 0, Proto => "tcp")
    or do { print "no connection\n"; exit };
  my $c = IO::Socket::INET->new (PeerAddr => "127.0.0.1",
                                 PeerPort => $l->sockport, Proto => "tcp")
    or do { print "no connection\n"; exit };
  my $s = $l->accept;
  fcntl ($c, F_SETFD, 0) or die "fcntl: $!";
  system (@ARGV) == 0 or print "mpicp failed\n";
  my $v = getsockopt ($c, IPPROTO_TCP, TCP_NODELAY) or die "getsockopt: $!";
  print unpack ("i", $v), "\n";
' mpicp a b > out || framework_failure_
case $(cat out) in
  "no connection") skip_ "no TCP connection on the loopback" ;;
esac
echo 0 > exp || framework_failure_
compare exp out || fail=1
compare a b || fail=1

Exit $fail
