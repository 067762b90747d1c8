# rel-helpers.sh -- shared by the reliability tests.
# Sourced after init.sh and diff-helpers.sh:
#
#   . "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
#   . "$srcdir/tests/diff-helpers.sh"
#   . "$srcdir/tests/reliability/rel-helpers.sh"
#
# The tests run each fault through every I/O method and direct mode.
# A method or mode our program refuses (not built, not supported on
# this file system) is left out with a note in the test's log: the
# test then covers what exists, and grows as the engine does.

# The methods and direct modes every fault goes through: cp's
# --io-method values, and dd's two ways of reading (its read loop, and
# the engine's mmap windows with iflag=mmap).
rel_methods_='read mmap offload auto'
rel_dd_methods_='read mmap'
rel_directs_='none direct'
# Without direct I/O compiled in, --direct copies through the page cache
# after a warning, which GNU cp does not print.
cpdd_has_ HAVE_O_DIRECT || rel_directs_=none

# Our cp's options for METHOD and DIRECT ("none" or "direct"), then
# any the test puts in rel_cp_opts_.
cp_xfer_opts_ ()
{
  opts_="--io-method=$1"
  test "$2" = direct && opts_="$opts_ --direct"
  printf '%s\n' "$opts_${rel_cp_opts_+ $rel_cp_opts_}"
}

# Our dd's operands for METHOD (one of rel_dd_methods_) and DIRECT.
# dd takes direct I/O as iflag=direct oflag=direct, like GNU dd.
dd_xfer_opts_ ()
{
  opts_=
  test "$1" = mmap && opts_=iflag=mmap
  test "$2" = direct && opts_="$opts_ iflag=direct oflag=direct"
  printf '%s\n' "$opts_"
}

# The methods PROG (cp or dd) is tested with.
methods_of_ ()
{
  if test "$1" = dd; then echo "$rel_dd_methods_"; else echo "$rel_methods_"; fi
}

# ours_accepts_ DIR PROG OPT...
# Whether our PROG copies a small file in directory DIR with options
# OPT...; if not, say so in the log, so the combination is skipped
# rather than failed.
ours_accepts_ ()
{
  acc_dir_=$1 acc_prog_=$2; shift 2
  printf '%4096s' x > "$acc_dir_/rel-probe.in" || framework_failure_
  case $acc_prog_ in
    cp) "$ours_dir_/cp" "$@" "$acc_dir_/rel-probe.in" "$acc_dir_/rel-probe.out" ;;
    dd) "$ours_dir_/dd" "$@" if="$acc_dir_/rel-probe.in" \
          of="$acc_dir_/rel-probe.out" bs=4096 status=none ;;
  esac > rel-probe.err 2>&1
  acc_rc_=$?
  rm -f "$acc_dir_/rel-probe.in" "$acc_dir_/rel-probe.out"
  if test $acc_rc_ != 0; then
    echo "note: skipping $acc_prog_ $*: our $acc_prog_ refuses it here:" \
      "$(cat rel-probe.err)"
    return 1
  fi
  return 0
}

# run_as_ SIDE PROG ARG...
# Run PROG (cp or dd) as ours or GNU's (SIDE), by its bare name so that
# diagnostics start the same way, with standard output and error in
# SIDE.out and SIDE.err and the exit status in SIDE.rc.  dd's time and
# rate figures are masked.  PROG may be with_faults_ ... -- PROG.
run_as_ ()
{
  ra_side_=$1; shift
  if test $ra_side_ = ours; then ra_dir_=$ours_dir_; else ra_dir_=$gnu_dir_; fi
  ( PATH="$ra_dir_:$PATH" && export PATH && "$@" ) \
    > $ra_side_.out 2> $ra_side_.err < /dev/null
  echo $? > $ra_side_.rc
  mask_dd_times_ < $ra_side_.err > $ra_side_.err-t \
    && mv $ra_side_.err-t $ra_side_.err
}

# compare_sides_ WHAT: compare ours.* with gnu.* (rc, out, err); print
# WHAT and set fail=1 on a difference.
compare_sides_ ()
{
  for cs_what_ in rc out err; do
    compare gnu.$cs_what_ ours.$cs_what_ \
      || { echo "$1: $cs_what_ differs from GNU's" >&2; fail=1; }
  done
}

# check_no_crash_ WHAT RC: fail unless RC is an ordinary exit status;
# a status above 128 is death by a signal (SIGBUS is 135, SIGSEGV 139).
check_no_crash_ ()
{
  if test "$2" -gt 128; then
    echo "$1: died by signal $(($2 - 128))" >&2
    fail=1
  fi
}

