# shellcheck shell=sh disable=SC2016
# The awk programs here are in single quotes on purpose.
#
# mpi.sh -- cpdd-bench mpi: cpdd's cp --jobs against mpicp on as many
# ranks, on a tree, a flat directory and a large file.  The runs
# themselves are in trees.sh.
#
# Copyright (C) 2026 the cpdd authors.
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.  It comes WITHOUT ANY WARRANTY.

cmd_mpi ()
{
  cold=false runs=5 csv='' plot='' cp_prog='' system_cp='' tools_sel=''
  pretouch='' timer=auto verify=true verbose=false tree=real
  size=1073741824 ranks_list='1 2 4' mpicp_prog='' mpirun_prog='' dd_prog=''
  bench_cmd=mpi delete_each=false mpi_flags='' transport_flags=''
  transport_set=false fs_kind='' dcp_prog='' flat_files=20000
  workloads='tree flat file'
  parse_args mpi "$@"
  dir=${operand:-.}
  case $fs_kind in
    '' | latency | latency-from) ;;
    *) usage_error "mpi copies onto --fs=latency or from --fs=latency-from" \
         "only" ;;
  esac
  common_setup
  system_cp=${system_cp:-$(sys_prog cp)} ||
    die "the system's cp was not found; give it with --system-cp"

  make_work "$dir"
  test -z "$fs_kind" || bench_fs_setup
  : >"$work/skipped"
  setup_diff
  setup_rss

  add_tool cp cp "$(abspath "$system_cp")" ''
  if cpdd_cp=$(find_cpdd cp "$cp_prog"); then
    for j in $ranks_list; do
      add_tool "cpdd-jobs-$j" cp "$cpdd_cp" "--jobs=$j"
    done
  elif selected 'cpdd-*'; then
    skipped cpdd-cp "cpdd's cp not found (use --cp or CPDD_CP)"
  fi
  add_mpi_tools
  add_dcp_tools
  tree_runnable
  test -z "$dcp_prog" || tree_kept_all

  if $cold; then
    mode=cold
    setup_cold_tree
  else
    mode=hot
  fi
  q_sync=$(shquote "$sync_prog")
  : >"$work/raw"
  : >"$work/trees"
  copy_seq=0
  descs=

  # Many files in many directories, then in one, where the cost is per
  # file, then one large file, where it is the data's.
  for workload in $workloads; do
    mpi_workload "$workload"
    remove_copies "$copies_dir"
  done
  tree_desc=$descs

  tree_report
  test -z "$dcp_prog" || mpi_lost_report
  mpi_startup_report
  exit $exit_status
}

# Make the source of workload $1 (tree, flat or file) and time every
# tool on it.
mpi_workload ()
{
  delete_each=false
  case $1 in
    tree)
      if test "$tree" = real; then
        src=$work/real
        make_real_tree "$src"
        mw_desc="real tree ($real_parts)"
      else
        test -d "$tree" || die "'$tree' is not a directory"
        src=$(abspath "$tree")
        mw_desc="tree $src"
      fi ;;
    flat)
      src=$work/flat
      make_flat_dir "$src" "$flat_files"
      mw_desc="a directory of $flat_files small files" ;;
    file)
      src=$work/file
      mkdir "$src" || die "cannot make $src"
      check_space "$work" "$size"
      make_file "$src/big" "$size"
      mw_desc="a directory of one $(hsize "$size")-byte file"
      # Copies of one large file, kept, would fill the page cache with
      # gigabytes that later runs must reclaim; deleting one is quick.
      delete_each=true ;;
  esac
  descs="$descs${descs:+, then }$mw_desc"
  tree_workload
}

# Make directory $1 holding $2 files of 1 to 4 KiB and nothing else,
# as a job's output directory or a mail spool does: the case where
# only files, not subtrees, can be shared out.
make_flat_dir ()
{
  mkdir "$1" || die "cannot make $1"
  "$AWK" -v dir="$1" -v n="$2" 'BEGIN {
      line = sprintf("%063d", 0)
      for (i = 1; i <= n; i++) {
        f = sprintf("%s/f%06d", dir, i)
        for (j = 0; j < 16 + i % 48; j++)
          printf "%s\n", line >f
        close(f)
      }
    }' || die "cannot fill $1"
}

