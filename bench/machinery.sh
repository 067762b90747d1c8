# shellcheck shell=sh disable=SC2016
# The awk programs here are in single quotes on purpose.
#
# machinery.sh -- what every subcommand's runs are made of: the timer,
# memory pre-touch, cache control, scratch file systems, finding the
# programs, and the list of tools timed.  The exit trap of common.sh
# calls into it, so bench/cpdd-bench.in reads it with common.sh.
#
# Copyright (C) 2026 the cpdd authors.
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.  It comes WITHOUT ANY WARRANTY.

# ---------------------------------------------------------------------
# The machinery of a run: timer, memory pre-touch, cache control.
# ---------------------------------------------------------------------

# Perl's Time::HiRes gives microsecond wall time; times() gives the
# children's CPU time in clock ticks.  Perl's start-up is outside the
# timed region.
perl_timer='
use strict;
use Time::HiRes ();
my ($out, $cmd) = @ARGV;
my $t0 = Time::HiRes::time();
my $pid = fork();
defined $pid or die "fork: $!\n";
if ($pid == 0) { exec "/bin/sh", "-c", $cmd; exit 127; }
waitpid($pid, 0);
my $st = $?;
my $t1 = Time::HiRes::time();
my @t = times();
open(my $fh, ">", $out) or die "$out: $!\n";
printf $fh "%.6f %.2f %.2f %d\n", $t1 - $t0, $t[2], $t[3],
  ($st & 127) ? 128 + ($st & 127) : $st >> 8;
close($fh) or die "$out: $!\n";
'

# Choose how to time: perl with Time::HiRes, else the POSIX time
# utility's -p format (1/100 s).  Sets timer.
choose_timer ()
{
  ct_perl=$(find_prog perl) && "$ct_perl" -MTime::HiRes -e 1 2>/dev/null ||
    ct_perl=
  ct_time=$(find_prog /usr/bin/time) || ct_time=$(find_prog time) ||
    ct_time=
  case $timer in
    auto)
      if test -n "$ct_perl"; then timer=perl
      elif test -n "$ct_time"; then timer='time'
      else die "no timer: need perl with Time::HiRes, or the time utility"
      fi ;;
    perl) test -n "$ct_perl" || die "perl with Time::HiRes not found" ;;
    time) test -n "$ct_time" || die "the time utility was not found" ;;
  esac
  perl_prog=$ct_perl
  time_prog=$ct_time
}

# Run shell command $3 timed; write "WALL USER SYS STATUS" to $1 and
# the command's standard error to $2.
run_timed ()
{
  case $timer in
    perl)
      "$perl_prog" -e "$perl_timer" "$1" "$3" </dev/null >/dev/null 2>"$2" ||
        die "the perl timer failed: $(sed 1q "$2")" ;;
    time)
      "$time_prog" -p /bin/sh -c "$3" </dev/null >/dev/null 2>"$2"
      rt_status=$?
      "$AWK" -v st="$rt_status" '
        NF == 2 && $1 == "real" { r = $2 }
        NF == 2 && $1 == "user" { u = $2 }
        NF == 2 && $1 == "sys" { s = $2 }
        END { if (r == "") exit 1; printf "%s %s %s %d\n", r, u, s, st }
      ' "$2" >"$1" || die "cannot read the output of $time_prog -p" ;;
  esac
}

# The first line of a tool's error output, leaving out the timer's.
first_error ()
{
  "$AWK" '!/^(real|user|sys) [0-9.]+$/ && NF { print; exit }' "$1"
}

