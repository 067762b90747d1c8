# diff-helpers.sh -- differential testing against GNU's cp and dd.
# Sourced by tests after init.sh:
#
#   . "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
#   . "$srcdir/tests/diff-helpers.sh"
#   require_gnu_ cp
#   mkdir fix && echo data > fix/a || framework_failure_
#   diff_run_ copy-file cp a b
#   Exit $fail
#
# diff_run_ copies the fixture directory "fix" twice, runs the command
# line once with our program and once with GNU's, each in its own copy,
# and compares what the two did: standard output, standard error, exit
# status and the resulting file tree.  Both programs are started by
# their bare name through PATH, so diagnostics ("cp: ...") and the
# "Try 'cp --help'" line read the same.

# Where our programs are, and where GNU's are: those of the release
# cpdd matches, which the harness passes in $gnu_oracle as their
# directory, or as the reason there are none (tests/gnu-oracle).
ours_dir_=${abs_top_builddir-$PWD/..}/src
case ${gnu_oracle-} in
  /*) gnu_dir_=$gnu_oracle ;;
  *) gnu_dir_=/nonexistent/gnu-oracle ;;
esac

# Tests preload libraries of their own (tests/shim, build_shim_) into
# our programs.  A sanitizer build's runtime would refuse to run unless
# loaded first; the libraries only wrap system calls, so the order is
# harmless.  Without a sanitizer the setting is unused.
ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS

# With CPDD_TEST_JOBS=N, our cp copies with --jobs=N: it is run through
# a script named cp that execs it as "cp", so that its messages still
# start "cp: ".
if test -n "${CPDD_TEST_JOBS-}"; then
  jobs_dir_=$PWD/jobs-bin
  mkdir -p "$jobs_dir_" || framework_failure_
  printf '#!/bin/bash\nexec -a cp %s --jobs=%s "$@"\n' \
    "$ours_dir_/cp" "$CPDD_TEST_JOBS" > "$jobs_dir_/cp" \
    && chmod +x "$jobs_dir_/cp" || framework_failure_
  ln -sf "$ours_dir_/dd" "$jobs_dir_/dd" || framework_failure_
  ours_dir_=$jobs_dir_
fi

# A job of mpirun that has not ended after this many seconds is ended
# (by TERM, then KILL), so that a rank that hangs fails its test
# rather than blocking the whole run.
mpi_timeout_=${CPDD_TEST_MPI_TIMEOUT-600}

# The ranks of the tests' jobs all run on this machine: Open MPI's
# transport for that is shared memory, and its default choice would
# first set up UCX, made for networks, which costs 0.2 s of start-up
# in each job.  Other MPIs ignore these, and a setting from the
# environment stays.
: "${OMPI_MCA_pml=ob1}" "${OMPI_MCA_btl=self,vader}"
export OMPI_MCA_pml OMPI_MCA_btl

# mpirun_ N COMMAND...: run COMMAND on N ranks, as root may and with
# more ranks than CPUs, within mpi_timeout_.
mpirun_ ()
{
  mpirun_n_=$1
  shift
  timeout -k 30 "$mpi_timeout_" \
    mpirun --allow-run-as-root --oversubscribe -q -np "$mpirun_n_" "$@"
}

# With CPDD_TEST_MPI=N, "cp" is mpicp on N ranks: mpirun starts it
# as "cp" (through bash's exec -a), so that its messages start
# "cp: ".  Tests that set it call require_mpicp_ first.
if test -n "${CPDD_TEST_MPI-}"; then
  mpi_dir_=$PWD/mpi-bin-$CPDD_TEST_MPI
  mkdir -p "$mpi_dir_" || framework_failure_
  printf '#!/bin/bash
exec timeout -k 30 %s mpirun --allow-run-as-root --oversubscribe -q -np %s \\
  bash -c %s %s "$@"
' \
    "$mpi_timeout_" "$CPDD_TEST_MPI" "'exec -a cp \"\$0\" \"\$@\"'" \
    "${abs_top_builddir-$PWD/..}/src/mpicp" > "$mpi_dir_/cp" \
    && chmod +x "$mpi_dir_/cp" || framework_failure_
  ours_dir_=$mpi_dir_
fi

# Print how to run a command as a user without privileges, so that
# files made unreadable to their owner stay so: as root, setpriv to
# nobody (nothing if setpriv cannot); otherwise a blank, as this user
# is one already.
unprivileged_runner_ ()
{
  if test "$(id -u)" = 0; then
    ur_='setpriv --reuid=65534 --regid=65534 --clear-groups'
    $ur_ true 2>/dev/null && printf '%s\n' "$ur_"
  else
    printf ' \n'
  fi
}

# Make fix/many: directories 0 to $1 - 1 of $2 empty files file1...
# and a file data each, with $3 (a name below fix/many) unreadable, and
# fix and the working directory open to the user running the copy.
many_files_fixture_ ()
{
  mkdir fix/many || framework_failure_
  mf_d=0
  while test $mf_d -lt "$1"; do
    mkdir fix/many/$mf_d || framework_failure_
    ( cd fix/many/$mf_d && seq -f 'file%g' "$2" | xargs touch ) \
      || framework_failure_
    seq "$2" > fix/many/$mf_d/data || framework_failure_
    mf_d=$((mf_d + 1))
  done
  chmod 0 "fix/many/$3" || framework_failure_
  chmod 777 fix || framework_failure_
  chmod 755 . || framework_failure_
}

# strace, with AddressSanitizer's leak check off in what it runs: the
# check cannot work under ptrace, and would fail a sanitizer build's
# every traced run (make check-sanitize).  Under qemu-user it would
# trace the emulator's calls, which are not the program's.
strace_ ()
{
  skip_if_emulated_ "strace would trace the emulator, not the program"
  traced_ "$@"
}

# traced_ ARG...: strace ARG... as strace_ does, but with no skip, for
# a test that leaves out only its traced part where emulated_.
traced_ ()
{
  env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"
}

# Skip the test unless mpicp was built and mpirun can start it.
require_mpicp_ ()
{
  test -x "${abs_top_builddir-$PWD/..}/src/mpicp" \
    || skip_ "mpicp was not built (configure found no mpicc)"
  command -v mpirun > /dev/null 2>&1 \
    || skip_ "no mpirun (Debian package openmpi-bin)"
  # Open MPI's libraries and plugins leave memory allocated at exit,
  # which AddressSanitizer's leak check (make check-sanitize) would
  # report in every run; cp's own tests check the code mpicp shares.
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  export ASAN_OPTIONS
}

# Whether this build has the optional feature NAME (HAVE_O_DIRECT,
# HAVE_FICLONE...), as configure decided in config.h.  Tests of a
# feature skip, or leave out its cases, where it was not compiled in.
cpdd_has_ ()
{
  grep "^#define $1 1" "${abs_top_builddir-$PWD/..}/config.h" >/dev/null 2>&1
}

# gnu_libc_words_ FILE: reword in FILE the error descriptions that end
# our programs' messages as glibc, the C library of the GNU programs
# we compare with, words them; where this build's C library is another
# (musl), the same error reads otherwise, as it would in GNU's programs
# linked with it.  The check that there is nothing to reword is made
# once.
gnu_libc_words_ ()
{
  test "${libc_words_same_-}" = yes && return 0
  perl -I"$abs_srcdir/tests" -MCpddTest -e '
    my $f = shift;
    exit 3 unless %{CpddTest::libc_words ()};
    local $/;
    open my $in, "<", $f or die "$f: $!\n";
    my $text = <$in>;
    close $in;
    open my $out, ">", $f or die "$f: $!\n";
    print $out gnu_libc_words ($text);
    close $out or die "$f: $!\n";' "$1"
  case $? in
    0) ;;
    3) libc_words_same_=yes ;;
    *) framework_failure_ ;;
  esac
}

# build_shim_ PROG: build the C source on standard input into shim.so,
# a library that replaces some calls of the C library's, to be preloaded
# into our PROG and GNU's alike.  Skip the test where nothing can
# compile it, or where it cannot be loaded into both, as when our
# programs are built for another word size than GNU's (i686).
build_shim_ ()
{
  cat > shim.c || framework_failure_
  ${CC-cc} -shared -fPIC -o shim.so shim.c \
    || skip_ 'no C compiler to build the preloaded library'
  for bs_dir_ in "$ours_dir_" "$gnu_dir_"; do
    LD_PRELOAD=$PWD/shim.so "$bs_dir_/$1" --version > /dev/null 2> shim.err \
      && ! test -s shim.err \
      || { cat shim.err; skip_ "the preloaded library does not load into $bs_dir_/$1"; }
  done
}

# diff_run_shimmed_ PROG ARGS...: diff_run_ PROG with each ARGS (one
# word, split into arguments) in turn, shim.so preloaded, under a name
# made of ARGS's letters and digits.
diff_run_shimmed_ ()
{
  drs_prog_=$1
  shift
  for drs_args_
  do
    drs_tag_=$(printf '%s' "$drs_args_" | tr -c 'a-z0-9' '_')
    diff_run_ "$drs_tag_" \
      sh -c "LD_PRELOAD=$PWD/shim.so $drs_prog_ $drs_args_"
  done
}

# Skip the test unless GNU's PROG of the pinned release is there to compare with.
require_gnu_ ()
{
  case ${gnu_oracle-} in
    /*) ;;
    '') skip_ "no GNU $1 to compare with: run the tests through make check" ;;
    *) skip_ "no GNU $1 to compare with: $gnu_oracle" ;;
  esac
  "$gnu_dir_/$1" --version > /dev/null 2>&1 \
    || skip_ "GNU's $1 in $gnu_dir_ does not run"
}

# Whether our programs run under an emulator (qemu-user through
# binfmt_misc, as make check-cross runs them): tests/cross/probe,
# built as they are, hears the emulated CPU from uname, where this
# shell, run natively, hears the host's.  Decided once per test.
emulated_ ()
{
  if test -z "${emulated_machine_-}"; then
    emulated_machine_=$("${abs_top_builddir-$PWD/..}/tests/cross/probe" machine) \
      || framework_failure_
  fi
  test "$emulated_machine_" != "$(uname -m)"
}

# skip_if_emulated_ REASON: skip the test, saying REASON, where our
# programs run under an emulator, which cannot do what the test needs;
# a test that has already failed fails rather than skip.
skip_if_emulated_ ()
{
  emulated_ || return 0
  test "${fail-0}" = 1 \
    && { echo "under the emulator ($emulated_machine_): $1"; Exit 1; }
  skip_ "under the emulator ($emulated_machine_): $1"
}

# Skip the test unless it runs as root (device nodes, other owners).
require_root_ ()
{
  test "$(id -u)" = 0 || skip_ "must be run as root"
}

# The shell's own field separators: space, tab and newline.
default_ifs_=' 	
'

# Print a line per file below DIR: its type, permissions, size, link
# target or content checksum, and, when DIFF_TIMES is set, its
# modification time (to the nanosecond if DIFF_TIMES=ns), and when
# DIFF_XATTRS is set, its extended attributes (ACLs included), and when
# DIFF_BLOCKS is set, the blocks it takes (holes kept or not).  Names
# are relative to DIR.
tree_digest_ ()
{
  # A fixed number of processes whatever the tree's size (a process or
  # two per file took most of a large test's time): cksum reads all
  # regular files at once, find describes every entry, and awk joins
  # what they print by name, the sums and attributes coming first.
  # Names must not hold tabs or newlines.
  ( cd "$1" || exit 1
    { find . -mindepth 1 -type f -exec cksum {} +
      if test -n "${DIFF_XATTRS-}"; then
        find . -mindepth 1 ! -type l -print | xattr_digest_
      fi
      find . -mindepth 1 \( -type l -printf 'L %p\t%l\n' \) \
        -o -printf 'E %y %m %s %U %G %T@ %n %b %p\n'
    } | awk -v times="${DIFF_TIMES-}" -v blocks="${DIFF_BLOCKS-}" \
          -v xattrs_wanted="${DIFF_XATTRS-}" '
      # The name after the first N space-separated fields of the line.
      function rest(n,   s, i) {
        s = $0
        for (i = 0; i < n; i++) sub(/^[^ ]* /, "", s)
        return s
      }
      $1 ~ /^[0-9]+$/ { sum[rest(2)] = $1 ":" $2; next }
      $1 == "X" { split(rest(1), x, "\t"); xattrs[x[1]] = x[2]; next }
      $1 == "L" { split(rest(1), l, "\t"); print l[1] " link " l[2]; next }
      {
        name = rest(9); mtime = $7
        if (times != "ns") sub(/\..*/, "", mtime)
        line = name " " $2 " " $3 " " $4 " " $5 " " $6 " links=" $8
        if (times != "") line = line " mtime=" mtime
        if (blocks != "") line = line " blocks=" $9
        if ($2 == "f")
          line = line " " (name in sum ? sum[name] : "unreadable")
        if (xattrs_wanted != "") line = line " xattrs=" xattrs[name]
        print line
      }' | LC_ALL=C sort )
}