# is_prefix_ PART WHOLE: whether file PART holds the first bytes of
# WHOLE (a partial copy has no wrong bytes).
is_prefix_ ()
{
  ip_size_=$(stat -c %s "$1") || return 1
  cmp -n "$ip_size_" "$1" "$2" >/dev/null 2>&1
}

# A scratch file system of SIZE (e.g. 1m) mounted on directory DIR,
# removed when the test ends.  Skips the test when this cannot be done.
mount_tiny_fs_ ()
{
  test "$(id -u)" = 0 || skip_ "mounting a small file system needs root"
  mkdir -p "$2" || framework_failure_
  mount -t tmpfs -o size="$1" tmpfs "$2" 2>/dev/null \
    || skip_ "cannot mount a $1 tmpfs"
  rel_mounts_="$PWD/$2 ${rel_mounts_-}"
}

cleanup_ ()
{
  for m_ in ${rel_mounts_-}; do
    umount "$m_" 2>/dev/null
  done
  :
}

# Options that give our cp more than one buffer to move with direct
# I/O when it copies a file of a few megabytes, so that the buffers go
# through its queue, with reads and writes in flight together.
rel_queue_opts_='--direct --buffer-size=64K'

# queue_kind_ DIR
# Set rel_queue_kind_ to the queue ("reader thread" or "io_uring") our
# cp sends the data through when it copies in directory DIR with
# rel_queue_opts_, as its --debug line says; to "none" if it uses
# none.  Skips the test where direct I/O is not built in or DIR's file
# system refuses it, and fails it if the copy fails.
queue_kind_ ()
{
  rel_queue_kind_=none
  cpdd_has_ HAVE_O_DIRECT || skip_ "direct I/O is not built in"
  head -c 300000 /dev/urandom > "$1/rel-queue.in" || framework_failure_
  "$ours_dir_/cp" --debug $rel_queue_opts_ "$1/rel-queue.in" \
    "$1/rel-queue.out" > rel-queue.dbg 2>&1
  qk_rc_=$?
  cmp "$1/rel-queue.in" "$1/rel-queue.out" > /dev/null 2>&1 || qk_rc_=1
  rm -f "$1/rel-queue.in" "$1/rel-queue.out"
  if test $qk_rc_ != 0; then
    cat rel-queue.dbg
    echo "cp $rel_queue_opts_: a plain copy failed"
    fail=1
    return
  fi
  grep 'direct I/O: both' rel-queue.dbg > /dev/null \
    || skip_ "no direct I/O on the file system of $1"
  qk_kind_=$(sed -n 's/.*, in flight: [0-9]* buffers (\(.*\))$/\1/p' \
    rel-queue.dbg)
  test -z "$qk_kind_" || rel_queue_kind_=$qk_kind_
}

# check_queue_ DIR KIND
# queue_kind_ DIR, failing the test unless the queue is KIND.
check_queue_ ()
{
  queue_kind_ "$1"
  test "$rel_queue_kind_" = "$2" \
    || { cat rel-queue.dbg; echo "cp $rel_queue_opts_: not through the $2"
         fail=1; }
}

# io_uring_expected_ DIR
# Whether our cp copies in directory DIR through io_uring, as it must
# where it was built with liburing and the kernel lets this process use
# io_uring; fails the test if it does not.  A seccomp filter (as in some
# containers) may refuse io_uring without the process knowing it in
# advance: then a copy without io_uring is only noted.  Whatever the
# answer, notes why in the log.
io_uring_expected_ ()
{
  if ! cpdd_has_ HAVE_LIBURING; then
    echo "note: built without liburing"
    return 1
  fi
  iue_disabled_=$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null) \
    || iue_disabled_=0
  if test "$iue_disabled_" = 2 \
     || { test "$iue_disabled_" = 1 && test "$(id -u)" != 0; }; then
    echo "note: kernel.io_uring_disabled=$iue_disabled_ keeps io_uring away"
    return 1
  fi
  iue_probe_=$("${abs_top_builddir-$PWD/..}/tests/cross/probe" io_uring)
  case $iue_probe_ in
    no\ *)
      echo "note: io_uring_setup fails here (errno ${iue_probe_#no }):" \
           "the reader thread must be used"
      check_queue_ "$1" 'reader thread'
      return 1 ;;
  esac
  queue_kind_ "$1"
  test "$rel_queue_kind_" = io_uring && return 0
  if grep '^Seccomp:[[:space:]]*2' /proc/self/status > /dev/null; then
    echo "note: no io_uring, perhaps refused by this seccomp filter"
  else
    cat rel-queue.dbg
    echo "cp $rel_queue_opts_: not through io_uring, though it is allowed"
    fail=1
  fi
  return 1
}

