# shellcheck shell=sh disable=SC2016
# The awk programs here are in single quotes on purpose.
#
# compare.sh -- cpdd-bench compare: one file copied by every tool in
# turn.  verify runs the same code with its own tools (verify.sh).
#
# Copyright (C) 2026 the cpdd authors.
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.  It comes WITHOUT ANY WARRANTY.

# Print the shell command with which tool $1 copies file $2 into
# directory $3 (under $2's base name).
tool_cmd ()
{
  tc_kind='' tc_prog='' tc_opts=''
  eval "tc_kind=\$tool_kind_$1 tc_prog=\$tool_prog_$1 tc_opts=\$tool_opts_$1"
  tc_base=${2##*/}
  tc_dir=${2%/*}
  test -n "$tc_dir" || tc_dir=/
  tc_q=$(shquote "$tc_prog")
  tc_src=$(shquote "$2")
  tc_dst=$(shquote "$3/$tc_base")
  case $tc_kind in
    cp) printf '%s %s%s %s\n' "$tc_q" "$tc_opts" "${tc_opts:+ }$tc_src" \
          "$tc_dst" ;;
    cat) printf '%s %s > %s\n' "$tc_q" "$tc_src" "$tc_dst" ;;
    dd) printf '%s if=%s of=%s bs=8388608\n' "$tc_q" "$tc_src" "$tc_dst" ;;
    rsync) printf '%s %s %s\n' "$tc_q" "$tc_src" "$tc_dst" ;;
    cp-sum) printf '%s %s %s && %s %s %s >/dev/null\n' "$tc_q" "$tc_src" \
              "$tc_dst" "$(shquote "$tc_opts")" "$tc_src" "$tc_dst" ;;
    sum) printf '%s %s >/dev/null\n' "$tc_q" "$tc_src" ;;
    cpio) printf "cd %s && printf '%%s\\\\n' %s | %s -p %s\n" \
            "$(shquote "$tc_dir")" "$(shquote "$tc_base")" "$tc_q" \
            "$(shquote "$3")" ;;
  esac
}

# A fresh, empty output directory: the previous copy is deleted here,
# outside the timed region.
fresh_out ()
{
  rm -rf "$1"
  mkdir "$1" || die "cannot make $1"
}

# Try every tool on a small file.  One that fails is skipped with a
# note (cpdd's cp may not know an option yet); one that succeeds but
# copies wrongly is an error.
probe_tools ()
{
  mkdir "$work/probe" || die "cannot make $work/probe"
  pt_src=$work/probe/$src_base
  make_file "$pt_src" 70001
  pt_i=0
  while test $pt_i -lt $ntools; do
    pt_i=$((pt_i + 1))
    fresh_out "$work/probe-out"
    pt_cmd=$(tool_cmd $pt_i "$pt_src" "$work/probe-out")
    pt_label='' pt_kind=''
    eval "pt_label=\$tool_label_$pt_i pt_kind=\$tool_kind_$pt_i"
    if /bin/sh -c "$pt_cmd" </dev/null >/dev/null 2>"$work/err"; then
      if test "$pt_kind" = sum \
         || cmp -s "$pt_src" "$work/probe-out/$src_base"; then
        continue
      fi
      error_ "$pt_label: its copy of a small test file differs from the source"
    else
      skipped "$pt_label" "failed on a small file: $(first_error "$work/err")"
    fi
    eval "tool_state_$pt_i=skipped"
  done
  rm -rf "$work/probe" "$work/probe-out"
}

# Find a system-call tracer that works here.  Sets tracer.
setup_tracer ()
{
  tracer=
  if st_p=$(find_prog strace); then
    if "$st_p" -c -f -o "$work/trace" /bin/sh -c : >/dev/null 2>&1 &&
       test -n "$(parse_trace strace "$work/trace")"; then
      tracer=strace
    else
      note "strace does not work here; no syscall counts"
    fi
  elif st_p=$(find_prog truss); then
    if "$st_p" -c -f -o "$work/trace" /bin/sh -c : >/dev/null 2>&1 &&
       test -n "$(parse_trace truss "$work/trace")"; then
      tracer=truss
    else
      note "truss does not work here; no syscall counts"
    fi
  else
    note "neither strace nor truss found; no syscall counts"
  fi
  tracer_prog=$st_p
}

# Print the total system calls of trace summary $2 written by tracer $1.
parse_trace ()
{
  case $1 in
    strace) "$AWK" '$NF == "total" && $4 ~ /^[0-9]+$/ { n = $4 }
                    END { if (n != "") print n }' "$2" ;;
    truss) "$AWK" '$1 == "sys" && $2 == "totals:" { n = $4 }
                   END { if (n != "") print n }' "$2" ;;
  esac
}

# The tools of compare, the system's first.
compare_tools ()
{
  test -n "$system_cp" || system_cp=$(sys_prog cp) || system_cp=
  if test -n "$system_cp"; then
    add_tool cp cp "$(abspath "$system_cp")" ''
  elif selected cp; then
    skipped cp "the system's cp was not found"
  fi
  if p=$(sys_prog cat); then add_tool cat cat "$p" ''
  elif selected cat; then skipped cat "not found"
  fi
  add_tool dd-8M dd "$sys_dd" ''
  for t in rsync cpio; do
    if p=$(find_prog $t); then add_tool $t $t "$p" ''
    elif selected $t; then skipped $t "not found"
    fi
  done
  if cpdd_cp=$(find_cpdd cp "$cp_prog"); then
    add_tool cpdd-cp cp "$cpdd_cp" ''
    # Where files can be cloned, cp clones by default whatever the
    # method: the method rows then copy the data, as they are meant to
    # show, and the reflink rows clone.
    nc=
    if can_clone "$cpdd_cp"; then
      test -z "$system_cp" \
        || add_tool cp-reflink cp "$(abspath "$system_cp")" --reflink=always
      add_tool cpdd-reflink cp "$cpdd_cp" --reflink=always
      nc='--reflink=never '
    fi
    add_tool cpdd-direct cp "$cpdd_cp" "$nc--direct"
    add_tool cpdd-uncached cp "$cpdd_cp" "$nc--uncached"
    for m in read mmap offload auto; do
      add_tool "cpdd-$m" cp "$cpdd_cp" "$nc--io-method=$m"
      add_tool "cpdd-$m-direct" cp "$cpdd_cp" "$nc--io-method=$m --direct"
      add_tool "cpdd-$m-8M" cp "$cpdd_cp" \
        "$nc--io-method=$m --buffer-size=8M"
    done
    # A file copied in ranges at once: worth it only if it buys time
    # without burning CPU, whatever the count of CPUs.
    max_jobs=$(($(cpu_count) * 2))
    for cc_n in $(peer_counts); do
      add_tool "cpdd-jobs-$cc_n" cp "$cpdd_cp" "$nc--jobs=$cc_n"
    done
    add_with_tools "$cpdd_cp"
  elif selected 'cpdd-*'; then
    skipped cpdd-cp "cpdd's cp not found (use --cp or CPDD_CP)"
  fi
  if cpdd_dd=$(find_cpdd dd "$dd_prog"); then
    add_tool cpdd-dd-8M dd "$cpdd_dd" ''
  elif selected cpdd-dd-8M; then
    skipped cpdd-dd-8M "cpdd's dd not found (use --dd or CPDD_DD)"
  fi
}

cmd_compare ()
{
  cold=false runs=3 size=1073741824 file='' csv='' raw='' cp_prog=''
  dd_prog='' system_cp='' tools_sel='' with_list='' pretouch='' timer=auto syscalls=true
  verify=true verbose=false st='' label='' cmd='' timed='' c_src='' c_dst=''
  fs_kind='' kind=''
  bench=${bench:-compare}
  parse_args compare "$@"
  dir=${operand:-.}
  case $fs_kind in
    latency*) usage_error "--fs=$fs_kind is for tree and mpi" ;;
  esac
  common_setup
  if test -n "$raw"; then
    : >"$raw" || die "cannot write $raw"
  fi

  make_work "$dir"
  test -z "$fs_kind" || bench_fs_setup
  if test -n "$file"; then
    use_source_file "$file"
  else
    check_space "$work" "$("$AWK" -v s="$size" \
      'BEGIN { printf "%.0f\n", 2 * s + 1048576 }')"
    src=$work/cpdd-bench.dat
    make_file "$src" "$size"
  fi
  src_base=${src##*/}
  out=$work/out
  : >"$work/skipped"

  if test "$bench" = verify; then
    verify_tools
  else
    compare_tools
  fi
  test $ntools -gt 0 || die "no tools to run"
  probe_tools

  if $cold; then
    mode=cold
    setup_cold
  else
    mode=hot
  fi
  setup_fincore
  # shellcheck disable=SC2034
  q_sync=$(shquote "$sync_prog")

  # The tools that survived, in a compact list for the round-robin,
  # with the command each runs and the command timed (which in cold
  # mode includes the final sync).
  nrun=0
  i=0
  : >"$work/tools"
  while test $i -lt $ntools; do
    i=$((i + 1))
    eval "st=\$tool_state_$i label=\$tool_label_$i"
    test "$st" = ok || continue
    nrun=$((nrun + 1))
    eval "run_$nrun=$i"
    eval "tool_run_$i=\$(tool_cmd $i \"\$src\" \"\$out\")"
    if $cold; then
      eval "tool_timed_$i=\"{ \$tool_run_$i; } && \$q_sync\""
    else
      eval "tool_timed_$i=\$tool_run_$i"
    fi
  done
  test $nrun -gt 0 || die "no tool can run"

  test -n "$pretouch" || pretouch=$(default_pretouch "$size")
  setup_pretouch "$pretouch"

  # The timed runs, round-robin; each round starts one tool later.
  : >"$work/raw"
  round=0
  while test $round -lt "$runs"; do
    round=$((round + 1))
    pos=0
    while test $pos -lt $nrun; do
      eval "i=\$run_$(( (pos + round - 1) % nrun + 1 ))"
      pos=$((pos + 1))
      eval "st=\$tool_state_$i label=\$tool_label_$i cmd=\$tool_timed_$i" \
        "kind=\$tool_kind_$i"
      test "$st" = ok || continue
      fresh_out "$out"
      pretouch_memory
      if $cold; then
        drop_caches
      else
        # Flush what earlier runs left dirty, so that no write-back
        # runs during the timed region, and warm the source.
        "$sync_prog"
        warm_source
      fi
      run_timed "$work/time" "$work/err" "$cmd"
      read -r w u s rc <"$work/time"
      if test "$rc" != 0; then
        error_ "$label failed (exit status $rc) in run $round:" \
          "$(first_error "$work/err")"
        eval "tool_state_$i=failed"
        continue
      fi
      # What the run left in the page cache, before cmp reads both
      # files into it and before the next run deletes the copy.
      c_src=$(cached_bytes "$src")
      c_dst=$(cached_bytes "$out/$src_base")
      if test $round = 1 && $verify && test "$kind" != sum \
         && ! cmp -s "$src" "$out/$src_base"; then
        error_ "$label: its copy differs from the source"
        eval "tool_state_$i=failed"
        continue
      fi
      verbose_ "run $round, $label: $w s wall"
      printf '%s %s %s %s %s %s %s %s\n' $round $pos "$label" "$w" "$u" \
        "$s" "$c_src" "$c_dst" >>"$work/raw"
    done
  done

  # System call counts, from a separate, untimed run.
  $syscalls && setup_tracer
  i=0
  while test $i -lt $ntools; do
    i=$((i + 1))
    eval "st=\$tool_state_$i label=\$tool_label_$i cmd=\$tool_run_$i" \
      "timed=\$tool_timed_$i"
    test "$st" = ok || continue
    n=
    if test -n "${tracer-}"; then
      fresh_out "$out"
      if "$tracer_prog" -c -f -o "$work/trace" /bin/sh -c "$cmd" \
           </dev/null >/dev/null 2>&1; then
        n=$(parse_trace "$tracer" "$work/trace")
      fi
    fi
    printf '%s\t%s\t%s\n' "$label" "$n" "$timed" >>"$work/tools"
  done
  rm -rf "$out"

  compare_report
  test "$bench" != verify || verify_ratios
  exit $exit_status
}

# Summarize $work/raw into CSV, then format the CSV as a table.
compare_report ()
{
  # The CSV: one line per tool, in the order tools were listed.
  "$AWK" -v mode=$mode -v bytes="$size" "$awk_lib"'
    BEGIN { FS = "\t" }
    FILENAME == ARGV[1] {
      n++; label[n] = $1; sysc[$1] = $2; cmd[$1] = $3; next
    }
    {
      split($0, f, " ")
      t = f[3]; k = ++runs[t]
      w[t, k] = f[4] + 0; u[t, k] = f[5] + 0; s[t, k] = f[6] + 0
      h[t, k] = (f[4] > 0) ? (f[5] + f[6]) / f[4] : 0
      # The larger page-cache footprint of source and copy, in MiB.
      if (f[7] ~ /^[0-9]+$/ && f[8] ~ /^[0-9]+$/) {
        kc = ++nc[t]
        c[t, kc] = ((f[7] + 0 > f[8] + 0) ? f[7] : f[8]) / 1048576
      }
    }
    END {
      print "mode,tool,runs,bytes,wall_s,wall_min_s,wall_max_s,user_s,sys_s," \
            "hog,mib_s,ratio_cp,syscalls,cached_mib,command"
      for (i = 1; i <= n; i++) {
        t = label[i]; k = runs[t]
        if (!k) continue
        for (j = 1; j <= k; j++) { a[j] = w[t, j] }
        mw[t] = median(a, k); lo = a[1]; hi = a[k]
        for (j = 1; j <= k; j++) a[j] = u[t, j]
        mu = median(a, k)
        for (j = 1; j <= k; j++) a[j] = s[t, j]
        ms = median(a, k)
        for (j = 1; j <= k; j++) a[j] = h[t, j]
        mh = median(a, k)
        mc[t] = ""
        if (nc[t]) {
          for (j = 1; j <= nc[t]; j++) a[j] = c[t, j]
          mc[t] = sprintf("%.1f", median(a, nc[t]))
        }
        line[t] = sprintf("%s,%s,%d,%.0f,%.4f,%.4f,%.4f,%.2f,%.2f,%.2f", \
                          mode, t, k, bytes, mw[t], lo, hi, mu, ms, mh)
      }
      for (i = 1; i <= n; i++) {
        t = label[i]
        if (!(t in line)) continue
        mib = (mw[t] > 0) ? sprintf("%.1f", bytes / 1048576 / mw[t]) : ""
        ratio = (("cp" in mw) && mw["cp"] > 0) ? \
                sprintf("%.3f", mw[t] / mw["cp"]) : ""
        print line[t] "," mib "," ratio "," sysc[t] "," mc[t] "," \
              csvq(cmd[t])
      }
    }' "$work/tools" "$work/raw" >"$work/summary.csv" ||
    die "cannot summarize the results"

  if test -n "$raw"; then
    "$AWK" -v mode=$mode '
      function mib(b) {
        return (b ~ /^[0-9]+$/) ? sprintf("%.1f", b / 1048576) : ""
      }
      BEGIN {
        print "mode,round,position,tool,wall_s,user_s,sys_s," \
              "src_cached_mib,copy_cached_mib,cached_mib"
      }
      {
        m = "-"
        if ($7 ~ /^[0-9]+$/ && $8 ~ /^[0-9]+$/)
          m = ($7 + 0 > $8 + 0) ? $7 : $8
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", mode, $1, $2, $3, $4, $5,
          $6, mib($7), mib($8), mib(m)
      }
    ' "$work/raw" >"$raw" || die "cannot write $raw"
  fi
  if test -n "$csv"; then
    cat "$work/summary.csv" >"$csv" || die "cannot write $csv"
  fi

  if $cold; then
    how=$(cold_label ', final sync timed')
  else
    how="hot: source re-read before each run"
  fi
  printf '%s %s: %s bytes (%s), %s run(s), %s\n' "$me" "$bench" "$size" \
    "$(hsize "$size")" "$runs" "$how"
  printf 'timer: %s; memory pre-touched: %s; medians, wall min-max\n' \
    "$timer" "$(hsize "$pretouch")"
  if test -n "$fincore_prog"; then
    echo "cached: MiB of the source or the copy (the larger) in the page" \
      "cache after each run"
  else
    echo "cached: not measured (no working fincore)"
  fi
  "$AWK" -F, '
    NR == 1 {
      printf "%-20s %8s %8s %8s %7s %7s %5s %8s %8s %9s %7s\n", "tool",
        "wall_s", "wall_min", "wall_max", "user_s", "sys_s", "hog", "mib_s",
        "ratio_cp", "syscalls", "cached"
      next
    }
    {
      printf "%-20s %8.3f %8.3f %8.3f %7.2f %7.2f %5.2f %8s %8s %9s %7s\n",
        $2, $5, $6, $7, $8, $9, $10,
        ($11 == "" ? "-" : sprintf("%.0f", $11)),
        ($12 == "" ? "-" : sprintf("%.2f", $12)),
        ($13 == "" ? "-" : $13), ($14 == "" ? "-" : $14)
    }' "$work/summary.csv"
  if test -s "$work/skipped"; then
    sed 's/^/not run: /' "$work/skipped"
  fi
}