# For each name read, a line "X NAME<tab>PAIRS": the file's extended
# attributes as name=hex pairs, sorted ("?" if they cannot be read).
xattr_digest_ ()
{
  python3 -c '
import os, sys
for f in sys.stdin.read().splitlines():
    try:
        pairs = ",".join("%s=%s" % (n, os.getxattr(f, n).hex())
                         for n in sorted(os.listxattr(f)))
    except OSError:
        pairs = "?"
    print("X %s\t%s" % (f, pairs))'
}

# Skip the test unless extended attributes can be read and written
# here (with python3, which the xattr digest uses).
require_xattrs_ ()
{
  : > xattr-probe || framework_failure_
  python3 -c 'import os; os.setxattr("xattr-probe", "user.probe", b"1")' \
    2>/dev/null || skip_ "no python3 or no user xattrs here"
  rm -f xattr-probe
}

# fifo_ COMMAND...: run COMMAND, which reads a FIFO that the test holds
# open for writing too, to keep it from ending: if the program that
# writes to it died, the read would wait for ever.  A test gone so
# wrong fails after five minutes instead of hanging.
fifo_ () { timeout 300 "$@"; }

# wait_until_ SECONDS COMMAND...
# Run COMMAND every tenth of a second until it succeeds, for at most
# SECONDS of wall-clock time; return 1 if it never does.  For a state
# another process reaches in its own time: a loaded machine may take
# long to get there, so callers give generous limits, and never sleep
# a fixed time instead.
wait_until_ ()
{
  wu_end_=$(($(date +%s) + $1)); shift
  until "$@"; do
    test "$(date +%s)" -lt $wu_end_ || return 1
    sleep .1
  done
}

