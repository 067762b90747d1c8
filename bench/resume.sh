# shellcheck shell=sh disable=SC2016
# The awk programs here are in single quotes on purpose.
#
# resume.sh -- cpdd-bench resume: a tree with large files copied by
# cpdd's cp -a, killed with SIGKILL at random points, and finished with
# --resume.  Each finished copy must equal the source, attributes
# included, and --stats tells how much the second run copied again
# beside what the first had not yet done.
#
# Copyright (C) 2026 the cpdd authors.
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.  It comes WITHOUT ANY WARRANTY.

cmd_resume ()
{
  runs=10 size=2147483648 cp_prog='' system_cp='' tree=real seed=1
  max_jobs=2 verbose=false timer=auto csv='' fs_kind='' tools_sel=''
  pretouch=0
  parse_args resume "$@"
  dir=${operand:-.}
  case $fs_kind in
    latency*) usage_error "--fs=$fs_kind is for tree and mpi" ;;
  esac
  common_setup
  system_cp=${system_cp:-$(sys_prog cp)} ||
    die "the system's cp was not found; give it with --system-cp"
  cpdd_cp=$(find_cpdd cp "$cp_prog") ||
    die "cpdd's cp not found (use --cp or CPDD_CP)"
  "$cpdd_cp" --help 2>/dev/null | grep -e '--resume' >/dev/null ||
    die "$cpdd_cp has no --resume"
  perl_prog=$(find_prog perl) ||
    die "perl not found: it waits the fractions of a second between kills"
  make_work "$dir"
  if test -n "$fs_kind"; then
    fs_copies=2
    size=$((size + 536870912))
    bench_fs_setup
    size=$((size - 536870912))
  fi
  setup_diff
  resume_source
  resume_full_copy
  resume_kills
  resume_report
  exit $exit_status
}

# The source: the real tree (or --tree=DIR), and beside it three large
# files of incompressible data, a half, a third and a sixth of --size,
# which --jobs copies in ranges.
resume_source ()
{
  src=$work/src
  case $tree in
    real)
      make_real_tree "$src"
      tree_desc="real tree ($real_parts)" ;;
    *)
      test -d "$tree" || die "'$tree' is not a directory"
      mkdir "$src" || die "cannot make $src"
      "$system_cp" -a "$tree/." "$src/" 2>"$work/err" ||
        die "cannot copy $tree: $(first_error "$work/err")"
      tree_desc="tree $tree" ;;
  esac
  rs_half=$((size / 2)) rs_third=$((size / 3))
  make_file "$src/large.1" "$rs_half"
  make_file "$src/large.2" "$rs_third"
  make_file "$src/large.3" "$((size - rs_half - rs_third))"
  tree_desc="$tree_desc and 3 files of $(hsize "$size") in all"
}

# The options of both runs of each copy.
resume_opts () { printf '%s\n' "-a --jobs=$max_jobs"; }

# The value of KEY in the JSON object --stats=json printed in $1; 0 if
# it is not there.
json_field ()
{
  "$AWK" -v k="\"$2\"" '
    {
      i = index($0, k ":")
      if (i) {
        v = substr($0, i + length(k) + 1)
        sub(/^ */, "", v)
        sub(/[,}].*/, "", v)
        printf "%.0f\n", v + 0
        found = 1
        exit
      }
    }
    END { if (!found) print 0 }' "$1"
}

# One copy whole, untimed but for how long it takes: the kills are
# spread over that time.  Sets total_bytes and full_s.
resume_full_copy ()
{
  mkdir "$work/full" || die "cannot make $work/full"
  # shellcheck disable=SC2046
  run_timed "$work/time" "$work/stats" \
    "$(shquote "$cpdd_cp") $(resume_opts) --stats=json $(shquote "$src")"`
    `" $(shquote "$work/full/")"
  read -r full_s _ _ rfc_rc <"$work/time"
  test "$rfc_rc" = 0 ||
    die "cpdd's cp failed on the whole copy: $(first_error "$work/stats")"
  total_bytes=$(json_field "$work/stats" bytes)
  same_tree "$src" "$work/full/src" ||
    die "the whole copy differs from the source: $(sed 1q "$work/diff")"
  rm -rf "$work/full"
  verbose_ "the whole copy: $total_bytes bytes in $full_s s"
}

# The bytes of the regular files under $1 that hold data: each file's
# allocated bytes, at most its size, once for all its links.  Ranges
# not yet copied are holes, so they do not count.
data_bytes ()
{
  find "$1" -type f -exec ls -lnsi {} + 2>/dev/null | "$AWK" '
    NF >= 8 && !seen[$1]++ { a = $2 * 1024; s = $7; t += (a < s ? a : s) }
    END { printf "%.0f\n", t }'
}

