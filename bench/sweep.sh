# shellcheck shell=sh disable=SC2016
# The awk programs here are in single quotes on purpose.
#
# sweep.sh -- cpdd-bench sweep: the throughput of a range of buffer
# sizes.
#
# Copyright (C) 2026 the cpdd authors.
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.  It comes WITHOUT ANY WARRANTY.

# Time buffer size $1 in run $2; append "RUN BYTES SIZE SECONDS" to
# $work/results.
sweep_one ()
{
  case $sweep_mode in
    read-only)
      so_cmd="$q_prog if=$q_src of=/dev/null bs=$1" ;;
    copy)
      rm -f "$work/out/$src_base"
      so_cmd="$q_prog --buffer-size=$1 $q_src $q_dst" ;;
  esac
  "$sync_prog"
  pretouch_memory
  if $cold; then
    drop_caches
    test $sweep_mode = copy && so_cmd="$so_cmd && $q_sync"
  else
    warm_source
  fi
  run_timed "$work/time" "$work/err" "$so_cmd"
  read -r so_w _ _ so_rc <"$work/time"
  test "$so_rc" = 0 ||
    die "'$so_cmd' failed (exit status $so_rc): $(first_error "$work/err")"
  if test $sweep_mode = copy && test "$2" = 1 && $verify; then
    cmp -s "$src" "$work/out/$src_base" ||
      die "the copy with --buffer-size=$1 differs from the source"
  fi
  # dd's own figure, when it gives one (GNU: "..., 0.03 s, ...";
  # BSD: "... transferred in 0.03 secs"), leaves out process start-up.
  so_sec=$("$AWK" '
    / copied, / { for (i = 1; i < NF; i++) if ($i == "copied,") t = $(i + 1) }
    / transferred in / { for (i = 1; i < NF; i++) if ($i == "in") t = $(i + 1) }
    END { if (t ~ /^[0-9.]+([eE][-+]?[0-9]+)?$/ && t + 0 > 0) print t + 0 }
  ' "$work/err")
  test -n "$so_sec" || so_sec=$so_w
  verbose_ "run $2, buffer size $1: $so_sec s"
  printf '%s %s %s %s\n' "$2" "$size" "$1" "$so_sec" >>"$work/results"
}

# Run every size listed in file $1 once per run, ascending in odd runs
# and descending in even ones.
sweep_sizes ()
{
  sw_run=0
  while test $sw_run -lt "$runs"; do
    sw_run=$((sw_run + 1))
    if test $((sw_run % 2)) = 1; then
      sw_list=$(sort -n "$1")
    else
      sw_list=$(sort -n -r "$1")
    fi
    for sw_size in $sw_list; do
      sweep_one "$sw_size" $sw_run
    done
  done
}