# require_mpishim_: set mpishim_ to the library that logs the messages
# mpicp's ranks send (tests/shim/mpishim.c), or skip.  A test preloads
# it with mpirun's -x LD_PRELOAD and -x MPISHIM_LOG=FILE, and waits for
# a message to be sent rather than for a time.
require_mpishim_ ()
{
  mpishim_=${abs_top_builddir-$PWD/..}/tests/shim/mpishim.so
  test -f "$mpishim_" || skip_ "tests/shim/mpishim.so was not built"
  mpi_proto_h_=$(cd "$srcdir/src" && pwd)/mpicp-proto.h || framework_failure_
  for mt_name_ in TASK STEAL HELP NOWORK DIR_DONE; do
    test -n "$(mpi_tag_ $mt_name_)" \
      || framework_failure_ "no TAG_$mt_name_ in src/mpicp-proto.h"
  done
}

# mpi_tag_ NAME: the number of mpicp's message tag TAG_NAME, as the
# enum of src/mpicp-proto.h counts them, from TAG_TASK = 1 on.
mpi_tag_ ()
{
  awk -v want="TAG_$1" '
    /^  TAG_TASK = 1,/ { on = 1; n = 1 }
    on && /^};/ { exit }
    on && /^  TAG_/ { t = $1; sub (/,$/, "", t); if (t == want) { print n; exit }; n++ }
  ' "$mpi_proto_h_"
}

