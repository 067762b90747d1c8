# shellcheck shell=sh disable=SC2016
# The awk programs here are in single quotes on purpose.
#
# trees.sh -- copying directory trees with every tool, for cpdd-bench
# tree (tree.sh) and cpdd-bench mpi (mpi.sh), which run the same code
# with tools and trees of their own.
#
# Copyright (C) 2026 the cpdd authors.
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.  It comes WITHOUT ANY WARRANTY.

# ---------------------------------------------------------------------
# The trees copied.
# ---------------------------------------------------------------------

# The generated tree: FILES regular files of a size mix like a source
# tree's, 16 to a directory, two levels of directories.  Sizes, names
# and contents come from a Park-Miller generator seeded with SEED: its
# products stay below 2^53, so every awk computes them exactly and a
# seed gives the same tree from run to run and machine to machine, as
# awk's own srand and rand would not.  The contents are lines of
# random text cut from 16 blocks of 64 KiB.  With mode=dirs, the
# program prints the directories to make first instead.
# Size bands (log-uniform within a band), about 20 KiB on average:
#    2%  empty
#   53%  32 B to 2 KiB
#   33%  2 KiB to 16 KiB
#   10%  16 KiB to 128 KiB
#  1.9%  128 KiB to 1 MiB
#  0.1%  1 MiB to 8 MiB (the long tail)
# With fixed set (tree --file-size), every file has that size instead,
# as in the benchmarks of copiers that time many small or empty files.
tree_gen_awk='
function rnd() {
  seed = (seed * 48271) % 2147483647
  return seed / 2147483647
}
function dirname_(i,   d) {
  d = int(i / 16)
  return sprintf("d%02d/s%04d", d % 32, int(d / 32))
}
function size_(   u, lo, hi) {
  u = rnd()
  if (fixed != "") return fixed + 0
  if (u < 0.02) return 0
  if (u < 0.55) { lo = 32; hi = 2048 }
  else if (u < 0.88) { lo = 2048; hi = 16384 }
  else if (u < 0.98) { lo = 16384; hi = 131072 }
  else if (u < 0.999) { lo = 131072; hi = 1048576 }
  else { lo = 1048576; hi = 8388608 }
  return int(lo * exp(log(hi / lo) * rnd()))
}
BEGIN {
  if (mode == "dirs") {
    for (i = 0; i < n; i += 16) print root "/" dirname_(i)
    exit
  }
  al = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _;{}()=+-*/"
  nal = length(al)
  split("c h py pl txt md", ext, " ")
  for (b = 0; b < 16; b++) {
    blk = ""
    for (l = 0; l < 32; l++) {
      part = ""
      for (k = 0; k < 32; k++) {
        line = ""
        for (c = 0; c < 63; c++)
          line = line substr(al, int(rnd() * nal) + 1, 1)
        part = part line "\n"
      }
      blk = blk part
    }
    block[b] = blk
  }
  for (i = 0; i < n; i++) {
    s = size_()
    path = sprintf("%s/%s/f%06d.%s", root, dirname_(i), i,
                   ext[int(rnd() * 6) + 1])
    b = int(rnd() * 16); off = int(rnd() * 1024) * 64
    printf "" > path
    left = s
    while (left > 0) {
      chunk = substr(block[b], off + 1, left)
      printf "%s", chunk > path
      left -= length(chunk)
      b = (b + 1) % 16; off = 0
    }
    if (close(path) != 0) {
      print "cannot write " path > "/dev/stderr"
      exit 1
    }
  }
}'

# Make the generated tree of $2 files in the new directory $1.
make_tree ()
{
  verbose_ "making a tree of $2 files (seed $seed) in $1"
  mkdir "$1" || die "cannot make $1"
  "$AWK" -v mode=dirs -v n="$2" -v root="$1" "$tree_gen_awk" |
    xargs mkdir -p || die "cannot make the directories of $1"
  "$AWK" -v mode=files -v n="$2" -v root="$1" -v seed="$seed" \
    -v fixed="$gen_file_size" "$tree_gen_awk" || die "cannot make the files of $1"
}