cmd_sweep ()
{
  sweep_mode=read-only from=512 to=67108864 steps='' fine=2 runs=3 cold=false
  size=268435456 dir=. csv='' plot='' cp_prog='' dd_prog='' pretouch=''
  timer=auto verify=true verbose=false file='' system_cp=''
  parse_args sweep "$@"
  "$AWK" -v a="$from" -v b="$to" 'BEGIN { exit !(a < b) }' ||
    usage_error "--from must be smaller than --to"
  if test -z "$steps"; then
    steps=$("$AWK" -v a="$from" -v b="$to" \
      'BEGIN { printf "%d\n", int(log(b / a) / log(2) + 1e-9) + 1 }')
  fi
  case $plot in
    '') ;;
    *.svg | *.SVG) ;;
    *) usage_error "--plot needs a file name ending in .svg" ;;
  esac
  common_setup

  make_work "$dir"
  if test -n "$operand"; then
    use_source_file "$operand"
  else
    check_space "$work" "$("$AWK" -v s="$size" \
      'BEGIN { printf "%.0f\n", 2 * s + 1048576 }')"
    src=$work/sweep.dat
    make_file "$src" "$size"
  fi
  src_base=${src##*/}
  q_src=$(shquote "$src")
  q_dst=$(shquote "$work/out/$src_base")

  case $sweep_mode in
    read-only)
      if prog=$(find_cpdd dd "$dd_prog"); then :; else
        prog=$sys_dd
        note "cpdd's dd not found; sweeping the system's dd ($prog)"
      fi
      what="read-only: dd if=FILE of=/dev/null bs=SIZE" ;;
    copy)
      prog=$(find_cpdd cp "$cp_prog") ||
        die "cpdd's cp not found: give it with --cp"
      mkdir "$work/out" || die "cannot make $work/out"
      "$prog" --buffer-size=4096 "$src" "$work/out/probe" \
        </dev/null >/dev/null 2>"$work/err" ||
        die "$prog does not take --buffer-size: $(first_error "$work/err")"
      rm -f "$work/out/probe"
      what="copy: cp --buffer-size=SIZE FILE COPY" ;;
  esac
  q_prog=$(shquote "$prog")
  q_sync=$(shquote "$sync_prog")
  if $cold; then
    setup_cold
    how=$(cold_label ' before each measurement')
  else
    how="hot: source read before each measurement"
  fi
  test -n "$pretouch" || pretouch=$(default_pretouch "$size")
  setup_pretouch "$pretouch"

  # Log-spaced sizes, rounded to multiples of 512 from 4K up and of 4K
  # from 64K up; powers of two stay exact.
  "$AWK" -v a="$from" -v b="$to" -v n="$steps" "$awk_lib"'BEGIN {
    for (i = 0; i < n; i++) {
      v = roundbuf(a * exp(log(b / a) * i / (n - 1)))
      if (!(v in seen)) { seen[v] = 1; printf "%.0f\n", v }
    }
  }' >"$work/coarse"
  : >"$work/results"
  sweep_sizes "$work/coarse"

  # A finer grid around the best coarse size.
  if test "$fine" -gt 0; then
    "$AWK" -v fine="$fine" "$awk_lib"'
      FILENAME == ARGV[1] { c[++nc] = $1 + 0; next }
      $4 > 0 { k = ++cnt[$3]; v[$3, k] = $2 / $4 }
      END {
        best = 0
        for (i = 1; i <= nc; i++) {
          if (!cnt[c[i]]) continue
          for (j = 1; j <= cnt[c[i]]; j++) a[j] = v[c[i], j]
          m = median(a, cnt[c[i]])
          if (m > best) { best = m; bi = i }
        }
        if (!bi) exit
        for (i = 1; i <= nc; i++) have[c[i]] = 1
        for (side = -1; side <= 1; side += 2) {
          nb = bi + side
          if (nb < 1 || nb > nc) continue
          for (j = 1; j <= fine; j++) {
            x = roundbuf(c[bi] * exp(log(c[nb] / c[bi]) * j / (fine + 1)))
            if (!(x in have)) { have[x] = 1; printf "%.0f\n", x }
          }
        }
      }' "$work/coarse" "$work/results" >"$work/fine"
    if test -s "$work/fine"; then
      sweep_sizes "$work/fine"
    fi
  fi

  # Results: the CSV, a table of medians, the best size.
  # A time of 0 (below the timer's resolution) gives an empty mb_per_s.
  "$AWK" '
    BEGIN { print "run,bytes,buffer_size,seconds,mb_per_s" }
    { printf "%s,%s,%s,%.6f,%s\n", $1, $2, $3, $4,
        ($4 > 0 ? sprintf("%.2f", $2 / $4 / 1e6) : "") }
  ' "$work/results" >"$work/sweep.csv"
  # Under 100 ticks of the timer, the figures are rough.
  case $timer in
    time) short_lim=1 ;;
    *) short_lim=0.001 ;;
  esac
  short=$("$AWK" -v lim=$short_lim '$4 < lim { n++ } END { print n + 0 }' \
    "$work/results")
  if test "$short" -gt 0; then
    note "$short measurement(s) took under $short_lim s, too short for" \
      "the timer to be precise: use a bigger file"
  fi
  if test -n "$csv"; then
    cat "$work/sweep.csv" >"$csv" || die "cannot write $csv"
  fi
  printf '%s sweep: %s\n' "$me" "$what"
  printf '%s bytes (%s), %s run(s), %s\n' "$size" "$(hsize "$size")" \
    "$runs" "$how"
  printf 'timer: %s, memory pre-touched: %s\n' "$timer" "$(hsize "$pretouch")"
  CB_MEDIANS=$work/medians CB_BEST=$work/best "$AWK" "$awk_lib"'
    $4 > 0 { k = ++cnt[$3]; v[$3, k] = $2 / $4 / 1e6; sz[$3] = 1 }
    END {
      n = 0
      for (s in sz) b[++n] = s + 0
      sortn(b, n)
      printf "%12s %8s %4s %10s %10s %10s\n", "buffer_size", "size", "runs",
        "mb_per_s", "min", "max"
      best = 0; bs = 0
      for (i = 1; i <= n; i++) {
        s = b[i]; k = cnt[s]
        for (j = 1; j <= k; j++) a[j] = v[s, j]
        m = median(a, k)
        printf "%12.0f %8s %4d %10.1f %10.1f %10.1f\n", s, hsize(s), k, m,
          a[1], a[k]
        if (m > best) { best = m; bs = s }
        print s, m > ENVIRON["CB_MEDIANS"]
      }
      if (best > 0)
        printf "best buffer size: %.0f (%s), median %.1f MB/s\n", bs,
          hsize(bs), best
      else
        print "best buffer size: none (no measurement took measurable time)"
      print bs > ENVIRON["CB_BEST"]
    }' "$work/results"

  if test -n "$plot"; then
    sweep_plot
  fi
  exit $exit_status
}

