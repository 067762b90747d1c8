# shellcheck shell=sh disable=SC2016
# The awk programs here are in single quotes on purpose.
#
# tree.sh -- cpdd-bench tree: a directory tree copied by every tool in
# turn, with --checks the tools that check a copy, and with --peers
# the other fast copiers.  The runs themselves are in trees.sh.
#
# Copyright (C) 2026 the cpdd authors.
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.  It comes WITHOUT ANY WARRANTY.

# The tools of tree, after the system's cp -a: tar | tar, rsync -a, and
# cpdd's cp -a with each number of jobs.
tree_copy_tools ()
{
  if p=$(sys_prog tar); then add_tool tar tar "$p" ''
  elif selected tar; then skipped tar "not found"
  fi
  if p=$(find_prog rsync); then add_tool rsync rsync "$p" ''
  elif selected rsync; then skipped rsync "not found"
  fi
  if cpdd_cp=$(find_cpdd cp "$cp_prog"); then
    add_tool cpdd-cp cp "$cpdd_cp" ''
    # cpdd's cp copies with several workers once it knows --jobs.
    if "$cpdd_cp" --help 2>/dev/null | grep -e '--jobs' >/dev/null; then
      j=0
      while test $j -lt "$max_jobs"; do
        j=$((j + 1))
        add_tool "cpdd-jobs-$j" cp "$cpdd_cp" "--jobs=$j"
      done
    else
      note "cpdd's cp has no --jobs yet; it runs with one job only"
    fi
    add_with_tools "$cpdd_cp"
  elif selected 'cpdd-*'; then
    skipped cpdd-cp "cpdd's cp not found (use --cp or CPDD_CP)"
  fi
}

# The tools of tree --checks, after the system's cp -a: that cp -a then
# sha256sum of both trees, which is what people do to check a copy,
# and cpdd's cp -a alone, with --verify and with --print-hash.
tree_check_tools ()
{
  if sum=$(find_prog sha256sum); then
    add_tool cp+sha256sum cp-sum "$(abspath "$system_cp")" "$sum"
  elif selected cp+sha256sum; then
    skipped cp+sha256sum "sha256sum not found"
  fi
  if cpdd_cp=$(find_cpdd cp "$cp_prog"); then
    add_tool cpdd-cp cp "$cpdd_cp" ''
    if cp_hashes "$cpdd_cp" xxh128; then
      add_tool cpdd-verify-xxh128 cp "$cpdd_cp" --verify=xxh128
    elif selected cpdd-verify-xxh128; then
      skipped cpdd-verify-xxh128 "this cp was built without xxh128"
    fi
    add_tool cpdd-verify-sha256 cp "$cpdd_cp" --verify=sha256
    add_tool cpdd-print-sha256 cp "$cpdd_cp" --print-hash=sha256
  elif selected 'cpdd-*'; then
    skipped cpdd-cp "cpdd's cp not found (use --cp or CPDD_CP)"
  fi
}

cmd_tree ()
{
  cold=false runs=5 csv='' plot='' cp_prog='' system_cp='' tools_sel=''
  with_list=''
  pretouch='' timer=auto verify=true verbose=false tree='' files_list=''
  max_jobs='' seed=1 dd_prog='' bench_cmd=tree delete_each=false
  tree_checks=false peers=false fs_kind='' mpicp_prog='' mpirun_prog=''
  transport_set=false transport_flags='' gen_file_size=''
  parse_args tree "$@"
  dir=${operand:-.}
  if $peers; then
    $tree_checks && usage_error "--peers and --checks do not go together"
    test -z "$plot" || case $plot in
      *.svg | *.SVG) ;;
      *) usage_error "--plot needs a file name ending in .svg" ;;
    esac
    case $files_list in
      *' '*) usage_error "--peers times one tree: give --files one number" ;;
    esac
  fi
  case $plot in
    '') ;;
    *.svg | *.SVG)
      $peers || test -z "$tree" ||
        usage_error "--plot draws generated trees; it does not go with --tree" ;;
    *) usage_error "--plot needs a file name ending in .svg" ;;
  esac
  if test -n "$tree" && test -n "$files_list"; then
    usage_error "--files and --tree do not go together"
  fi
  if test -n "$tree" && test -n "$gen_file_size"; then
    usage_error "--file-size and --tree do not go together"
  fi
  if test -z "$files_list"; then
    if test -n "$plot"; then files_list='1000 10000 100000'
    else files_list=10000
    fi
  fi
  common_setup
  system_cp=${system_cp:-$(sys_prog cp)} ||
    die "the system's cp was not found; give it with --system-cp"
  if test -z "$max_jobs"; then
    max_jobs=$(cpu_count)
    $peers && max_jobs=$((max_jobs * 2))
  fi

  make_work "$dir"
  if test -n "$fs_kind"; then
    tree_fs_size
    bench_fs_setup
  fi
  : >"$work/skipped"
  setup_diff
  setup_rss

  add_tool cp cp "$(abspath "$system_cp")" ''
  if $tree_checks; then
    tree_check_tools
  elif $peers; then
    tree_peer_tools
  else
    tree_copy_tools
  fi
  tree_runnable
  $peers && tree_kept_all

  case $tree in
    '') tree_desc="generated tree (seed $seed${gen_file_size:+, files of $gen_file_size bytes})" ;;
    real)
      src=$work/real
      make_real_tree "$src"
      tree_desc="real tree ($real_parts)" ;;
    *)
      test -d "$tree" || die "'$tree' is not a directory"
      src=$(abspath "$tree")
      tree_desc="tree $src" ;;
  esac
  q_sync=$(shquote "$sync_prog")
  copy_seq=0
  if $peers; then
    tree_peer_series
    exit $exit_status
  fi
  if $cold; then
    mode=cold
    setup_cold_tree
  else
    mode=hot
  fi

  : >"$work/raw"
  : >"$work/trees"
  done_tree=
  for tree_n in $files_list; do
    # The last tree and its copies go with the work directory, after
    # the report: deleting them can take minutes.
    if test -n "$done_tree"; then
      rm -rf "$done_tree" "$copies_dir"
    fi
    if test -z "$tree"; then
      src=$work/tree-$tree_n
      make_tree "$src" "$tree_n"
    fi
    tree_workload
    test -n "$tree" || done_tree=$src
  done

  tree_report
  exit $exit_status
}