# Make the issue's real tree in $1: /usr/include, /usr/lib/python3 and
# /usr/share/perl5 copied together with the system's cp -a.  A part
# that does not exist here is left out with a note.
make_real_tree ()
{
  mkdir "$1" || die "cannot make $1"
  mr_parts=
  for mr_part in /usr/include /usr/lib/python3 /usr/share/perl5; do
    if test -d "$mr_part"; then
      verbose_ "copying $mr_part into $1"
      "$system_cp" -a "$mr_part" "$1/" 2>"$work/err" ||
        die "cannot copy $mr_part: $(first_error "$work/err")"
      mr_parts="$mr_parts $mr_part"
    else
      note "$mr_part does not exist here; the real tree goes without it"
    fi
  done
  test -n "$mr_parts" ||
    die "none of /usr/include, /usr/lib/python3, /usr/share/perl5 exists"
  real_parts=${mr_parts# }
}

# Print "FILES ENTRIES BYTES" of tree $1: regular files, all entries
# below it, and the bytes of its regular files.
tree_stats ()
{
  find "$1" \( -type f -exec ls -ln {} + \) -o \( ! -type f -print \) \
    2>/dev/null |
    "$AWK" '
      /^-/ { f++; b += $5; e++; next }
      NF { e++ }
      END { printf "%d %d %.0f\n", f, e - 1, b }'
}

# Re-read every file of the source tree, which also brings its
# directories and inodes back into the cache.  A file that cannot be
# read is for the copy to report, not the warm-up.
warm_tree ()
{
  find "${src_local:-$src}" -type f -exec cat {} + >/dev/null 2>&1 || :
}

# ---------------------------------------------------------------------
# Copying a tree with every tool, round-robin, and the report.
# ---------------------------------------------------------------------

# How to learn a run's maximum resident set: GNU time's %M, written by
# a wrapper around the copy (for a pipeline, the largest process).
# Sets rss_prog, empty when there is no way.
setup_rss ()
{
  rss_prog=
  if sr_p=$(find_prog /usr/bin/time) || sr_p=$(find_prog time); then
    if "$sr_p" -f %M -o "$work/rss" /bin/sh -c : >/dev/null 2>&1 &&
       "$AWK" 'END { exit !($0 ~ /^[0-9]+$/) }' "$work/rss"; then
      rss_prog=$sr_p
      rss_how="GNU time ($sr_p -f %M; for tar | tar the larger tar)"
      return 0
    fi
  fi
  rss_how="not measured (needs GNU time)"
  note "GNU time not found: max RSS is not measured and its column stays" \
    "empty (Debian package time)"
}

# Print the shell command with which tool $1 copies tree $2 to $3,
# a name that does not exist yet (tar's is made just before).
tree_tool_cmd ()
{
  ttc_kind='' ttc_prog='' ttc_opts=''
  eval "ttc_kind=\$tool_kind_$1 ttc_prog=\$tool_prog_$1" \
    "ttc_opts=\$tool_opts_$1"
  ttc_q=$(shquote "$ttc_prog")
  ttc_src=$(shquote "$2")
  ttc_dst=$(shquote "$3")
  case $ttc_kind in
    cp) printf '%s -a%s %s %s\n' "$ttc_q" "${ttc_opts:+ }$ttc_opts" \
          "$ttc_src" "$ttc_dst" ;;
    tar) printf '%s -C %s -cf - . | %s -C %s -xf -\n' "$ttc_q" "$ttc_src" \
           "$ttc_q" "$ttc_dst" ;;
    rsync) printf '%s -a %s %s\n' "$ttc_q" "$(shquote "$2/")" "$ttc_dst" ;;
    mpicp) printf '%s %s -a %s %s\n' "$ttc_q" "$ttc_opts" "$ttc_src" \
             "$ttc_dst" ;;
    dcp) printf '%s %s -q -p -S %s %s\n' "$ttc_q" "$ttc_opts" "$ttc_src" \
           "$ttc_dst" ;;
    xcp) printf '%s -r %s %s %s\n' "$ttc_q" "$ttc_opts" "$ttc_src" \
           "$ttc_dst" ;;
    # fcp and cpz alike copy SRC to the new name DST.
    fcp) printf '%s %s %s\n' "$ttc_q" "$ttc_src" "$ttc_dst" ;;
    cp-sum)
      ttc_sum=$(shquote "$ttc_opts")
      printf '%s -a %s %s && (cd %s && find . -type f -exec %s {} +)' \
        "$ttc_q" "$ttc_src" "$ttc_dst" "$ttc_src" "$ttc_sum"
      printf ' >/dev/null && (cd %s && find . -type f -exec %s {} +)' \
        "$ttc_dst" "$ttc_sum"
      printf ' >/dev/null\n' ;;
  esac
}