# A guest kernel that reports free memory to its hypervisor has the
# host take back each freed page, and the next use of it waits for the
# host to give it again: a hot 1 GiB copy here took 0.26 s, or 1.3 to
# 2.4 s when 500 to 800 MiB were reported during the run, whatever
# the tool.  Where the kernel has a minimum time pages stay free before
# they are reported, hold it high during the runs (pre-touched memory
# then stays with the guest), and put it back at the end.  A value of
# $reporting_hold found there is another bench's, left to it.
reporting_param=/sys/module/page_reporting/parameters/min_free_ms
reporting_hold=300000 reporting_checked=false
unset reporting_saved
hold_page_reporting ()
{
  $reporting_checked && return 0
  reporting_checked=true
  reporting_file=${CPDD_BENCH_PAGE_REPORTING-$reporting_param}
  test -f "$reporting_file" || return 0
  hpr_old=$(cat "$reporting_file" 2>/dev/null) || return 0
  test "$hpr_old" != "$reporting_hold" || return 0
  if (printf '%s\n' "$reporting_hold" >"$reporting_file") 2>/dev/null; then
    reporting_saved=$hpr_old
    note "free memory is not reported to the host during the runs" \
      "($reporting_file: $hpr_old, $reporting_hold until the end)"
  else
    note "cannot write $reporting_file (not root?): memory the host" \
      "takes back between runs may slow some of them"
  fi
}

# Put back what hold_page_reporting changed, unless someone else has
# changed it since.
# shellcheck disable=SC2317
release_page_reporting ()
{
  test -n "${reporting_saved+set}" || return 0
  if test "$(cat "$reporting_file" 2>/dev/null)" = "$reporting_hold"; then
    (printf '%s\n' "$reporting_saved" >"$reporting_file") 2>/dev/null \
      || note "could not put $reporting_saved back into $reporting_file"
  fi
  unset reporting_saved
}

# Pre-touching scratch memory: parallel dd processes each fill a
# buffer of at most 256M from /dev/zero.  Set up the list of chunk
# sizes for $1 bytes, with memory kept from the host meanwhile.
setup_pretouch ()
{
  hold_page_reporting
  pretouch_chunks=$("$AWK" -v n="$1" 'BEGIN {
    c = 268435456
    while (n > 0) { b = (n > c) ? c : n; printf "%.0f\n", b; n -= b } }')
}

pretouch_memory ()
{
  for pm_chunk in $pretouch_chunks; do
    "$sys_dd" if=/dev/zero of=/dev/null bs="$pm_chunk" count=1 \
      2>/dev/null &
  done
  wait
}

# Default pre-touch: twice the file size, at most 3G, and at most half
# of the memory Linux says is available.
default_pretouch ()
{
  "$AWK" -v s="$1" 'BEGIN {
    p = 2 * s; if (p > 3 * 2 ^ 30) p = 3 * 2 ^ 30
    if ((getline line < "/proc/meminfo") > 0) {
      do {
        split(line, f, " ")
        if (f[1] == "MemAvailable:" && f[2] * 512 < p) p = f[2] * 512
      } while ((getline line < "/proc/meminfo") > 0)
    }
    printf "%.0f\n", p }'
}

# Work out how --cold can drop caches here.  Sets cold_how.
setup_cold ()
{
  drop_file=${CPDD_BENCH_DROP_CACHES-/proc/sys/vm/drop_caches}
  "$sync_prog"
  if (printf '3\n' >"$drop_file") 2>/dev/null; then
    cold_how=proc
  elif "$sys_dd" if="$src" iflag=nocache count=0 2>/dev/null; then
    cold_how=fadvise
    note "cannot write $drop_file (not root?): --cold drops only the" \
      "source file's pages (dd iflag=nocache); metadata and other" \
      "caches stay warm"
  else
    cold_how=none
    note "no way to drop the page cache here (needs root and Linux's" \
      "$drop_file): --cold runs are NOT cold; remount the file system" \
      "between runs or use a file larger than memory instead"
  fi
}

# setup_cold for a tree: only dropping the whole page cache will do,
# as a tree can have too many files to drop one by one.
setup_cold_tree ()
{
  drop_file=${CPDD_BENCH_DROP_CACHES-/proc/sys/vm/drop_caches}
  "$sync_prog"
  if (printf '3\n' >"$drop_file") 2>/dev/null; then
    cold_how=proc
  else
    cold_how=none
    note "cannot write $drop_file (not root?): --cold runs are NOT cold;" \
      "the final sync is timed all the same"
  fi
}

# The report's words for how --cold dropped caches, followed by WHEN.
cold_label ()
{
  case $cold_how in
    proc) echo "cold: page cache dropped$1" ;;
    fadvise) echo "cold: source dropped with fadvise$1" ;;
    *) echo "cold requested but caches NOT dropped$1" ;;
  esac
}