# With --fs, the bytes of the tree to copy (size) and how many copies
# of it the new file system is to hold (fs_copies): all the runs' of
# both series on a disk, whose image is sparse; a round's on tmpfs,
# which is memory.
tree_fs_size ()
{
  case $tree in
    real) tfs_kib=$(du -s -k /usr/include /usr/lib/python3 /usr/share/perl5 \
                      2>/dev/null | "$AWK" '{ k += $1 } END { print k + 0 }') ;;
    '')
      if test -n "$gen_file_size"; then
        tfs_kib=$((files_list * (gen_file_size / 1024 + 4)))
      else
        tfs_kib=$((files_list * 32))
      fi ;;
    *) tfs_kib=$(tree_kib "$tree") ;;
  esac
  size=$((tfs_kib * 1024 + 1048576))
  if test "$fs_kind" = tmpfs; then
    fs_copies=16
  else
    fs_copies=$((runs * 32 + 2))
  fi
}

# ---------------------------------------------------------------------
# tree --peers
# ---------------------------------------------------------------------

# A program of Rust's cargo install: on $PATH, or in ~/.cargo/bin.
find_cargo_prog ()
{
  find_prog "$1" || find_prog "${CARGO_HOME:-${HOME:-/}/.cargo}/bin/$1"
}

# The tools of tree --peers, after the system's cp -a: cpdd's cp -a
# alone, with --jobs (auto) and with each count of peer_counts; the
# other fast copiers where they are installed (xcp, fcp and cpz from
# crates.io; xcp on as many workers, fcp and cpz on one per CPU, as
# they choose), tar | tar, rsync -a, and mpicp on as
# many ranks.
tree_peer_tools ()
{
  tpt_counts=$(peer_counts)
  if cpdd_cp=$(find_cpdd cp "$cp_prog"); then
    add_tool cpdd-cp cp "$cpdd_cp" ''
    add_tool cpdd-jobs-auto cp "$cpdd_cp" --jobs
    for tpt_n in $tpt_counts; do
      add_tool "cpdd-jobs-$tpt_n" cp "$cpdd_cp" "--jobs=$tpt_n"
    done
    add_with_tools "$cpdd_cp"
  elif selected 'cpdd-*'; then
    skipped cpdd-cp "cpdd's cp not found (use --cp or CPDD_CP)"
  fi
  if p=$(find_cargo_prog xcp); then
    for tpt_n in $tpt_counts; do
      add_tool "xcp-w$tpt_n" xcp "$p" "-w $tpt_n"
    done
  elif selected 'xcp-*'; then
    skipped xcp "not found (cargo install xcp)"
  fi
  if p=$(find_cargo_prog fcp); then add_tool fcp fcp "$p" ''
  elif selected fcp; then skipped fcp "not found (cargo install fcp)"
  fi
  if p=$(find_cargo_prog cpz); then add_tool cpz fcp "$p" ''
  elif selected cpz; then skipped cpz "not found (cargo install cpz)"
  fi
  if p=$(sys_prog tar); then add_tool tar tar "$p" ''
  elif selected tar; then skipped tar "not found"
  fi
  if p=$(find_prog rsync); then add_tool rsync rsync "$p" ''
  elif selected rsync; then skipped rsync "not found"
  fi
  if selected 'mpicp-*'; then
    ranks_list=$tpt_counts
    add_mpi_tools
  fi
}