# mpi_sent_ LOG FROM TO TAG...: whether mpishim.so's LOG has a message
# from rank FROM to rank TO with one of the tags TAG (names, as mpi_tag_
# takes them); FROM or TO may be "*", any rank.
mpi_sent_ ()
{
  ms_log_=$1 ms_from_=$2 ms_to_=$3; shift 3
  ms_tags_=
  for ms_t_; do ms_tags_="$ms_tags_ $(mpi_tag_ $ms_t_)"; done
  test -f "$ms_log_" && awk -v f="$ms_from_" -v t="$ms_to_" -v g="$ms_tags_" '
    BEGIN { n = split (g, a, " "); for (i = 1; i <= n; i++) tag[a[i]] = 1 }
    (f == "*" || $1 == f) && (t == "*" || $2 == t) && ($3 in tag) { found = 1 }
    END { exit !found }' "$ms_log_"
}

# mpi_first_to_ LOG FROM TAG: the rank to which rank FROM first sent a
# message with tag TAG (a name), as mpishim.so's LOG says; nothing if
# it sent none.
mpi_first_to_ ()
{
  test ! -f "$1" \
    || awk -v f="$2" -v g="$(mpi_tag_ $3)" '$1 == f && $3 == g { print $2; exit }' \
         "$1"
}