drop_caches ()
{
  "$sync_prog"
  case $cold_how in
    proc) (printf '3\n' >"$drop_file") 2>/dev/null ||
            note "writing $drop_file failed" ;;
    fadvise) "$sys_dd" if="$src" iflag=nocache count=0 2>/dev/null ;;
  esac
}

# Work out how to tell how much of a file is in the page cache:
# util-linux's fincore (or the program CPDD_BENCH_FINCORE names),
# if it works on the source.  Sets fincore_prog, empty when there is
# no way.
setup_fincore ()
{
  fincore_prog=
  sf_name=${CPDD_BENCH_FINCORE-fincore}
  if ! sf_p=$(find_prog "$sf_name"); then
    note "$sf_name (util-linux) not found: the page cache held by the" \
      "files is not measured and the cached column stays empty"
    return 0
  fi
  fincore_prog=$sf_p
  if test "$(cached_bytes "$src")" = -; then
    fincore_prog=
    note "$sf_p does not work here: the page cache held by the files" \
      "is not measured and the cached column stays empty"
  fi
}

# Print how many bytes of file $1 are in the page cache, or "-".
cached_bytes ()
{
  if test -n "$fincore_prog"; then
    "$fincore_prog" --bytes --noheadings --raw --output RES "$1" \
      2>/dev/null | "$AWK" 'NR == 1 && /^[0-9]+$/ { print; f = 1 }
                            END { if (!f) print "-" }'
  else
    echo -
  fi
}

# Re-read the source so a hot run finds it in the page cache: idle
# page cache does not stay resident for long on some VMs.
warm_source () { "$sys_dd" if="$src" of=/dev/null bs=1048576 2>/dev/null; }

# Make the work directory in $1.
make_work ()
{
  test -d "$1" || die "'$1' is not a directory"
  work=$(cd "$1" && pwd)/cpdd-bench.$$
  rm -rf "$work"
  mkdir "$work" || die "cannot create $work"
}

# Whether cp $1 can clone a file in the work directory: where it can,
# compare times clones too (cp-reflink, cpdd-reflink).
can_clone ()
{
  printf x >"$work/clone-probe" &&
    "$1" --reflink=always "$work/clone-probe" "$work/clone-probe.2" \
      2>/dev/null
  cc_status=$?
  rm -f "$work/clone-probe" "$work/clone-probe.2"
  return $cc_status
}

# --fs=KIND: make a file system of that kind, on a loop device over a
# sparse image in the work directory, big enough for the test file
# and its copy, mount it, and work there instead.
bench_fs_setup ()
{
  test "$(id -u)" = 0 || die "--fs needs root, to make and mount a file system"
  case $fs_kind in
    latency | latency-from)
      latency_fs_setup
      return ;;
  esac
  fs_outer=$work
  fs_img=$work/fs.img
  fs_mnt=$work/fs
  bfs_bytes=$("$AWK" -v s="$size" -v n="${fs_copies:-3}" \
    'BEGIN { printf "%.0f\n", n * s + 536870912 }')
  check_space "$work" "$bfs_bytes"
  if ! mkdir "$fs_mnt" ||
     ! "$sys_dd" if=/dev/null of="$fs_img" bs=1 seek="$bfs_bytes" 2>/dev/null
  then
    die "cannot make the image $fs_img"
  fi
  case $fs_kind in
    xfs) mkfs.xfs -q -m reflink=1 "$fs_img" ;;
    btrfs) mkfs.btrfs -q "$fs_img" ;;
    ext4) mkfs.ext4 -q -F -O ^has_journal "$fs_img" ;;
    ext4-4k)
      fs_loop=$(losetup --sector-size 4096 -f --show "$fs_img") &&
        mkfs.ext4 -q -F "$fs_loop" ;;
    tmpfs) : ;;
  esac >"$work/err" 2>&1 ||
    die "cannot make a $fs_kind file system: $(first_error "$work/err")"
  case $fs_kind in
    xfs | btrfs | ext4) mount -o loop "$fs_img" "$fs_mnt" ;;
    ext4-4k) mount "$fs_loop" "$fs_mnt" ;;
    tmpfs) mount -t tmpfs -o size="$bfs_bytes" tmpfs "$fs_mnt" ;;
  esac >"$work/err" 2>&1 ||
    die "cannot mount the $fs_kind file system: $(first_error "$work/err")"
  fs_mounted=$fs_mnt
  work=$fs_mnt/cpdd-bench.$$
  mkdir "$work" || die "cannot create $work"
  note "copying on a new $fs_kind file system ($(hsize "$bfs_bytes") bytes)"
}