# The fault-injection library, or a skip when it was not built.
require_faultshim_ ()
{
  faultshim_=${abs_top_builddir-$PWD/..}/tests/shim/faultshim.so
  test -f "$faultshim_" || skip_ "tests/shim/faultshim.so was not built"
  # Built for the emulated CPU, it reaches the native programs the
  # tests run it through (timeout, the shell, GNU's) as an error.
  skip_if_emulated_ "the fault shim, built for it, cannot be preloaded into native programs"
}

# with_faults_ VAR=VALUE... -- CMD ARG...
# Run CMD with the shim loaded and the FAULT_* settings given (in a
# subshell, so that none is left over for the next call).
with_faults_ ()
{
  ( while test "$1" != --; do
      export "$1" || exit 99
      shift
    done
    shift
    LD_PRELOAD=$faultshim_ && export LD_PRELOAD && exec "$@" )
}

# The calls that read the source, and those that write the destination,
# for FAULT_OP: whichever a method uses meets the fault.
rel_read_ops_=read,pread,preadv2,copy_file_range,sendfile
rel_write_ops_=write,pwrite,pwritev2,copy_file_range,sendfile

# fault_run_ SIDE READ-OR-WRITE DEST VAR=VALUE... -- CMD ARG...
# Run CMD as SIDE's program (ours or gnu) with the fault the FAULT_*
# settings describe on the calls that read "src", or on those that
# write a file whose path matches the glob DEST, logging to fault.log.
fault_run_ ()
{
  fr_side_=$1 fr_ops_=$rel_write_ops_ fr_path_=$3
  if test "$2" = read; then
    fr_ops_=$rel_read_ops_ fr_path_='*/src'
  fi
  shift 3
  rm -f fault.log || framework_failure_
  run_as_ $fr_side_ with_faults_ FAULT_OP=$fr_ops_ FAULT_FD_PATH="$fr_path_" \
    FAULT_LOG="$PWD/fault.log" "$@"
}

# exact_under_fault_ PROG MODE
# Copy a file with our PROG (cp or dd) by every method and direct mode,
# with FAULT_MODE=MODE on the reading side and then on the writing
# side, and fail unless each copy succeeds silently and is byte-exact.
# A fault the method never meets is noted in the log (fault_not_met_).
exact_under_fault_ ()
{
  euf_prog_=$1 euf_mode_=$2
  test -f src || head -c 1000000 /dev/urandom > src || framework_failure_
  for method in $(methods_of_ $euf_prog_); do
    for direct in $rel_directs_; do
      euf_opts_=$(${euf_prog_}_xfer_opts_ $method $direct)
      ours_accepts_ . $euf_prog_ $euf_opts_ || continue
      for euf_side_ in read write; do
        if test $euf_side_ = read; then
          euf_ops_=$rel_read_ops_ euf_glob_='*/src'
        else
          euf_ops_=$rel_write_ops_ euf_glob_='*/dst'
        fi
        euf_what_="$euf_prog_ $euf_opts_ with $euf_mode_ ${euf_side_}s"
        rm -f dst fault.log || framework_failure_
        case $euf_prog_ in
          cp) set -- "$ours_dir_/cp" $euf_opts_ src dst ;;
          dd) set -- "$ours_dir_/dd" $euf_opts_ if=src of=dst bs=64k \
                status=none ;;
        esac
        with_faults_ FAULT_OP=$euf_ops_ FAULT_FD_PATH="$euf_glob_" \
          FAULT_MODE=$euf_mode_ FAULT_AT=303104 FAULT_LOG="$PWD/fault.log" \
          -- timeout 60 "$@" > euf.out 2> euf.err
        euf_rc_=$?
        check_no_crash_ "$euf_what_" $euf_rc_
        if test $euf_rc_ != 0 || test -s euf.err || test -s euf.out; then
          echo "$euf_what_: exit $euf_rc_, output:"; cat euf.out euf.err
          fail=1
        fi
        cmp src dst || { echo "$euf_what_: the copy differs"; fail=1; }
        test -s fault.log || fault_not_met_ $method "$euf_what_"
      done
    done
  done
}