# mpi_unrefused_ LOG TO: whether, as mpishim.so's LOG says, some rank
# asked rank TO for work (STEAL or HELP) more often than TO refused it
# (NOWORK): a request TO has yet to answer, or one it answered with
# work, as the log does not say which TASK answers a request (callers
# check for TASKs from TO as well).  That a request was sent does not
# say it is open: TO may have refused it already.  Exact while TO is
# stopped, as a paused process is: every refusal TO sent is logged
# then, and a sender logs its request only once sent, so that the
# count can only lag behind, never show a request open that is not.
mpi_unrefused_ ()
{
  test -f "$1" \
    && awk -v to="$2" -v steal="$(mpi_tag_ STEAL)" -v help="$(mpi_tag_ HELP)" \
         -v nowork="$(mpi_tag_ NOWORK)" '
      $2 == to && ($3 == steal || $3 == help) { asked[$1]++ }
      $1 == to && $3 == nowork { refused[$2]++ }
      END { for (r in asked) if (asked[r] > refused[r] + 0) exit 0; exit 1 }
    ' "$1"
}

# Whether process PID has ended: a zombie not yet waited for, or gone.
# A status that could not be read (a sed that could not fork or open
# it) is no proof of the latter: kill -0 decides.
process_ended_ ()
{
  pe_state_=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' /proc/$1/status \
                2>/dev/null)
  test "$pe_state_" = Z && return 0
  test -n "$pe_state_" && return 1
  ! kill -0 $1 2> /dev/null
}

# slow_writer_ FIRST REST
# Print a shell script that writes FIRST to its standard output, a
# pipe, waits until the reader has taken it all out of the pipe, and
# then writes REST: the reader gets FIRST in reads of its own, short of
# what it asked for.  A fixed pause in between let a reader that a
# loaded machine started late get FIRST and REST in one read.  Where
# perl has no sys/ioctl.ph, FIONREAD is taken as Linux's number.
slow_writer_ ()
{
  printf "printf '%%s' '%s'\n" "$1"
  cat <<'EOS'
perl -e '
  my $fionread = eval { require "sys/ioctl.ph"; FIONREAD () } // 0x541B;
  for my $i (1 .. 6000)
    {
      my $n = pack "i", 0;
      ioctl STDOUT, $fionread, $n or die "FIONREAD: $!\n";
      exit 0 if unpack ("i", $n) == 0;
      select undef, undef, undef, 0.1;
    }
  die "the reader never read\n";' || exit
EOS
  printf "printf '%%s' '%s'\n" "$2"
}

# Mask dd's time and rate figures, which differ from run to run.
mask_dd_times_ ()
{
  sed -e 's/copied, [0-9.e+-]* s, [0-9.]* [kMGTPEZYRQ]*B\/s$/copied, T s, R B\/s/' \
      -e 's/copied, [0-9.e+-]* s, Infinity B\/s$/copied, T s, R B\/s/'
}

# The entries below DIR, with their inode numbers, for entry_order_.
entry_list_ ()
{
  (cd "$1" && exec find . -mindepth 1 -printf '%h\t%i\t%f\n')
}

# The entries of each directory in LIST (made by entry_list_) in the
# order of their inode numbers, which is the order both cps copy a
# directory's entries in.  Only needed when outputs differ, so made
# from the list then.
entry_order_ ()
{
  LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n "$1" | cut -f1,3
}

# Whether two entries of one directory below DIR are links to one
# file: their order is then up to the C library's sort by inode, which
# is stable in glibc and not in musl.
has_linked_siblings_ ()
{
  (cd "$1" && find . -mindepth 1 -printf '%h\t%i\n') | LC_ALL=C sort \
    | uniq -d | grep -q .
}

# Whether the outcome WHAT of TAG differs only in the order of its
# lines, because the copies of the fixture that the two sides ran in
# list their entries in different orders: inode numbers are handed
# out again as other tests free them, so a copy need not number its
# files in the order of the original.
differs_in_order_only_ ()
{
  case $2 in out|err) ;; *) return 1 ;; esac
  entry_order_ "$1.gnu.entries" > "$1.gnu.order" \
    && entry_order_ "$1.ours.entries" > "$1.ours.order" || framework_failure_
  cmp -s "$1.gnu.order" "$1.ours.order" && ! has_linked_siblings_ "$1.gnu" \
    && return 1
  LC_ALL=C sort "$1.gnu.$2" > "$1.gnu.$2-sorted" || framework_failure_
  LC_ALL=C sort "$1.ours.$2" > "$1.ours.$2-sorted" || framework_failure_
  cmp -s "$1.gnu.$2-sorted" "$1.ours.$2-sorted" || return 1
  echo "$1: $2 differs from GNU's only in order, as the fixture's" \
    "copies order their entries differently" >&2
}