# What ls -ln says of every entry of tree $1 that a copy must keep,
# sorted by name: type and permissions, links, owner, group, size (but
# a directory's, which depends on the names it once held) and
# modification time to the nanosecond, and where a symbolic link
# points.  GNU ls: the check is for Linux.
tree_attrs ()
{
  (cd "$1" && find . -exec ls -lnd --time-style=+%s.%N {} + 2>/dev/null) |
    "$AWK" '$1 ~ /^d/ { $5 = "-" } { $1 = $1; print }' | sort
}

# Kill the copy at --runs random points, finish each with --resume,
# and record each in $work/kills.
resume_kills ()
{
  : >"$work/kills"
  rk_k=0
  q_opts=$(resume_opts)
  while test $rk_k -lt "$runs"; do
    rk_k=$((rk_k + 1))
    rk_at=$("$AWK" -v s="$seed" -v k="$rk_k" -v t="$full_s" \
      'BEGIN { srand(s * 1000 + k); printf "%.3f\n", t * (0.05 + 0.9 * rand()) }')
    rk_dst=$work/copy.$rk_k
    mkdir "$rk_dst" || die "cannot make $rk_dst"
    # shellcheck disable=SC2086
    "$cpdd_cp" $q_opts "$src" "$rk_dst/" 2>"$work/err.first" &
    rk_pid=$!
    "$perl_prog" -e 'select (undef, undef, undef, $ARGV[0])' "$rk_at"
    kill -9 $rk_pid 2>/dev/null
    wait $rk_pid
    rk_rc=$?
    rk_done=$(data_bytes "$rk_dst")
    rk_left=$((total_bytes - rk_done))
    test $rk_left -ge 0 || rk_left=0
    # shellcheck disable=SC2086
    if ! "$cpdd_cp" $q_opts --resume --stats=json "$src" "$rk_dst/" \
         2>"$work/stats"; then
      error_ "kill $rk_k: the run with --resume failed:" \
        "$(grep -v '^{' "$work/stats" | sed 1q)"
      rk_same=failed
    elif ! same_tree "$src" "$rk_dst/src"; then
      error_ "kill $rk_k: the finished copy differs: $(sed 1q "$work/diff")"
      rk_same=differs
    else
      tree_attrs "$src" >"$work/attrs.src"
      tree_attrs "$rk_dst/src" >"$work/attrs.dst"
      if cmp -s "$work/attrs.src" "$work/attrs.dst"; then
        rk_same=yes
      else
        error_ "kill $rk_k: attributes differ:" \
          "$(diff "$work/attrs.src" "$work/attrs.dst" | sed -n 2p)"
        rk_same=attributes
      fi
    fi
    rk_copied=$(json_field "$work/stats" bytes)
    rk_skipped=$(json_field "$work/stats" bytes_skipped)
    printf '%s %s %s %s %s %s %s %s\n' "$rk_k" "$rk_at" \
      "$([ "$rk_rc" = 137 ] && echo killed || echo finished)" "$rk_done" \
      "$rk_left" "$rk_copied" "$rk_skipped" "$rk_same" >>"$work/kills"
    verbose_ "kill $rk_k at ${rk_at}s: $rk_done bytes done," \
      "$rk_copied copied and $rk_skipped skipped by --resume: $rk_same"
    rm -rf "$rk_dst"
  done
}

# One line per kill, then the worst ratio of bytes copied again to
# bytes left.
resume_report ()
{
  printf '%s resume: %s; cp %s, killed at %s random points, then --resume\n' \
    "$me" "$tree_desc" "$(resume_opts)" "$runs"
  printf 'the whole copy: %s bytes in %s s\n' "$total_bytes" "$full_s"
  if test -n "$csv"; then
    "$AWK" 'BEGIN { print "kill,at_s,first_run,done_bytes,left_bytes," \
                          "copied_bytes,skipped_bytes,ratio,same" }
      { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $5, $6, $7,
          ($5 > 0 ? sprintf("%.3f", $6 / $5) : ""), $8 }' \
      "$work/kills" >"$csv" || die "cannot write $csv"
  fi
  "$AWK" '
    BEGIN {
      printf "%4s %7s %9s %12s %12s %12s %12s %6s  %s\n", "kill", "at_s",
        "first", "done", "left", "copied", "skipped", "ratio", "same"
    }
    {
      r = ($5 > 0 ? sprintf("%.3f", $6 / $5) : "-")
      printf "%4s %7s %9s %12s %12s %12s %12s %6s  %s\n", $1, $2, $3, $4,
        $5, $6, $7, r, $8
      if ($5 > 0 && $6 / $5 > worst) worst = $6 / $5
      if ($8 != "yes") bad++
    }
    END {
      printf "ratio: bytes the --resume run copied / bytes the killed run had not done;"
      printf " worst %.3f\n", worst
      printf "copies equal to the source, attributes included: %d of %d\n", NR - bad, NR
    }' "$work/kills"
}