# With --peer=dcp: register mpifileutils' dcp on each number of ranks,
# started as mpicp is.
add_dcp_tools ()
{
  test -n "$dcp_prog" || return 0
  if ! adt_p=$(user_prog "$dcp_prog"); then
    skipped dcp "$dcp_prog: not found (mpifileutils; give its path with" \
      "--peer=dcp=PROG)"
    dcp_prog=
    return 0
  fi
  dcp_prog=$adt_p
  test -n "$mpi_flags" || return 0
  for adt_n in $ranks_list; do
    add_tool "dcp-$adt_n" dcp "$mpirun_prog" \
      "$mpi_flags -np $adt_n $(shquote "$dcp_prog")"
  done
}

# What each tool lost of what cp -a keeps, from tree_kept_all.
mpi_lost_report ()
{
  printf 'lost of what cp -a keeps:\n'
  "$AWK" -F '\t' '{ printf "  %-15s %s\n", $1, $2 }' "$work/lost"
}

# How long mpirun takes to start mpicp and let it end at once (its
# --version), on each number of ranks, and the CPU time that takes:
# the fixed costs in every mpicp time above.
mpi_startup_report ()
{
  test -n "$mpi_flags" || return 0
  printf 'mpirun options: %s\n' "$mpi_flags"
  ms_cpus=$(cpu_count)
  for ms_n in $ranks_list; do
    ms_cmd="$(shquote "$mpirun_prog") $mpi_flags -np $ms_n"`
      `" $(shquote "$mpicp_prog") --version"
    : >"$work/startup"
    ms_r=0
    while test $ms_r -lt "$runs"; do
      ms_r=$((ms_r + 1))
      run_timed "$work/time" "$work/err" "$ms_cmd"
      sed 1q "$work/time" >>"$work/startup"
    done
    "$AWK" -v n="$ms_n" "$awk_lib"'
      { w[++k] = $1 + 0; c[k] = $2 + $3 }
      END { printf "mpirun start-up, %d rank(s): median %.3f s, CPU time %.2f" \
              " s, of %d runs\n", n, median(w, k), median(c, k), k
            print median(w, k), median(c, k) }' \
      "$work/startup" >"$work/startup.n"
    { read -r ms_line && read -r ms_median ms_cpu; } <"$work/startup.n"
    printf '%s\n' "$ms_line"
    mpi_throughput "$ms_n" "$ms_median" "$ms_cpu" "$ms_cpus"
  done
}

# Print, for each workload, the throughput of mpicp on $1 ranks as a
# fraction of cp --jobs=$1's: the ratio of their median times, then
# with mpicp's start-up $2 taken off, which the copy does not scale
# with.  Then the most it could be on the $4 CPUs here: mpicp needs
# at least the CPU time cp --jobs does to copy, and that of its
# start-up ($3 s) besides, and the CPUs can do no more than all of it
# at once.
mpi_throughput ()
{
  "$AWK" -v n="$1" -v up="$2" -v up_cpu="$3" -v cpus="$4" '
    $2 == "cpdd-jobs-" n { jobs[$1] = $3; jobs_cpu[$1] = $6 }
    $2 == "mpicp-" n { mpi[$1] = $3 }
    !($1 in seen) { seen[$1] = 1; o[++k] = $1 }
    END {
      for (i = 1; i <= k; i++) {
        f = o[i]
        if (!(f in jobs) || !(f in mpi) || mpi[f] <= 0) continue
        line = sprintf("mpicp-%d throughput / cpdd-jobs-%d'"'"'s, %s file(s):" \
                       " %.2f", n, n, f, jobs[f] / mpi[f])
        if (mpi[f] > up)
          line = line sprintf(", %.2f without start-up",
                              jobs[f] / (mpi[f] - up))
        least = (jobs_cpu[f] + up_cpu) / cpus
        line = line sprintf("; CPU time allows at most %.2f on %d CPU(s)",
                            (least <= jobs[f] ? 1 : jobs[f] / least), cpus)
        print line
      }
    }' "$work/medians"
}