sweep_plot ()
{
  if ! gnuplot=$(find_prog gnuplot); then
    note "gnuplot not found (Debian package gnuplot-nox); no plot drawn"
    return 0
  fi
  # One data block per run, then the medians.
  "$AWK" -v runs="$runs" '
    FILENAME == ARGV[1] { m[++nm] = $0; next }
    $4 > 0 { line[$1] = line[$1] $3 " " ($2 / $4 / 1e6) "\n" }
    END {
      for (r = 1; r <= runs; r++) printf "%s\n\n", line[r]
      for (i = 1; i <= nm; i++) print m[i]
    }' "$work/medians" "$work/results" >"$work/plot.dat"
  best=$(cat "$work/best")
  {
    # An SVG is transparent unless told: white, to read on a dark viewer.
    printf 'set terminal svg size 900,560 dynamic noenhanced font "sans,12"'
    printf " background rgb 'white'\n"
    printf 'set output %s\n' "$(gp_quote "$plot")"
    printf 'set title %s\n' "$(gp_quote "$me sweep, $what; \
$(hsize "$size") file, $runs runs; best $(hsize "$best")")"
    printf 'set logscale x 2\n'
    printf 'set xlabel "buffer size (bytes, log scale)"\n'
    printf 'set ylabel "MB/s (1 MB = 1000000 bytes)"\n'
    printf 'set grid\n'
    printf 'set key outside right top\n'
    printf 'set yrange [0:*]\n'
    # Tick labels at powers of two, at most about a dozen.
    "$AWK" -v a="$from" -v b="$to" "$awk_lib"' BEGIN {
      p = 1; while (p * 2 <= a) p *= 2
      n = 0; for (q = p; q / 2 < b; q *= 2) n++
      step = int((n + 11) / 12); if (step < 1) step = 1
      s = ""; i = 0; dq = sprintf("%c", 34)
      for (q = p; q / 2 < b; q *= 2)
        if (i++ % step == 0)
          s = s (s == "" ? "" : ", ") dq hsize(q) dq " " sprintf("%.0f", q)
      printf "set xtics (%s)\n", s }' </dev/null
    dat=$(gp_quote "$work/plot.dat")
    printf 'plot '
    r=0
    while test $r -lt "$runs"; do
      printf "%s index %d using 1:2 with points pt 7 ps 0.8 title 'run %d', " \
        "$dat" $r $((r + 1))
      r=$((r + 1))
    done
    printf "%s index %d using 1:2 with lines lc rgb 'black' title 'median'\n" \
      "$dat" "$runs"
  } >"$work/plot.gp"
  if "$gnuplot" "$work/plot.gp" 2>"$work/err"; then
    printf 'plot: %s\n' "$plot"
  else
    error_ "gnuplot failed: $(first_error "$work/err")"
  fi
}