# Prepare destination $2 for tool $1: tar extracts into an existing
# directory; the others make it.
tree_prepare_dst ()
{
  tpd_kind=
  eval "tpd_kind=\$tool_kind_$1"
  if test "$tpd_kind" = tar; then
    mkdir "$2" || die "cannot make $2"
  fi
}

# Is copy $2 of tree $1 the same, file names, types and contents?
same_tree () { "$diff_prog" -r $diff_opts "$1" "$2" >"$work/diff" 2>&1; }

# Work out how to compare trees.  Sets diff_prog and diff_opts.
setup_diff ()
{
  diff_prog=$(sys_prog diff) || die "diff not found (needed to check copies)"
  diff_opts=
  # Symbolic links are compared as links, where diff can.
  if "$diff_prog" -r --no-dereference "$work" "$work" >/dev/null 2>&1; then
    diff_opts=--no-dereference
  fi
}

# Try every tool on a tiny tree; one that fails is skipped with a
# note, one that copies wrongly is an error.
probe_tree_tools ()
{
  pt_tree=$work/probe
  mkdir "$pt_tree" "$pt_tree/sub" || die "cannot make $pt_tree"
  if ! { echo a >"$pt_tree/a" && echo b >"$pt_tree/sub/b" &&
          : >"$pt_tree/sub/e"; }; then
    die "cannot write in $pt_tree"
  fi
  pt_i=0
  while test $pt_i -lt $ntools; do
    pt_i=$((pt_i + 1))
    pt_dst=$work/probe-out.$pt_i
    tree_prepare_dst $pt_i "$pt_dst"
    pt_cmd=$(tree_tool_cmd $pt_i "$pt_tree" "$pt_dst")
    pt_label=
    eval "pt_label=\$tool_label_$pt_i"
    if /bin/sh -c "$pt_cmd" </dev/null >/dev/null 2>"$work/err"; then
      if same_tree "$pt_tree" "$pt_dst"; then
        rm -rf "$pt_dst"
        continue
      fi
      error_ "$pt_label: its copy of a small test tree differs from the source"
    else
      skipped "$pt_label" "failed on a small tree: $(first_error "$work/err")"
    fi
    rm -rf "$pt_dst"
    eval "tool_state_$pt_i=skipped"
  done
  rm -rf "$pt_tree"
}

# Probe the tools registered and list those that work as run_1 ...
# run_$nrun.
tree_runnable ()
{
  test $ntools -gt 0 || die "no tools to run"
  probe_tree_tools
  nrun=0
  trn_i=0 trn_st=
  while test $trn_i -lt $ntools; do
    trn_i=$((trn_i + 1))
    eval "trn_st=\$tool_state_$trn_i"
    test "$trn_st" = ok || continue
    nrun=$((nrun + 1))
    eval "run_$nrun=$trn_i"
  done
  test $nrun -gt 0 || die "no tool can run"
}

# Time every tool on the tree $src.
tree_workload ()
{
  # shellcheck disable=SC2046
  set -- $(tree_stats "$src")
  tree_files=$1 tree_entries=$2 tree_bytes=$3
  plan_copies "$(tree_kib "$src")" "$tree_entries"
  test "$fs_kind" = latency-from && latency_source
  tree_pretouch=$pretouch
  test -n "$tree_pretouch" ||
    tree_pretouch=$(default_pretouch "$tree_bytes")
  setup_pretouch "$tree_pretouch"
  printf '%s %s %s %s %s\n' "$tree_files" "$tree_entries" "$tree_bytes" \
    "$tree_pretouch" "$copies_kept" >>"$work/trees"
  tree_rounds
}