# resize_during_copy_ PROG
# Shrink, then grow, the source while our PROG (cp or dd) copies it, by
# every method and direct mode, once when the copy has written 303104
# bytes and once just after the source is mapped into memory.  Either
# PROG reports an error (exit 1, a message) or it succeeds and the copy
# is what the source held at some point: the old bytes up to at least
# the new size, or the whole new file.  Death by a signal (SIGBUS from
# pages past the new end of file) fails the test.
resize_during_copy_ ()
{
  rdc_prog_=$1
  head -c 1000000 /dev/urandom > orig || framework_failure_
  for method in $(methods_of_ $rdc_prog_); do
    for direct in $rel_directs_; do
      rdc_opts_=$(${rdc_prog_}_xfer_opts_ $method $direct)
      ours_accepts_ . $rdc_prog_ $rdc_opts_ || continue
      for rdc_size_ in 100000 3000000; do
        for rdc_when_ in write mmap; do
          if test $rdc_when_ = write; then
            set -- FAULT_OP=$rel_write_ops_ FAULT_FD_PATH='*/dst' \
              FAULT_AT=303104
          else
            set -- FAULT_OP=mmap FAULT_FD_PATH='*/src' FAULT_AT=0
          fi
          set -- "$@" FAULT_MODE=resize FAULT_TARGET="$PWD/src" \
            FAULT_SIZE=$rdc_size_ FAULT_LOG="$PWD/fault.log" -- timeout 60
          case $rdc_prog_ in
            cp) set -- "$@" "$ours_dir_/cp" $rdc_opts_ src dst ;;
            dd) set -- "$@" "$ours_dir_/dd" $rdc_opts_ if=src of=dst \
                  bs=64k status=none ;;
          esac
          rdc_what_="$rdc_prog_ $rdc_opts_, source resized to $rdc_size_"
          rdc_what_="$rdc_what_ at its first $rdc_when_"
          rm -f dst fault.log && cp orig src || framework_failure_
          with_faults_ "$@" > rdc.out 2> rdc.err
          rdc_rc_=$?
          if ! test -s fault.log; then
            if test $rdc_when_ = write; then
              fault_not_met_ $method "$rdc_what_"
            else
              echo "note: $rdc_what_: never happened"
            fi
            continue
          fi
          check_no_crash_ "$rdc_what_" $rdc_rc_
          case $rdc_rc_ in
            0) rdc_got_=$(stat -c %s dst) || framework_failure_
               if test $rdc_size_ -lt 1000000; then
                 test $rdc_got_ -ge $rdc_size_ && is_prefix_ dst orig
               else
                 cmp -s dst src \
                   || { test $rdc_got_ = 1000000 && is_prefix_ dst src; }
               fi \
                 || { echo "$rdc_what_: an inconsistent copy of" \
                        "$rdc_got_ bytes reported as success"; fail=1; } ;;
            1) grep "^.*$rdc_prog_: " rdc.err > /dev/null \
                 || { echo "$rdc_what_: exit 1 with no message"; fail=1; } ;;
            *) echo "$rdc_what_: exit $rdc_rc_"; cat rdc.err; fail=1 ;;
          esac
        done
      done
    done
  done
}

# Whether the program stalled_run_ started as process PID stalled, or
# ended without doing so.
stalled_or_ended_ ()
{
  test -e stalled || process_ended_ "$1"
}