# Time every tool on one tree, hot then cold (cold only with --cold;
# hot only on tmpfs, where there is no disk to wait for), and report
# each series, then both side by side with what each tool lost.
tree_peer_series ()
{
  if test -z "$tree"; then
    src=$work/tree-$files_list
    make_tree "$src" "$files_list"
  fi
  if $cold; then tps_modes=cold
  elif test "$fs_kind" = tmpfs; then tps_modes=hot
  else tps_modes='hot cold'
  fi
  tps_csv=$csv
  : >"$work/peer-medians"
  for mode in $tps_modes; do
    if test "$mode" = cold; then
      cold=true
      setup_cold_tree
    else
      cold=false
    fi
    : >"$work/raw"
    : >"$work/trees"
    tree_workload
    csv=${tps_csv:+$work/csv.$mode}
    tree_report
    "$AWK" -v m="$mode" '{ print m, $0 }' "$work/medians" >>"$work/peer-medians"
    echo
  done
  if test -n "$tps_csv"; then
    tps_first=true
    for mode in $tps_modes; do
      if $tps_first; then cat "$work/csv.$mode"
      else sed 1d "$work/csv.$mode"
      fi
      tps_first=false
    done >"$tps_csv" || die "cannot write $tps_csv"
  fi
  peers_report
}

# Both series side by side: each tool's median wall time and its ratio
# to the system's cp -a, hot and cold, and what it lost of what cp -a
# keeps; then the plot.
peers_report ()
{
  printf '%s tree --peers: %s%s; ratio: median wall / that of the system'"'"'s cp -a\n' \
    "$me" "$tree_desc" "${fs_kind:+, on a new $fs_kind file system}"
  "$AWK" -v order="$(tree_tool_order)" -F '\t' '
    FILENAME == ARGV[1] { lost[$1] = $2; next }
    {
      split($0, f, " ")
      w[f[1], f[3]] = f[4]; modes[f[1]] = 1
    }
    END {
      printf "%-15s %8s %6s %8s %6s  %s\n", "tool", "hot_s", "ratio",
        "cold_s", "ratio", "lost of what cp -a keeps"
      nt = split(order, tl, " ")
      for (j = 1; j <= nt; j++) {
        t = tl[j]
        if (!((t) in lost)) continue
        line = sprintf("%-15s", t)
        for (k = 1; k <= 2; k++) {
          m = (k == 1 ? "hot" : "cold")
          if ((m, t) in w && (m, "cp") in w && w[m, "cp"] > 0)
            line = line sprintf(" %8.3f %6.2f", w[m, t], w[m, t] / w[m, "cp"])
          else
            line = line sprintf(" %8s %6s", "-", "-")
        }
        print line "  " lost[t]
      }
    }' "$work/lost" "$work/peer-medians"
  if test -s "$work/skipped"; then
    sed 's/^/not run: /' "$work/skipped"
  fi
  test -z "$plot" || peers_plot
}

# Bars of each tool's ratio to the system's cp -a, hot and cold.
peers_plot ()
{
  if ! gnuplot=$(find_prog gnuplot); then
    note "gnuplot not found (Debian package gnuplot-nox); no plot drawn"
    return 0
  fi
  "$AWK" -v order="$(tree_tool_order)" '
    { w[$1, $3] = $4 }
    END {
      nt = split(order, tl, " ")
      for (j = 1; j <= nt; j++) {
        t = tl[j]
        if (!(("hot", t) in w) && !(("cold", t) in w)) continue
        printf "%s", t
        for (k = 1; k <= 2; k++) {
          m = (k == 1 ? "hot" : "cold")
          if ((m, t) in w && w[m, "cp"] > 0) printf " %.3f", w[m, t] / w[m, "cp"]
          else printf " -"
        }
        printf "\n"
      }
    }' "$work/peer-medians" >"$work/peers.dat"
  {
    printf 'set terminal svg size 900,560 dynamic noenhanced font "sans,12"'
    printf " background rgb 'white'\n"
    printf 'set output %s\n' "$(gp_quote "$plot")"
    printf 'set title %s\n' "$(gp_quote "$me tree --peers: $tree_desc, \
$runs runs; median wall time / the system's cp -a")"
    printf "set datafile missing '-'\n"
    printf 'set style data histograms\n'
    printf 'set style histogram clustered gap 1\n'
    printf 'set style fill solid 0.8 border -1\n'
    printf 'set xtics rotate by -40\n'
    printf 'set ylabel "time / the system'"'"'s cp -a"\n'
    printf 'set yrange [0:*]\n'
    printf 'set grid ytics\n'
    printf 'set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2\n'
    printf 'plot %s using 2:xtic(1) title "hot", "" using 3 title "cold"\n' \
      "$(gp_quote "$work/peers.dat")"
  } >"$work/plot.gp"
  if "$gnuplot" "$work/plot.gp" 2>"$work/err"; then
    printf 'plot: %s\n' "$plot"
  else
    error_ "gnuplot failed: $(first_error "$work/err")"
  fi
}