# diff_run_ TAG PROG ARG...
# Run PROG ARG... as ours and as GNU's, each in a fresh copy of "fix"
# (an empty directory if there is none), with standard input from
# TAG.in if that exists, and compare the outcomes.  Sets fail=1 on any
# difference and shows it.
diff_run_ ()
{
  tag_=$1; shift
  case $* in
    *LD_PRELOAD=*)
      skip_if_emulated_ "a library built for it cannot be preloaded into GNU's native programs" ;;
  esac
  test -d fix || mkdir fix || framework_failure_
  for side_ in ours gnu; do
    test ! -e "$tag_.$side_" || rm -rf "$tag_.$side_" || framework_failure_
    "$gnu_dir_/cp" -a fix "$tag_.$side_" || framework_failure_
    entry_list_ "$tag_.$side_" > "$tag_.$side_.entries" || framework_failure_
    if test $side_ = ours; then dir_=$ours_dir_; else dir_=$gnu_dir_; fi
    in_=/dev/null
    test -f "$tag_.in" && in_=$PWD/$tag_.in
    ( cd "$tag_.$side_" && PATH="$dir_:$PATH" && export PATH \
        && "$@" < "$in_" > "../$tag_.$side_.out" 2> "../$tag_.$side_.err"
      echo $? > "../$tag_.$side_.rc" )
    test $side_ = gnu || gnu_libc_words_ "$tag_.$side_.err"
    # "sh -c '... | dd ...'" runs dd in a pipeline: mask its times too.
    case $1 in
      dd|sh) mask_dd_times_ < "$tag_.$side_.err" > "$tag_.$side_.err-t" \
            && mv "$tag_.$side_.err-t" "$tag_.$side_.err" ;;
    esac
    tree_digest_ "$tag_.$side_" > "$tag_.$side_.tree" || framework_failure_
  done
  for what_ in rc out err tree; do
    cmp -s "$tag_.gnu.$what_" "$tag_.ours.$what_" && continue
    differs_in_order_only_ "$tag_" $what_ && continue
    compare "$tag_.gnu.$what_" "$tag_.ours.$what_"
    echo "$tag_: $what_ differs from GNU's for: $*" >&2
    fail=1
  done
}

# cp_variants_ RANKS: set cps to the ways of running cp that a test of
# the whole command repeats its cases with: cp, cp --jobs=4 (cp_jobs_)
# and, where it was built and mpirun is there, mpicp on RANKS ranks
# (cp_mpi_).
cp_variants_ ()
{
  cp_mpi_ranks_=$1
  cps='cp cp_jobs_'
  if test -x "${abs_top_builddir-$PWD/..}/src/mpicp" \
     && command -v mpirun > /dev/null 2>&1; then
    require_mpicp_
    cps="$cps cp_mpi_"
  else
    echo "no mpicp or mpirun: mpicp not checked" >&2
  fi
}
cp_jobs_ () { cp --jobs=4 "$@"; }
cp_mpi_ ()
{
  mpirun_ "$cp_mpi_ranks_" "${abs_top_builddir-$PWD/..}/src/mpicp" "$@"
}

# special_files_ DIR...: make in each DIR a FIFO "fifo", a character
# device "null" (as /dev/null's) and a socket "sock"; skip the test
# where devices or sockets cannot be made.
special_files_ ()
{
  for sf_dir_ in "$@"; do
    mkfifo "$sf_dir_/fifo" || framework_failure_
    mknod "$sf_dir_/null" c 1 3 || skip_ "cannot make device nodes here"
    python3 -c '
import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])
' "$sf_dir_/sock" 2>/dev/null || skip_ "cannot make sockets here"
  done
}

# report_times_failed_ REPORT SRC DST: whether the --report file REPORT
# has one record of SRC, a directory recorded as failed because the
# times of its copy DST could not be set (the fault shim's futimens,
# FAULT_MODE=eio), with cp's diagnostic.
report_times_failed_ ()
{
  jq -e -s --arg src "$2" \
    --arg msg "preserving times for '$3': Input/output error" \
    'map(select(.source == $src)) | length == 1
     and (.[0] | .type == "directory" and .error == $msg and .errno == 5)' \
    "$1" > /dev/null
}

# report_summary_ REPORT FILES COPIED FAILED: whether the last line of
# REPORT sums the run up with these counts.
report_summary_ ()
{
  tail -n 1 "$1" | jq -e --argjson f "$2" --argjson c "$3" --argjson x "$4" \
    '.record == "summary" and .files == $f and .copied == $c
     and .failed == $x' > /dev/null
}
