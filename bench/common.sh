# shellcheck shell=sh disable=SC2016
# The awk programs here are in single quotes on purpose.
#
# common.sh -- cpdd-bench's messages, small helpers, option parsing,
# --help and --version: what every invocation needs, even one that
# only asks for help, so bench/cpdd-bench.in reads it first.
#
# Copyright (C) 2026 the cpdd authors.
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.  It comes WITHOUT ANY WARRANTY.

# ---------------------------------------------------------------------
# Messages and small helpers.
# ---------------------------------------------------------------------

note () { printf '%s: note: %s\n' "$me" "$*" >&2; }
error_ () { printf '%s: %s\n' "$me" "$*" >&2; exit_status=1; }
die () { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

usage_error ()
{
  printf '%s: %s\n' "$me" "$*" >&2
  printf "Try '%s --help' for more information.\n" "$me" >&2
  exit 2
}

verbose_ () { if $verbose; then printf '%s: %s\n' "$me" "$*" >&2; fi; }

# shellcheck disable=SC2317
cleanup ()
{
  if test -n "$work" && test -d "$work"; then
    if test -n "${CPDD_BENCH_KEEP-}"; then
      note "kept the work directory $work"
    else
      rm -rf "$work"
    fi
  fi
  bench_fs_cleanup
  release_page_reporting
}
# shellcheck disable=SC2317
exit_trap () { et_status=$?; cleanup; exit "$et_status"; }
trap exit_trap 0
trap 'exit 129' 1
trap 'exit 130' 2
trap 'exit 143' 15

# Print the full name of program $1 found in $PATH; fail if none.
find_prog ()
{
  case $1 in
    */*)
      if test -f "$1" && test -x "$1"; then
        printf '%s\n' "$1"
        return 0
      fi
      return 1 ;;
  esac
  fp_ifs=$IFS
  IFS=:
  for fp_dir in $PATH; do
    test -n "$fp_dir" || fp_dir=.
    if test -f "$fp_dir/$1" && test -x "$fp_dir/$1"; then
      IFS=$fp_ifs
      printf '%s\n' "$fp_dir/$1"
      return 0
    fi
  done
  IFS=$fp_ifs
  return 1
}

# The system's own copy of a base utility.  $PATH may well start with
# cpdd's build directory (the test suite arranges that), so look in the
# standard places first.
sys_prog ()
{
  for sp_dir in /bin /usr/bin; do
    if test -f "$sp_dir/$1" && test -x "$sp_dir/$1"; then
      printf '%s\n' "$sp_dir/$1"
      return 0
    fi
  done
  find_prog "$1"
}

# Quote $1 for /bin/sh.
shquote ()
{
  case $1 in
    *\'*)
      sq_quoted=$(printf '%s\n' "$1" | sed "s/'/'\\\\''/g")
      printf "'%s'\n" "$sq_quoted" ;;
    *) printf "'%s'\n" "$1" ;;
  esac
}

# Quote $1 as a gnuplot string.
gp_quote ()
{
  gq_quoted=$(printf '%s\n' "$1" | sed "s/'/''/g")
  printf "'%s'\n" "$gq_quoted"
}

# Make $1 absolute.
abspath ()
{
  ap_name=$1
  while :; do
    case $ap_name in
      ./*) ap_name=${ap_name#./} ;;
      *) break ;;
    esac
  done
  case $ap_name in
    /*) printf '%s\n' "$ap_name" ;;
    *) printf '%s/%s\n' "$(pwd)" "$ap_name" ;;
  esac
}

is_count () { case $1 in '' | *[!0-9]* | 0 | 0*) return 1 ;; esac; return 0; }

# An awk that knows user-defined functions (Solaris' /usr/bin/awk
# does not).
pick_awk ()
{
  for pa_awk in "${AWK-}" awk nawk /usr/xpg4/bin/awk gawk mawk; do
    test -n "$pa_awk" || continue
    pa_path=$(find_prog "$pa_awk") || continue
    if "$pa_path" 'function f(x) { return x + 1 } BEGIN { exit !(f(1) == 2) }' \
         </dev/null >/dev/null 2>&1; then
      AWK=$pa_path
      return 0
    fi
  done
  die "no usable awk found"
}

# Functions shared by the awk programs of all the parts.  Numbers go
# through printf "%.0f" because some awks print big integers badly
# with %d.
awk_lib='
function sortn(a, n,   i, j, t) {
  for (i = 2; i <= n; i++) {
    t = a[i]
    for (j = i - 1; j >= 1 && a[j] > t; j--)
      a[j + 1] = a[j]
    a[j + 1] = t
  }
}
function median(a, n) {
  sortn(a, n)
  return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function hsize(b,   i, u) {
  split("K M G T", u, " ")
  if (b < 1024)
    return sprintf("%.0f", b)
  for (i = 0; i < 4 && b >= 1024; i++)
    b /= 1024
  return sprintf(b == int(b) ? "%.0f%s" : "%.1f%s", b, u[i])
}
function roundbuf(x) {
  if (x >= 65536) return int(x / 4096 + 0.5) * 4096
  if (x >= 4096) return int(x / 512 + 0.5) * 512
  return int(x + 0.5)
}
function csvq(s) {
  if (s ~ /[",\n]/) {
    gsub(/"/, "\"\"", s)
    s = "\"" s "\""
  }
  return s
}
'

# Parse SIZE: digits with an optional K, M, G or T suffix (powers of
# 1024; "KiB" and friends are accepted too).  Print the byte count.
parse_size ()
{
  ps_num=${1%%[!0-9]*}
  ps_suf=${1#"$ps_num"}
  test -n "$ps_num" || return 1
  case $ps_suf in
    '') ps_mul=1 ;;
    [Kk] | [Kk]iB) ps_mul=1024 ;;
    [Mm] | [Mm]iB) ps_mul=1048576 ;;
    [Gg] | [Gg]iB) ps_mul=1073741824 ;;
    [Tt] | [Tt]iB) ps_mul=1099511627776 ;;
    *) return 1 ;;
  esac
  "$AWK" -v n="$ps_num" -v m="$ps_mul" \
    'BEGIN { v = n * m; if (v >= 2 ^ 53) exit 1; printf "%.0f\n", v }'
}

# Human-readable form of a byte count.
hsize () { "$AWK" "$awk_lib"' BEGIN { print hsize(ARGV[1] + 0) }' "$1"; }

# Size in bytes of file $1, without reading it.
# shellcheck disable=SC2012
file_size () { ls -ln "$1" 2>/dev/null | "$AWK" 'NR == 1 { print $5 }'; }

# use_source_file FILE -- measure with FILE, which exists: set src to
# its absolute name and size to its size, or die if it can't be read
# or is empty.
use_source_file ()
{
  if ! test -f "$1" || ! test -r "$1"; then
    die "cannot read file '$1'"
  fi
  src=$(abspath "$1")
  size=$(file_size "$src")
  if test -z "$size" || test "$size" -eq 0; then
    die "'$1' is empty"
  fi
}

# ---------------------------------------------------------------------
# Option parsing, GNU style: long options may be abbreviated and take
# their argument as --opt=ARG or --opt ARG; short ones cluster.
# ---------------------------------------------------------------------

# Resolve long option name $1 (as typed, without "--" or "=ARG")
# against the list $2 of NAME:N words, N telling whether it takes an
# argument.  $3 is the whole argument, for messages.  Sets opt_name and
# opt_has_arg.
resolve_long ()
{
  rl_count=0
  rl_all=
  for rl_word in $2; do
    rl_name=${rl_word%:*}
    if test "$rl_name" = "$1"; then
      rl_count=1
      rl_hit=$rl_word
      break
    fi
    case $rl_name in
      "$1"*)
        rl_count=$((rl_count + 1))
        rl_hit=$rl_word
        rl_all="$rl_all '--$rl_name'" ;;
    esac
  done
  case $rl_count in
    0) usage_error "unrecognized option '$3'" ;;
    1) ;;
    *) usage_error "option '--$1' is ambiguous; possibilities:$rl_all" ;;
  esac
  opt_name=${rl_hit%:*}
  opt_has_arg=${rl_hit##*:}
}

# shellcheck disable=SC2034
compare_longopts='help:0 version:0 cold:0 cp:1 csv:1 dd:1 file:1 fs:1
  no-syscalls:0 no-verify:0 pretouch:1 raw:1 runs:1 size:1 system-cp:1
  timer:1 tools:1 verbose:0 with:1'
# shellcheck disable=SC2034
sweep_longopts='help:0 version:0 cold:0 copy:0 cp:1 csv:1 dd:1 dir:1 fine:1 from:1
  no-verify:0 plot:1 pretouch:1 read-only:0 runs:1 size:1 steps:1 timer:1
  to:1 verbose:0'
# shellcheck disable=SC2034
tree_longopts='help:0 version:0 checks:0 cold:0 cp:1 csv:1 file-size:1 files:1 fs:1
  jobs:1 latency:1 no-verify:0 peers:0
  plot:1 pretouch:1 runs:1 seed:1 system-cp:1 timer:1 tools:1 tree:1
  verbose:0 with:1'

# shellcheck disable=SC2034
resume_longopts='help:0 version:0 cp:1 csv:1 fs:1 jobs:1 runs:1 seed:1
  size:1 system-cp:1 timer:1 tree:1 verbose:0'

# shellcheck disable=SC2034
mpi_longopts='help:0 version:0 cold:0 cp:1 csv:1 flat:1 fs:1 latency:1 mpicp:1
  mpirun:1 mpirun-flags:1 no-verify:0 peer:1 pretouch:1 ranks:1 runs:1
  size:1 system-cp:1 timer:1 tools:1 tree:1 verbose:0 workloads:1'

# Parse the arguments of subcommand $1 (compare or sweep).  Each option
# goes to set_option; the one operand allowed lands in $operand.
parse_args ()
{
  pa_cmd=$1
  shift
  pa_longopts=
  eval "pa_longopts=\$${pa_cmd}_longopts"
  operand=
  pa_have_operand=false
  pa_only_operands=false
  while test $# -gt 0; do
    pa_arg=$1
    shift
    if $pa_only_operands; then
      pa_kind=operand
    else
      case $pa_arg in
        --) pa_only_operands=true; continue ;;
        --*) pa_kind=long ;;
        -?*) pa_kind=short ;;
        *) pa_kind=operand ;;
      esac
    fi
    case $pa_kind in
      operand)
        if $pa_have_operand; then
          usage_error "extra operand '$pa_arg'"
        fi
        operand=$pa_arg
        pa_have_operand=true ;;
      long)
        pa_name=${pa_arg#--}
        pa_val=
        pa_given=false
        case $pa_name in
          *=*) pa_val=${pa_name#*=}; pa_name=${pa_name%%=*}; pa_given=true ;;
        esac
        resolve_long "$pa_name" "$pa_longopts" "$pa_arg"
        if test "$opt_has_arg" = 1; then
          if ! $pa_given; then
            test $# -gt 0 ||
              usage_error "option '--$opt_name' requires an argument"
            pa_val=$1
            shift
          fi
        elif $pa_given; then
          usage_error "option '--$opt_name' doesn't allow an argument"
        fi
        set_option "$opt_name" "$pa_val" ;;
      short)
        pa_rest=${pa_arg#-}
        while test -n "$pa_rest"; do
          pa_c=${pa_rest%"${pa_rest#?}"}
          pa_rest=${pa_rest#?}
          case $pa_c in
            v) set_option verbose '' ;;
            n | s | o)
              if test "$pa_c" = s; then
                case " $pa_longopts " in
                  *' size:'*) ;;
                  *) usage_error "invalid option -- '$pa_c'" ;;
                esac
              fi
              if test -n "$pa_rest"; then
                pa_val=$pa_rest
                pa_rest=
              else
                test $# -gt 0 ||
                  usage_error "option requires an argument -- '$pa_c'"
                pa_val=$1
                shift
              fi
              case $pa_c in
                n) set_option runs "$pa_val" ;;
                s) set_option size "$pa_val" ;;
                o) set_option csv "$pa_val" ;;
              esac ;;
            *) usage_error "invalid option -- '$pa_c'" ;;
          esac
        done ;;
    esac
  done
}

set_option ()
{
  case $1 in
    help) usage; exit 0 ;;
    version) version_; exit 0 ;;
    cold) cold=true ;;
    copy) sweep_mode=copy ;;
    read-only) sweep_mode=read-only ;;
    cp) test -n "$2" || usage_error "empty argument to --cp"; cp_prog=$2 ;;
    dd) test -n "$2" || usage_error "empty argument to --dd"; dd_prog=$2 ;;
    system-cp)
      test -n "$2" || usage_error "empty argument to --system-cp"
      system_cp=$2 ;;
    csv) test -n "$2" || usage_error "empty argument to --csv"; csv=$2 ;;
    raw) test -n "$2" || usage_error "empty argument to --raw"; raw=$2 ;;
    plot) test -n "$2" || usage_error "empty argument to --plot"; plot=$2 ;;
    file) test -n "$2" || usage_error "empty argument to --file"; file=$2 ;;
    dir) test -n "$2" || usage_error "empty argument to --dir"; dir=$2 ;;
    tools) tools_sel=$2 ;;
    with)
      case $2 in
        -?*) ;;
        *) usage_error "invalid argument to --with: '$2' (cp's options)" ;;
      esac
      with_list="${with_list:+$with_list
}$2" ;;
    fs)
      case $2 in
        xfs | btrfs | ext4 | ext4-4k | tmpfs | latency | latency-from)
          fs_kind=$2 ;;
        *) usage_error "invalid file system kind: '$2'" \
             "(xfs, btrfs, ext4, ext4-4k, tmpfs, latency or latency-from)" ;;
      esac ;;
    latency)
      case $2 in
        '' | *[!0-9]*) usage_error "invalid latency: '$2' (microseconds)" ;;
      esac
      fs_delay=$2
      test "$fs_kind" = latency-from || fs_kind=latency ;;
    peer)
      case $2 in
        dcp) dcp_prog=dcp ;;
        dcp=?*) dcp_prog=${2#dcp=} ;;
        *) usage_error "invalid peer: '$2' (dcp or dcp=PROG)" ;;
      esac ;;
    flat)
      is_count "$2" || usage_error "invalid number of files: '$2'"
      flat_files=$2 ;;
    workloads)
      workloads=$(printf '%s\n' "$2" | tr ',' ' ')
      for so_w in $workloads; do
        case $so_w in
          tree | flat | file) ;;
          *) usage_error "invalid workload: '$so_w' (tree, flat or file)" ;;
        esac
      done
      test -n "$workloads" || usage_error "invalid workloads: ''" ;;
    tree) test -n "$2" || usage_error "empty argument to --tree"; tree=$2 ;;
    file-size)
      gen_file_size=$(parse_size "$2") || usage_error "invalid size: '$2'" ;;
    files)
      files_list=$(printf '%s\n' "$2" | tr ',' ' ')
      for so_n in $files_list; do
        is_count "$so_n" || usage_error "invalid number of files: '$so_n'"
      done
      test -n "$files_list" || usage_error "invalid number of files: ''" ;;
    jobs)
      is_count "$2" || usage_error "invalid number of jobs: '$2'"
      max_jobs=$2 ;;
    ranks)
      ranks_list=$(printf '%s\n' "$2" | tr ',' ' ')
      for so_n in $ranks_list; do
        is_count "$so_n" || usage_error "invalid number of ranks: '$so_n'"
      done
      test -n "$ranks_list" || usage_error "invalid number of ranks: ''" ;;
    mpicp)
      test -n "$2" || usage_error "empty argument to --mpicp"; mpicp_prog=$2 ;;
    mpirun)
      test -n "$2" || usage_error "empty argument to --mpirun"
      mpirun_prog=$2 ;;
    mpirun-flags) transport_flags=$2 transport_set=true ;;
    seed)
      if ! is_count "$2" || test ${#2} -gt 10 || test "$2" -ge 2147483647
      then
        usage_error "invalid seed: '$2' (1 to 2147483646)"
      fi
      seed=$2 ;;
    no-syscalls) syscalls=false ;;
    checks) tree_checks=true ;;
    peers) peers=true ;;
    no-verify) verify=false ;;
    verbose) verbose=true ;;
    runs)
      is_count "$2" || usage_error "invalid number of runs: '$2'"
      runs=$2 ;;
    steps)
      if ! is_count "$2" || test "$2" -lt 2; then
        usage_error "invalid number of steps: '$2' (at least 2)"
      fi
      steps=$2 ;;
    fine)
      case $2 in
        '' | *[!0-9]*) usage_error "invalid number of fine steps: '$2'" ;;
      esac
      fine=$2 ;;
    size)
      if ! size=$(parse_size "$2") || test "$size" -eq 0; then
        usage_error "invalid size: '$2'"
      fi ;;
    from)
      if ! from=$(parse_size "$2") || test "$from" -eq 0; then
        usage_error "invalid buffer size: '$2'"
      fi ;;
    to)
      if ! to=$(parse_size "$2") || test "$to" -eq 0; then
        usage_error "invalid buffer size: '$2'"
      fi ;;
    pretouch)
      pretouch=$(parse_size "$2") || usage_error "invalid size: '$2'" ;;
    timer)
      case $2 in
        auto | perl | time) timer=$2 ;;
        *) usage_error "invalid timer: '$2' (use perl, time or auto)" ;;
      esac ;;
  esac
}

usage ()
{
  cat <<EOF
Usage: $me compare [OPTION]... [DIR]
  or:  $me verify [OPTION]... [DIR]
  or:  $me sweep [OPTION]... [FILE]
  or:  $me tree [OPTION]... [DIR]
  or:  $me mpi [OPTION]... [DIR]
  or:  $me resume [OPTION]... [DIR]
  or:  $me --help | --version
Time cpdd's cp and dd against the system's copy tools.

'compare' copies one file of incompressible data in DIR (default .) with
every tool in turn, round-robin, and reports the median wall, user and
system time of each, with throughput, the ratio to the system's cp and
the MiB of the source or the copy (the larger) left in the page cache.
'verify' does as 'compare' with the tools that check a copy: the
system's cp followed by sha256sum of the source and the copy, sha256sum
of the source alone, and cpdd's cp with --fsync, --verify and
--print-hash (xxh128 and sha256); it also reports the ratios between
them.  It takes compare's options.
'sweep' measures the throughput of a range of buffer sizes on FILE
(default: a file it makes) and reports the best one.
'tree' copies a directory tree in DIR (default .) with the system's
cp -a, tar | tar, rsync -a and cpdd's cp -a, each run into a new
destination, and reports the median wall time, the ratio to the
system's cp -a and the maximum resident set of each.
'mpi' does as 'tree' with the system's cp -a, cpdd's cp -a --jobs=N and
cpdd's mpicp -a on N MPI ranks (mpirun -np N) for each N of --ranks,
and mpifileutils' dcp with --peer=dcp: on the real tree, on one
directory of many small files, and on a directory holding one large
file.
'resume' kills cpdd's cp -a --jobs=N at random points of a copy of a
tree with large files, finishes each with --resume, and checks that the
copy equals the source; it reports what the --resume run copied beside
what the killed run had left.

Options for compare:
  -s, --size=SIZE        size of the test file to make (default 1G)
      --file=FILE        copy FILE instead of making a test file
      --fs=KIND          copy on a new file system of KIND (xfs, btrfs,
                           ext4: no journal, ext4-4k: 4 KiB sectors,
                           tmpfs), made in DIR
                           on a loop device and removed at the end (root)
      --tools=LIST       run only the tools matching one of the
                           comma-separated shell patterns in LIST
      --system-cp=PROG   the cp that ratio_cp refers to (default /bin/cp)
      --raw=FILE         write every timed run as CSV to FILE
      --no-syscalls      skip the untimed strace or truss run
      --no-verify        do not check each tool's copy against the source
      --with=OPTIONS     time cpdd's cp with OPTIONS too, as the tool
                           cpdd+OPTIONS (dashes dropped, spaces made +);
                           give --with once for each set of options

Options for sweep:
      --read-only        time 'dd if=FILE of=/dev/null bs=SIZE' (default)
      --copy             time 'cp --buffer-size=SIZE FILE COPY' with cpdd's cp
      --from=SIZE        smallest buffer size (default 512)
      --to=SIZE          largest buffer size (default 64M)
      --steps=N          number of log-spaced buffer sizes from --from to
                           --to (default: one per power of two)
      --fine=N           extra sizes tried on each side of the best (default 2)
  -s, --size=SIZE        size of the file made when no FILE is given
                           (default 256M)
      --dir=DIR          where to make that file and the copies (default .)
      --plot=FILE        draw an SVG scatter plot with gnuplot into FILE
      --no-verify        do not check the copies against the source

Options for tree:
      --checks           time the copies that are checked instead: the
                           system's cp -a, then sha256sum of every file of
                           both trees; cpdd's cp -a with --verify (xxh128,
                           sha256) and with --print-hash=sha256
      --peers            time the other fast copiers too, hot and then
                           cold: cpdd's cp -a with --jobs (auto) and with
                           2, 4 ... up to --jobs (default: twice the CPUs)
                           jobs; xcp -r -w N, fcp and cpz (cargo install
                           xcp fcp cpz), tar | tar, rsync -a and mpicp on
                           N ranks,
                           where installed; say what each lost of what
                           cp -a keeps; --plot draws the ratios as bars
      --fs=KIND          copy on a new file system of KIND (ext4: without
                           a journal, as these machines' root; xfs, btrfs,
                           ext4-4k, tmpfs: hot only), where no file was
                           deleted just before (root); or onto a FUSE
                           file system whose every call waits as for a
                           server (latency), or from one (latency-from)
      --latency=USEC     the wait of --fs=latency, in microseconds
                           (default 1000); implies --fs=latency
      --tree=DIR         copy the tree DIR instead of a generated one;
                           'real' copies /usr/include, /usr/lib/python3
                           and /usr/share/perl5 together into DIR first
      --files=LIST       number of files of the generated tree; a list
                           separated by commas times a tree of each size
                           (default 10000; with --plot 1000,10000,100000)
      --seed=N           seed of the generated tree's sizes, names and
                           contents (default 1)
      --file-size=SIZE   give every file of the generated tree SIZE bytes
                           (0 for empty files) instead of a mix of sizes
      --jobs=N           when cpdd's cp takes --jobs, time it with 1 to N
                           jobs (default: the number of CPUs)
      --tools=LIST       as for compare (tools: cp, tar, rsync, cpdd-cp,
                           cpdd-jobs-N; with --peers also cpdd-jobs-auto,
                           xcp-wN, fcp, cpz, mpicp-N)
      --system-cp=PROG   the cp that ratio_cp refers to (default /bin/cp)
      --plot=FILE        draw the median wall time against the number of
                           files with gnuplot into the SVG FILE
      --no-verify        do not check the first copy of each tool with
                           diff -r
      --with=OPTIONS     as for compare: cpdd's cp -a with OPTIONS too

Options for mpi:
      --ranks=LIST       numbers of ranks and of jobs, separated by commas
                           (default 1,2,4)
      --tree=DIR         the tree to copy first (default: 'real', as for
                           tree)
  -s, --size=SIZE        size of the large file copied next (default 1G)
      --mpicp=PROG       cpdd's mpicp (default: \$CPDD_MPICP, else the
                           mpicp beside this script or in ../src)
      --mpirun=PROG      the mpirun that starts it (default: mpirun)
      --mpirun-flags=FLAGS
                         more options for mpirun (default, with Open MPI:
                           '--mca pml ob1 --mca btl self,vader', its
                           transport within one machine; '' for none)
      --workloads=LIST   what to copy, in order, separated by commas:
                           tree, flat (one directory of small files) and
                           file (default tree,flat,file)
      --flat=N           the number of files of flat (default 20000)
      --peer=dcp[=PROG]  time mpifileutils' dcp -p -S too, started as mpicp
                           is (PROG default: dcp in PATH), and say what
                           each tool lost of what cp -a keeps
      --fs=latency, --fs=latency-from, --latency=USEC
                         copy onto or from a FUSE file system whose
                           calls wait, as for tree (root)
      --tools=LIST       as for compare (tools: cp, cpdd-jobs-N, mpicp-N,
                           dcp-N)
      --system-cp=PROG   as for tree
      --no-verify        as for tree

Options for resume:
      --tree=DIR         the tree to copy beside the large files (default:
                           'real', as for tree)
  -s, --size=SIZE        the bytes of the three large files (default 2G)
  -n, --runs=N           the number of kills (default 10)
      --jobs=N           the jobs of both runs (default 2)
      --seed=N           the seed of the kill points (default 1)
      --fs=KIND          as for tree (root)
      --system-cp=PROG   the cp that copies the tree in first

Options for all:
      --cold             sync and drop the page cache before each run, and
                           time the final sync of a copy too (drop_caches
                           needs root)
      --cp=PROG          cpdd's cp (default: \$CPDD_CP, else the cp beside
                           this script or in ../src)
      --dd=PROG          cpdd's dd (default: \$CPDD_DD, likewise)
  -n, --runs=N           time everything N times (default 3; tree: 5)
  -o, --csv=FILE         write the results as CSV to FILE
      --pretouch=SIZE    scratch memory to touch before every run (default
                           twice the file or tree size, at most 3G; 0 for none)
      --timer=HOW        perl (Time::HiRes), time (time -p) or auto (default)
  -v, --verbose          report each run on standard error
      --help             display this help and exit
      --version          output version information and exit

SIZE is a byte count, optionally followed by K, M, G or T (powers of 1024).

Tools of compare: cp, cat, dd-8M (the system's), rsync and cpio when
installed, and cpdd-cp, cpdd-direct (--direct), cpdd-uncached
(--uncached), cpdd-METHOD, cpdd-METHOD-direct, cpdd-METHOD-8M for METHOD
in read, mmap, offload, auto, cpdd-jobs-N (--jobs=N for N of 2, 4 ... up
to twice the CPUs), and cpdd-dd-8M.  Variants that cpdd's cp
rejects are skipped with a note.  The page cache is measured with
fincore (util-linux, or \$CPDD_BENCH_FINCORE); without it the cached
column stays empty.

Exit status: 0 on success, 1 if a tool failed or made a wrong copy or
the benchmark could not be set up, 2 for a usage error.
EOF
}

version_ ()
{
  cat <<EOF
$me ($package) $version
Copyright (C) 2026 the cpdd authors.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.
EOF
}