# --fs=latency: mount cpdd's test FUSE file system, which waits
# $fs_delay microseconds (default 1000) in every call, as a network file
# system waits for its server, over a directory beside the work
# directory, and make the copies there.  The sources stay on the local
# file system: what is timed is the copy onto a far one.
latency_fs_setup ()
{
  lfs_prog=$(find_plainfuse) ||
    die "--fs=latency needs tests/shim/plainfuse, built by 'make" \
      "tests/shim/plainfuse' where libfuse3-dev is installed" \
      "(or give it in CPDD_PLAINFUSE)"
  test -c /dev/fuse || die "--fs=latency needs FUSE: there is no /dev/fuse"
  fs_outer=$work.latency
  fs_mnt=$fs_outer/mnt
  rm -rf "$fs_outer"
  mkdir "$fs_outer" "$fs_outer/back" "$fs_mnt" ||
    die "cannot make $fs_outer"
  "$lfs_prog" --delay="${fs_delay:-1000}" "$fs_outer/back" "$fs_mnt" \
    -o default_permissions >"$work/err" 2>&1 ||
    die "cannot mount the latency file system: $(first_error "$work/err")"
  fs_mounted=$fs_mnt
  if test "$fs_kind" = latency; then
    copies_base=$fs_mnt
    note "copying onto a FUSE file system whose every call waits" \
      "${fs_delay:-1000} microseconds"
  else
    note "copying from a FUSE file system whose every call waits" \
      "${fs_delay:-1000} microseconds"
  fi
}

