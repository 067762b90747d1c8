# shellcheck shell=sh disable=SC2016
# The awk programs here are in single quotes on purpose.
#
# verify.sh -- cpdd-bench verify: compare's run (compare.sh, read
# first) with the tools that check a copy, and the ratios between them.
#
# Copyright (C) 2026 the cpdd authors.
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.  It comes WITHOUT ANY WARRANTY.

# The tools of verify: the system's cp, alone and followed by sha256sum
# of both sides, which is what users do to check a copy; sha256sum of
# the source alone; cpdd's cp, alone, with --fsync, with --verify and
# with --print-hash.
verify_tools ()
{
  test -n "$system_cp" || system_cp=$(sys_prog cp) || system_cp=
  sum=$(find_prog sha256sum) || sum=
  if test -n "$system_cp"; then
    add_tool cp cp "$(abspath "$system_cp")" ''
    if test -n "$sum"; then
      add_tool cp+sha256sum cp-sum "$(abspath "$system_cp")" "$sum"
    elif selected cp+sha256sum; then
      skipped cp+sha256sum "sha256sum not found"
    fi
  elif selected cp; then
    skipped cp "the system's cp was not found"
  fi
  if test -n "$sum"; then add_tool sha256sum sum "$sum" ''
  elif selected sha256sum; then skipped sha256sum "not found"
  fi
  if cpdd_cp=$(find_cpdd cp "$cp_prog"); then
    add_tool cpdd-cp cp "$cpdd_cp" ''
    add_tool cpdd-fsync cp "$cpdd_cp" --fsync
    for a in xxh128 sha256; do
      if cp_hashes "$cpdd_cp" $a; then
        add_tool cpdd-verify-$a cp "$cpdd_cp" --verify=$a
        add_tool cpdd-print-$a cp "$cpdd_cp" --print-hash=$a
      elif selected "cpdd-verify-$a" || selected "cpdd-print-$a"; then
        skipped "cpdd-verify-$a" "this cp was built without $a"
      fi
    done
  elif selected 'cpdd-*'; then
    skipped cpdd-cp "cpdd's cp not found (use --cp or CPDD_CP)"
  fi
}

# verify: compare's run with the tools of verify_tools.
cmd_verify ()
{
  bench=verify
  cmd_compare "$@"
}

# The ratios that say what checking a copy costs with cpdd, from the
# summary of a verify run.
verify_ratios ()
{
  "$AWK" -F, '
    NR > 1 { w[$2] = $5 }
    function ratio(a, b, what) {
      if ((a in w) && (b in w) && w[b] > 0)
        printf "%-46s %6.2f\n", what ":", w[a] / w[b]
    }
    END {
      ratio("cpdd-verify-xxh128", "cp+sha256sum",
            "cp --verify=xxh128 / (cp, sha256sum of both)")
      ratio("cpdd-verify-sha256", "cp+sha256sum",
            "cp --verify=sha256 / (cp, sha256sum of both)")
      ratio("cpdd-print-sha256", "sha256sum",
            "cp --print-hash=sha256 / sha256sum of source")
      ratio("cpdd-print-xxh128", "cp", "cp --print-hash=xxh128 / cp")
      ratio("cpdd-print-xxh128", "cpdd-cp",
            "cp --print-hash=xxh128 / cpdd cp")
      ratio("cpdd-fsync", "cpdd-cp", "cp --fsync / cpdd cp")
    }' "$work/summary.csv"
}