# Time every tool $runs times, round-robin, on the tree $src of
# $tree_files files; append each run to $work/raw.  Creating many
# files soon after deleting many is slow on some file systems (ext4
# without a journal: several times slower), so the copies are kept
# until all the runs on this tree are done (the caller deletes them),
# or, if there is no room for them all, until the end of each round,
# or if there is none for a round's, until the end of each run.
tree_rounds ()
{
  tr_round=0
  tr_i=
  new_copies_dir
  while test $tr_round -lt "$runs"; do
    tr_round=$((tr_round + 1))
    tr_pos=0
    while test $tr_pos -lt $nrun; do
      eval "tr_i=\$run_$(( (tr_pos + tr_round - 1) % nrun + 1 ))"
      tr_pos=$((tr_pos + 1))
      tree_run_one "$tr_i" "$tr_round" "$tr_pos"
      if test "$copies_kept" = run &&
         ! { test $tr_round = "$runs" && test $tr_pos = $nrun; }; then
        remove_copies "$copies_dir"
        new_copies_dir
      fi
    done
    if test "$copies_kept" = round && test $tr_round -lt "$runs"; then
      remove_copies "$copies_dir"
      new_copies_dir
    fi
  done
}

# Remove the copies $1.  On the latency file system, through the
# directory it passes through, as removing thousands of files at a
# round trip per call would take minutes between the runs.
remove_copies ()
{
  case $fs_kind:$1 in
    latency:"$fs_mnt"/*) rm -rf "$fs_outer/back/${1#"$fs_mnt"/}" ;;
    *) rm -rf "$1" ;;
  esac
}

# A new directory for copies, under a name not used before.
copies_seq=0
new_copies_dir ()
{
  copies_seq=$((copies_seq + 1))
  copies_dir=${copies_base:-$work}/copies.$copies_seq
  mkdir "$copies_dir" || die "cannot make $copies_dir"
}

# How long the copies of a tree that takes $1 KiB in $2 entries can
# stay: until its last run, the end of each round or the end of each
# run.  Sets copies_kept to all, round or run; room for one copy is a
# must.  Files count as well as bytes: a million empty files fill a
# tmpfs's inodes long before its bytes.
plan_copies ()
{
  pc_avail=$(df -P -k "${copies_base:-$work}" 2>/dev/null |
    "$AWK" 'NR == 2 { print $4 }')
  case $pc_avail in
    '' | *[!0-9]*) copies_kept=run; return 0 ;;
  esac
  # A file system that does not count its inodes (Btrfs) says 0.
  pc_inodes=$(df -P -i "${copies_base:-$work}" 2>/dev/null |
    "$AWK" 'NR == 2 { print ($2 > 0 && $4 ~ /^[0-9]+$/) ? $4 : -1 }')
  case $pc_inodes in
    '' | *[!0-9-]*) pc_inodes=-1 ;;
  esac
  copies_room 1 "$1" "$2" 1024 ||
    die "not enough space in $work for a copy of the tree:" \
      "need $(hsize "$(($1 * 1024))") bytes and $2 files free"
  if copies_room $((nrun * runs)) "$1" "$2" 1048576; then
    copies_kept=all
  elif copies_room "$nrun" "$1" "$2" 1024; then
    copies_kept=round
    note "no room for all $((nrun * runs)) copies of the tree: they are" \
      "deleted after each round, and the first runs of a round may be" \
      "slowed by the deletion"
  else
    copies_kept=run
    note "no room for a round's $nrun copies of the tree: each is" \
      "deleted after its run, untimed"
  fi
}

# Is there room for $1 copies of a tree of $2 KiB in $3 entries, and
# $4 KiB more, as plan_copies found it?
copies_room ()
{
  "$AWK" -v a="$pc_avail" -v i="$pc_inodes" -v k="$1" -v n="$2" -v e="$3" \
    -v m="$4" \
    'BEGIN { exit !(a >= n * k * 1.1 + m && (i < 0 || i >= e * k * 1.1 + 64)) }'
}

# Print the KiB that tree $1 takes on disk.
tree_kib () { du -s -k "$1" 2>/dev/null | "$AWK" 'NR == 1 { print $1 + 0 }'; }

# Run tool $1 once, as position $3 of round $2.
tree_run_one ()
{
  tro_st='' tro_label=''
  eval "tro_st=\$tool_state_$1 tro_label=\$tool_label_$1"
  test "$tro_st" = ok || return 0
  # Every run copies to a name never used before.
  copy_seq=$((copy_seq + 1))
  tro_dst=$copies_dir/$copy_seq.$tro_label
  tree_prepare_dst "$1" "$tro_dst"
  tro_cmd=$(tree_tool_cmd "$1" "$src" "$tro_dst")
  if test -n "$rss_prog"; then
    tro_cmd="$(shquote "$rss_prog") -f %M -o $(shquote "$work/rss")"`
      `" /bin/sh -c $(shquote "$tro_cmd")"
  fi
  $cold && tro_cmd="{ $tro_cmd; } && $q_sync"
  rm -f "$work/rss"
  "$sync_prog"
  pretouch_memory
  if $cold; then
    drop_caches
  else
    warm_tree
  fi
  run_timed "$work/time" "$work/err" "$tro_cmd"
  read -r tro_w tro_u tro_s tro_rc <"$work/time"
  tro_rss=-
  if test -n "$rss_prog" && test -f "$work/rss"; then
    tro_rss=$("$AWK" '/^[0-9]+$/ { r = $0 } END { print (r == "" ? "-" : r) }' \
      "$work/rss")
  fi
  if test "$tro_rc" != 0; then
    error_ "$tro_label failed (exit status $tro_rc) in run $2:" \
      "$(first_error "$work/err")"
    eval "tool_state_$1=failed"
  elif test "$2" = 1 && $verify && ! same_tree "${src_local:-$src}" "$tro_dst"
  then
    error_ "$tro_label: its copy differs from the source:" \
      "$(sed 1q "$work/diff")"
    eval "tool_state_$1=failed"
  else
    verbose_ "run $2, $tro_label, $tree_files files: $tro_w s wall"
    printf '%s %s %s %s %s %s %s %s %s %s %s\n' "$tree_files" \
      "$tree_entries" "$tree_bytes" "$2" "$3" "$tro_label" "$tro_w" \
      "$tro_u" "$tro_s" "$tro_rss" "$tro_dst" >>"$work/raw"
  fi
  if $delete_each; then
    remove_copies "$tro_dst"
  fi
}

# The CSV of every run, the table of medians, and the plot.
tree_report ()
{
  if test -n "$csv"; then
    "$AWK" -v mode="$mode" -v tree="$tree_desc" "$awk_lib"'
      BEGIN {
        print "mode,tree,files,entries,bytes,round,position,tool,wall_s," \
              "user_s,sys_s,max_rss_kib,dest"
      }
      {
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", mode, csvq(tree),
          $1, $2, $3, $4, $5, $6, $7, $8, $9, ($10 == "-" ? "" : $10), csvq($11)
      }' "$work/raw" >"$csv" || die "cannot write $csv"
  fi

  if $cold; then
    how=$(cold_label ' before each run, final sync timed')
  else
    how="hot: source re-read before each run"
  fi
  printf '%s %s: %s, %s run(s), %s\n' "$me" "$bench_cmd" "$tree_desc" \
    "$runs" "$how"
  printf 'timer: %s; max RSS: %s\n' "$timer" "$rss_how"
  "$AWK" "$awk_lib"' {
    printf "tree of %s files, %s entries, %s bytes (%s); memory pre-touched: %s;" \
      " copies deleted %s\n", $1, $2, $3, hsize($3), hsize($4),
      ($5 == "all" ? "after the last run" : "after each " $5) }' \
    "$work/trees"
  echo "medians, wall min-max; ratio_cp: median wall / that of the system's cp -a"
  # One line per tool and tree, the tools in the order they were
  # registered: "FILES TOOL MEDIAN MIN MAX".
  CB_MEDIANS=$work/medians "$AWK" -v order="$(tree_tool_order)" "$awk_lib"'
    BEGIN {
      nt = split(order, tl, " ")
      printf "%8s %-14s %4s %8s %8s %8s %7s %7s %8s %8s\n", "files", "tool",
        "runs", "wall_s", "wall_min", "wall_max", "user_s", "sys_s",
        "rss_mib", "ratio_cp"
    }
    {
      f = $1; t = $6
      if (!(f in seenf)) { seenf[f] = 1; fl[++nf] = f }
      k = ++cnt[f, t]
      w[f, t, k] = $7 + 0; u[f, t, k] = $8 + 0; s[f, t, k] = $9 + 0
      if ($10 ~ /^[0-9]+$/ && (!((f, t) in rss) || $10 + 0 > rss[f, t]))
        rss[f, t] = $10 + 0
    }
    END {
      for (i = 1; i <= nf; i++) {
        f = fl[i]
        for (j = 1; j <= nt; j++) {
          t = tl[j]; k = cnt[f, t]
          if (!k) continue
          for (r = 1; r <= k; r++) a[r] = w[f, t, r]
          mw[f, t] = median(a, k); lo[f, t] = a[1]; hi[f, t] = a[k]
          for (r = 1; r <= k; r++) a[r] = u[f, t, r]
          mu[f, t] = median(a, k)
          for (r = 1; r <= k; r++) a[r] = s[f, t, r]
          ms[f, t] = median(a, k)
        }
        for (j = 1; j <= nt; j++) {
          t = tl[j]; k = cnt[f, t]
          if (!k) continue
          ratio = (cnt[f, "cp"] && mw[f, "cp"] > 0) ? \
                  sprintf("%.2f", mw[f, t] / mw[f, "cp"]) : "-"
          m = ((f, t) in rss) ? sprintf("%.1f", rss[f, t] / 1024) : "-"
          printf "%8s %-14s %4d %8.3f %8.3f %8.3f %7.2f %7.2f %8s %8s\n", f, t,
            k, mw[f, t], lo[f, t], hi[f, t], mu[f, t], ms[f, t], m, ratio
          print f, t, mw[f, t], lo[f, t], hi[f, t], mu[f, t] + ms[f, t] \
            > ENVIRON["CB_MEDIANS"]
        }
      }
    }' "$work/raw"
  if test -s "$work/skipped"; then
    sed 's/^/not run: /' "$work/skipped"
  fi
  if test -n "$plot" && ! $peers; then
    tree_plot
  fi
}

# The labels of the tools that were to run, in order.
tree_tool_order ()
{
  tto_i=0
  tto_l=
  while test $tto_i -lt $ntools; do
    tto_i=$((tto_i + 1))
    eval "tto_l=\"\$tto_l \$tool_label_$tto_i\""
  done
  printf '%s\n' "${tto_l# }"
}

# Median wall time against the number of files, one line per tool
# with the min-max range as error bars, on log-log axes.
tree_plot ()
{
  if ! gnuplot=$(find_prog gnuplot); then
    note "gnuplot not found (Debian package gnuplot-nox); no plot drawn"
    return 0
  fi
  : >"$work/plot.dat"
  tp_plot=
  tp_index=0
  for tp_tool in $(tree_tool_order); do
    "$AWK" -v t="$tp_tool" '$2 == t { print $1, $3, $4, $5; n++ }
      END { exit !n }' "$work/medians" >"$work/plot.one" || continue
    { cat "$work/plot.one"; printf '\n\n'; } >>"$work/plot.dat"
    tp_plot="$tp_plot${tp_plot:+, }$(gp_quote "$work/plot.dat") index"`
      `" $tp_index using 1:2:3:4 with yerrorlines title $(gp_quote "$tp_tool")"
    tp_index=$((tp_index + 1))
  done
  test -n "$tp_plot" || { note "nothing to plot"; return 0; }
  {
    # An SVG is transparent unless told: white, to read on a dark viewer.
    printf 'set terminal svg size 900,560 dynamic noenhanced font "sans,12"'
    printf " background rgb 'white'\n"
    printf 'set output %s\n' "$(gp_quote "$plot")"
    printf 'set title %s\n' "$(gp_quote "$me tree: copying generated trees, \
$mode, $runs runs; median wall time, bars min-max")"
    printf 'set logscale xy 10\n'
    # Ticks at the sizes timed, and room for the points at both ends.
    "$AWK" '
      !($1 in seen) { seen[$1] = 1; t = t (t == "" ? "" : ", ") $1 }
      NR == 1 || $1 < lo { lo = $1 }
      NR == 1 || $1 > hi { hi = $1 }
      END {
        printf "set xtics (%s)\n", t
        printf "set xrange [%g:%g]\n", lo / 1.5, hi * 1.5
      }' "$work/medians"
    printf 'set xlabel "files in the tree (log scale)"\n'
    printf 'set ylabel "wall time, s (log scale)"\n'
    printf 'set grid\n'
    printf 'set key outside right top\n'
    printf 'plot %s\n' "$tp_plot"
  } >"$work/plot.gp"
  if "$gnuplot" "$work/plot.gp" 2>"$work/err"; then
    printf 'plot: %s\n' "$plot"
  else
    error_ "gnuplot failed: $(first_error "$work/err")"
  fi
}

# ---------------------------------------------------------------------
# What a copy lost of what cp -a keeps: for tree --peers and mpi --peer.
# ---------------------------------------------------------------------

# Make in $1 a small tree with one of each thing cp -a keeps: a
# directory and a file of modes umask would not give, old times on a
# file, a directory and a symbolic link, another owner (as root), a
# hard link, an extended attribute and a hole.  Sets kept_tests to
# what it holds.
make_kept_tree ()
{
  if ! { mkdir "$1" "$1/d" && printf 'data\n' >"$1/d/f" &&
         chmod 640 "$1/d/f" && ln "$1/d/f" "$1/d/f.link" &&
         ln -s f "$1/d/l" &&
         printf x | "$sys_dd" of="$1/sparse" bs=1 seek=16777215 2>/dev/null; }
  then
    die "cannot make the tree $1"
  fi
  kept_tests='file modes,dir modes,file times,dir times,hard links,holes'
  if touch -h -d '2001-02-03 04:05:06' "$1/d/l" 2>/dev/null; then
    kept_tests="$kept_tests,link times"
  fi
  if test "$(id -u 2>/dev/null)" = 0 &&
     chown -h 1234:1234 "$1/d" "$1/d/f" "$1/d/l" 2>/dev/null; then
    kept_tests="$kept_tests,owners"
  fi
  if command -v setfattr >/dev/null 2>&1 &&
     command -v getfattr >/dev/null 2>&1 &&
     setfattr -n user.cpdd -v kept "$1/d/f" 2>/dev/null; then
    kept_tests="$kept_tests,xattrs"
  fi
  if ! { touch -d '2002-03-04 05:06:07' "$1/d/f" && chmod 750 "$1/d" &&
         touch -d '2003-04-05 06:07:08' "$1/d"; }
  then
    die "cannot set the times of $1"
  fi
}

# Print, separated by commas, what of kept_tests the copy $2 of the
# tree $1 that make_kept_tree made lost; "nothing" if none.
kept_lost ()
{
  kl_lost=
  kl_ifs=$IFS
  IFS=,
  for kl_t in $kept_tests; do
    IFS=$kl_ifs
    case $kl_t in
      'file modes') kl_ok=$(same_stat %a "$1/d/f" "$2/d/f") ;;
      'dir modes') kl_ok=$(same_stat %a "$1/d" "$2/d") ;;
      'file times') kl_ok=$(same_stat %Y "$1/d/f" "$2/d/f") ;;
      'dir times') kl_ok=$(same_stat %Y "$1/d" "$2/d") ;;
      'link times') kl_ok=$(same_stat %Y "$1/d/l" "$2/d/l") ;;
      owners)
        kl_ok=$(same_stat %u:%g "$1/d" "$2/d")$(same_stat %u:%g \
          "$1/d/f" "$2/d/f")$(same_stat %u:%g "$1/d/l" "$2/d/l") ;;
      'hard links') kl_ok=$(same_stat %i "$2/d/f" "$2/d/f.link") ;;
      xattrs)
        kl_ok=no
        test "$(getfattr --only-values -n user.cpdd "$2/d/f" 2>/dev/null)" \
          = kept && kl_ok= ;;
      holes)
        kl_ok=no
        kl_b=$(stat -c %b "$2/sparse" 2>/dev/null) &&
          test "$kl_b" -lt 1024 && kl_ok= ;;
    esac
    test -z "$kl_ok" || kl_lost="$kl_lost${kl_lost:+, }$kl_t"
  done
  IFS=$kl_ifs
  printf '%s\n' "${kl_lost:-nothing}"
}

# Print nothing if format $1 of stat gives the same for $2 and $3
# (without following links), else "no".
same_stat ()
{
  ss_a=$(stat -c "$1" "$2" 2>/dev/null) || ss_a=x
  ss_b=$(stat -c "$1" "$3" 2>/dev/null) || ss_b=y
  test "$ss_a" = "$ss_b" || echo no
}

# Copy the tree of make_kept_tree with every runnable tool and note in
# $work/lost, per tool, what it lost.
tree_kept_all ()
{
  tka_src=$work/kept
  make_kept_tree "$tka_src"
  : >"$work/lost"
  tka_i=0
  while test $tka_i -lt $ntools; do
    tka_i=$((tka_i + 1))
    tka_st='' tka_label=''
    eval "tka_st=\$tool_state_$tka_i tka_label=\$tool_label_$tka_i"
    test "$tka_st" = ok || continue
    tka_dst=$work/kept-out.$tka_i
    tree_prepare_dst $tka_i "$tka_dst"
    tka_cmd=$(tree_tool_cmd $tka_i "$tka_src" "$tka_dst")
    if /bin/sh -c "$tka_cmd" </dev/null >/dev/null 2>"$work/err"; then
      tka_lost=$(kept_lost "$tka_src" "$tka_dst")
    else
      tka_lost="everything: it failed ($(first_error "$work/err"))"
    fi
    printf '%s\t%s\n' "$tka_label" "$tka_lost" >>"$work/lost"
    rm -rf "$tka_dst"
  done
  rm -rf "$tka_src"
}

# ---------------------------------------------------------------------
# mpicp, timed by mpi and, beside the other copiers, by tree --peers.
# ---------------------------------------------------------------------

# Find cpdd's mpicp (from --mpicp, $CPDD_MPICP, beside cpdd-bench or in
# ../src) and mpirun (--mpirun, else $PATH).  Sets mpicp_prog and
# mpirun_prog, or fails after saying why.
find_mpi_progs ()
{
  if test -n "$mpicp_prog"; then
    fm_p=$(user_prog "$mpicp_prog") || die "$mpicp_prog: no such program"
    mpicp_prog=$fm_p
  elif test -n "${CPDD_MPICP-}"; then
    mpicp_prog=$(user_prog "$CPDD_MPICP") ||
      die "$CPDD_MPICP (CPDD_MPICP in the environment): no such program"
  fi
  if ! mpicp_prog=$(find_cpdd mpicp "$mpicp_prog"); then
    skipped mpicp "cpdd's mpicp not found (built by configure when Open" \
      "MPI's mpicc is there; or use --mpicp or CPDD_MPICP)"
    return 1
  fi
  if test -n "$mpirun_prog"; then
    fm_p=$(user_prog "$mpirun_prog") || die "$mpirun_prog: no such program"
    mpirun_prog=$fm_p
  elif ! mpirun_prog=$(find_prog mpirun); then
    skipped mpicp "mpirun not found (Debian package openmpi-bin)"
    return 1
  fi
}

# The ranks all run on this machine, where Open MPI's shared memory
# transport is the one to use; left to choose, Open MPI 4.1 first tries
# UCX, made for networks, and that alone adds 0.2 s to its start-up
# here.  Other MPIs choose well enough.
default_transport ()
{
  if "$mpirun_prog" --version 2>/dev/null | grep 'Open MPI' >/dev/null
  then
    echo '--mca pml ob1 --mca btl self,vader'
  fi
}

# Register mpicp on each number of ranks of $ranks_list.  Open MPI's
# mpirun refuses to start programs as root unless told it may, and
# more ranks than CPUs unless told to oversubscribe.
add_mpi_tools ()
{
  find_mpi_progs || return 0
  am_flags=--oversubscribe
  test "$(id -u 2>/dev/null)" = 0 && am_flags="$am_flags --allow-run-as-root"
  $transport_set || transport_flags=$(default_transport)
  test -n "$transport_flags" && am_flags="$am_flags $transport_flags"
  mpi_flags=$am_flags
  for am_n in $ranks_list; do
    add_tool "mpicp-$am_n" mpicp "$mpirun_prog" \
      "$am_flags -np $am_n $(shquote "$mpicp_prog")"
  done
}