# Whether no thread of process PID has a signal pending, as once the
# one the test sent it is taken: its handler has run, or its default
# action was done.  True too once the process has ended, which may
# leave a SIGKILL pending on its threads until it is waited for.
no_signal_pending_ ()
{
  process_ended_ "$1" && return 0
  ! cat /proc/$1/status /proc/$1/task/*/status 2>/dev/null \
    | grep -E '^(ShdPnd|SigPnd):' | grep -v ':[[:space:]]*0*$' > /dev/null
}

# stalled_run_ SIDE ACTION PROG ARG...
# Run our or GNU's (SIDE) PROG ARG..., which copies to a file named dst,
# stall it in the write that reaches byte 303104 of dst, evaluate the
# shell command ACTION there (the process ID is in $stalled_pid_), then
# let it go on.  Leaves SIDE.rc, SIDE.out and SIDE.err as run_as_ does,
# dd's figures masked.  GNU cp copies with read and write here, since
# the shim takes copy_file_range away.
stalled_run_ ()
{
  sr_side_=$1 sr_action_=$2; shift 2
  if test $sr_side_ = ours; then sr_dir_=$ours_dir_; else sr_dir_=$gnu_dir_; fi
  rm -f dst stalled || framework_failure_
  # The program replaces the subshell, so that $! is its process ID.
  ( PATH="$sr_dir_:$PATH" LD_PRELOAD=$faultshim_ \
      FAULT_OP=$rel_write_ops_ FAULT_FD_PATH='*/dst' FAULT_AT=303104 \
      FAULT_MODE=pause FAULT_FLAG="$PWD/stalled" \
      FAULT_DISABLE=copy_file_range \
    && export PATH LD_PRELOAD FAULT_OP FAULT_FD_PATH FAULT_AT FAULT_MODE \
         FAULT_FLAG FAULT_DISABLE \
    && exec "$@" ) > $sr_side_.out 2> $sr_side_.err < /dev/null &
  stalled_pid_=$!
  # A loaded machine may take long to get there: wait as long as the
  # program runs, and fail the test only if it never stalls.
  wait_until_ 600 stalled_or_ended_ $stalled_pid_
  test -e stalled || kill -KILL $stalled_pid_ 2>/dev/null
  eval "$sr_action_"
  rm -f stalled
  wait $stalled_pid_
  echo $? > $sr_side_.rc
  mask_dd_times_ < $sr_side_.err > $sr_side_.err-t \
    && mv $sr_side_.err-t $sr_side_.err
}

# signal_mid_copy_ SIDE SIG PROG ARG...
# stalled_run_ with signal SIG sent where the copy is stalled, and let
# go only once the signal is taken: a fixed pause for its handler left
# the copy free to run on unsignalled on a loaded machine.
signal_mid_copy_ ()
{
  smc_side_=$1 smc_sig_=$2; shift 2
  stalled_run_ $smc_side_ "kill -$smc_sig_ \$stalled_pid_ &&
    { wait_until_ 600 no_signal_pending_ \$stalled_pid_ ||
      { echo 'SIG$smc_sig_ never taken'; fail=1; }; }" "$@"
}

# ours_has_option_ PROG OPTION: whether our PROG knows OPTION; if not,
# say so in the log.
ours_has_option_ ()
{
  if "$ours_dir_/$1" "$2" --help > /dev/null 2>&1; then
    return 0
  fi
  echo "note: skipping $1 $2: our $1 does not know it"
  return 1
}

# fault_not_met_ METHOD WHAT
# Called when a fault was never met.  The read/write loop has to meet
# every fault aimed at reads or writes, so for it this fails the test (it
# would mean the shim is not working); other methods may move the data
# by other means (mapped memory, a reflink), which is noted.
fault_not_met_ ()
{
  if test "$1" = read; then
    echo "$2: the fault was not met"
    fail=1
  else
    echo "note: $2: the fault was not met"
  fi
}

# dd_versus_gnu_ RUN END WHAT METHOD OPTS ARG...
# Run 'dd OPTS ARG...' as ours under the fault runner RUN (the test's
# run_eio_ or run_short_) with the fault at END (read or write), then
# 'dd ARG...' as GNU's under the same fault, and compare the outcomes
# and the output files (dst.ours, dst.gnu).  A fault the copy never
# met is noted by fault_not_met_, and then GNU runs without the fault.
dd_versus_gnu_ ()
{
  dvg_run_=$1 dvg_end_=$2 dvg_what_=$3 dvg_method_=$4 dvg_opts_=$5
  shift 5
  $dvg_run_ ours $dvg_end_ timeout 60 dd $dvg_opts_ "$@"
  check_no_crash_ "$dvg_what_" $(cat ours.rc)
  for f in rc err out; do mv ours.$f ours.$f-keep || framework_failure_; done
  if test -s fault.log; then
    $dvg_run_ gnu $dvg_end_ timeout 60 dd "$@"
  else
    # Ours never met the fault (mmap reads no data with read): GNU's
    # output without the fault is the one to match.
    fault_not_met_ $dvg_method_ "$dvg_what_"
    rm -f dst || framework_failure_
    run_as_ gnu timeout 60 dd "$@"
    mv dst dst.gnu 2>/dev/null || : > dst.gnu
  fi
  for f in rc err out; do mv ours.$f-keep ours.$f || framework_failure_; done
  compare_sides_ "$dvg_what_"
  cmp dst.gnu dst.ours \
    || { echo "$dvg_what_: the output differs from GNU's"; fail=1; }
}