# --fs=latency-from: move the tree $src into the directory the latency
# file system passes through, and copy it from there; the copies stay
# local.  Each run is checked against it, and the tree is read before
# a hot run, through the directory itself: through the file system,
# that takes minutes, and FUSE drops a file's pages at each open anyway.
latency_source ()
{
  case $src in "$fs_mnt"/*) return 0 ;; esac
  ls_name=source.$copy_seq.${src##*/}
  case $src in
    "$work"/*) mv "$src" "$fs_outer/back/$ls_name" ;;
    *) "$system_cp" -a "$src" "$fs_outer/back/$ls_name" ;;
  esac || die "cannot put $src on the latency file system"
  src=$fs_mnt/$ls_name
  src_local=$fs_outer/back/$ls_name
}

# The FUSE file system of cpdd's tests: \$CPDD_PLAINFUSE, else the one
# built in the tree cpdd-bench or cpdd's cp comes from.
find_plainfuse ()
{
  if test -n "${CPDD_PLAINFUSE-}"; then
    user_prog "$CPDD_PLAINFUSE"
    return
  fi
  for fpf_dir in "$(dirname "$0")/.." "$(dirname "${cpdd_cp:-.}")/.."; do
    if test -x "$fpf_dir/tests/shim/plainfuse"; then
      abspath "$fpf_dir/tests/shim/plainfuse"
      return 0
    fi
  done
  return 1
}

# Unmount and remove what bench_fs_setup made.
# shellcheck disable=SC2317
bench_fs_cleanup ()
{
  if test -n "${fs_mounted-}"; then
    umount "$fs_mounted" 2>/dev/null || umount -l "$fs_mounted"
    fs_mounted=
  fi
  if test -n "${fs_loop-}"; then
    losetup -d "$fs_loop"
    fs_loop=
  fi
  if test -n "${fs_outer-}"; then
    rm -rf "$fs_outer"
    fs_outer=
  fi
}

# Check that directory $1 has room for $2 bytes.
check_space ()
{
  cs_avail=$(df -P -k "$1" 2>/dev/null | "$AWK" 'NR == 2 { print $4 }')
  case $cs_avail in '' | *[!0-9]*) return 0 ;; esac
  "$AWK" -v a="$cs_avail" -v n="$2" 'BEGIN { exit !(a * 1024 < n) }' &&
    die "not enough space in $1: need $(hsize "$2") bytes free"
  return 0
}

# Fill $1 with $2 bytes from /dev/urandom.
make_file ()
{
  test -r /dev/urandom ||
    die "no /dev/urandom to make a test file from; give one with --file"
  # shellcheck disable=SC2046
  set -- "$1" "$2" $("$AWK" -v n="$2" 'BEGIN {
    m = int(n / 1048576); r = n - m * 1048576; k = int(r / 1024)
    printf "%.0f %.0f %.0f\n", m, k, r - k * 1024 }')
  verbose_ "making a $(hsize "$2")-byte test file $1"
  {
    test "$3" -gt 0 &&
      "$sys_dd" if=/dev/urandom bs=1048576 count="$3" 2>/dev/null
    test "$4" -gt 0 &&
      "$sys_dd" if=/dev/urandom bs=1024 count="$4" 2>/dev/null
    test "$5" -gt 0 &&
      "$sys_dd" if=/dev/urandom bs=1 count="$5" 2>/dev/null
    :
  } >"$1" || die "cannot write $1"
  test "$(file_size "$1")" = "$2" ||
    die "could not make a $2-byte test file (short reads from /dev/urandom?)"
}

# Is program $1 cpdd's?
is_cpdd () { "$1" --version 2>/dev/null | sed 1q | grep cpdd >/dev/null; }

# A program named on the command line or in the environment: a file
# name, else a name looked up in $PATH.  Print its absolute name.
user_prog ()
{
  if test -f "$1" && test -x "$1"; then
    abspath "$1"
    return 0
  fi
  case $1 in */*) return 1 ;; esac
  up_p=$(find_prog "$1") || return 1
  abspath "$up_p"
}

# Resolve --cp, --dd, $CPDD_CP and $CPDD_DD, --system-cp.
resolve_user_progs ()
{
  if test -n "$cp_prog"; then
    ru_p=$(user_prog "$cp_prog") || die "$cp_prog: no such program"
    cp_prog=$ru_p
  elif test -n "${CPDD_CP-}"; then
    cp_prog=$(user_prog "$CPDD_CP") ||
      die "$CPDD_CP (CPDD_CP in the environment): no such program"
  fi
  if test -n "$dd_prog"; then
    ru_p=$(user_prog "$dd_prog") || die "$dd_prog: no such program"
    dd_prog=$ru_p
  elif test -n "${CPDD_DD-}"; then
    dd_prog=$(user_prog "$CPDD_DD") ||
      die "$CPDD_DD (CPDD_DD in the environment): no such program"
  fi
  if test -n "${system_cp-}"; then
    ru_p=$(user_prog "$system_cp") || die "$system_cp: no such program"
    system_cp=$ru_p
  fi
}

# Find cpdd's program $1 (cp or dd); $2 is what --cp or --dd (or the
# environment) said, already resolved.  Print its name, or fail.
find_cpdd ()
{
  if test -n "$2"; then
    is_cpdd "$2" ||
      note "'$2' does not say it is cpdd's $1; benchmarking it anyway"
    printf '%s\n' "$2"
    return 0
  fi
  # Installed: beside cpdd-bench.  In the build tree: ../src.
  case $0 in
    */*) fc_self=$0 ;;
    *) fc_self=$(find_prog "$0") || fc_self=./$0 ;;
  esac
  fc_dir=$(cd "$(dirname "$fc_self")" && pwd) || return 1
  for fc_p in "$fc_dir/$1" "$fc_dir/../src/$1"; do
    if test -f "$fc_p" && test -x "$fc_p" && is_cpdd "$fc_p"; then
      printf '%s\n' "$fc_p"
      return 0
    fi
  done
  return 1
}

# Note when something else keeps the CPUs busy: the load average (from
# /proc/loadavg, else uptime) is at least the number of CPUs.
check_load ()
{
  if test -r /proc/loadavg; then
    cl_load=$("$AWK" '{ print $1; exit }' /proc/loadavg)
  else
    cl_load=$(uptime 2>/dev/null | sed -n 's/.*load average[s]*: *//p' |
              "$AWK" -F, '{ print $1 + 0 }')
  fi
  cl_cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || cl_cpus=
  case $cl_cpus in '' | *[!0-9]*) cl_cpus=1 ;; esac
  if test -n "$cl_load" &&
     "$AWK" -v l="$cl_load" -v c="$cl_cpus" 'BEGIN { exit !(l + 0 >= c) }'
  then
    note "the load average is $cl_load on $cl_cpus CPU(s): something" \
      "else is running, and the figures will be noisy"
  fi
}

common_setup ()
{
  choose_timer
  resolve_user_progs
  sys_dd=$(sys_prog dd) || die "dd not found"
  sync_prog=$(sys_prog sync) || sync_prog=sync
  if test -n "$csv"; then
    : >"$csv" || die "cannot write $csv"
  fi
  check_load
}

# ---------------------------------------------------------------------
# The tools timed, for compare, verify, tree and mpi, and the CPUs
# they share.
# ---------------------------------------------------------------------

# Register tool $1 of kind $2 (cp, cat, dd, rsync, cpio; for tree: cp,
# tar, rsync) run as program $3 with options $4, if --tools selects it.
ntools=0
add_tool ()
{
  selected "$1" || return 0
  ntools=$((ntools + 1))
  eval "tool_label_$ntools=\$1 tool_kind_$ntools=\$2 tool_prog_$ntools=\$3" \
    "tool_opts_$ntools=\$4 tool_state_$ntools=ok"
}

# The tools --with asks for: cpdd's cp $1 with each set of options
# given, one --with each, so that what an option costs is timed in the
# same rounds as the plain copy.  The label is cpdd+ and the options
# without their dashes, spaces made +: --with='--jobs=2 --atomic' is
# cpdd+jobs=2+atomic.
add_with_tools ()
{
  test -n "$with_list" || return 0
  awt_ifs=$IFS
  IFS='
'
  for awt_opts in $with_list; do
    IFS=$awt_ifs
    awt_label=cpdd+$(printf '%s\n' "$awt_opts" |
      sed -e 's/^-*//' -e 's/ -*/+/g' -e 's/[^A-Za-z0-9=.,_+-]/_/g')
    add_tool "$awt_label" cp "$1" "$awt_opts"
  done
  IFS=$awt_ifs
}

selected ()
{
  test -n "$tools_sel" || return 0
  sel_ifs=$IFS
  IFS=,
  for sel_pat in $tools_sel; do
    # shellcheck disable=SC2254
    case $1 in
      $sel_pat) IFS=$sel_ifs; return 0 ;;
    esac
  done
  IFS=$sel_ifs
  return 1
}

skipped ()
{
  note "$1: $2; skipped"
  printf '%s: %s\n' "$1" "$2" >>"$work/skipped"
}

# Whether cpdd's cp $1 was built with hash algorithm $2: xxh128 needs
# libxxhash, which a build (a 32-bit one, say) may lack.
cp_hashes ()
{
  "$1" --verify="$2" --help > /dev/null 2>&1
}

# The CPUs this process may use.
cpu_count ()
{
  cc_n=$(nproc 2>/dev/null) || cc_n=$(getconf _NPROCESSORS_ONLN 2>/dev/null) ||
    cc_n=1
  case $cc_n in '' | *[!0-9]* | 0) cc_n=1 ;; esac
  printf '%s\n' "$cc_n"
}

# The numbers of jobs, workers or ranks the peers are timed with: 2,
# 4, ... up to max_jobs.
peer_counts ()
{
  pc_n=2
  pc_l=
  while test $pc_n -le "$max_jobs"; do
    pc_l="$pc_l $pc_n"
    pc_n=$((pc_n * 2))
  done
  printf '%s\n' "${pc_l# }"
}
