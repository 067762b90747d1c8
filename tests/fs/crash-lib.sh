# crash-lib.sh -- crash sweeps on the crash-simulating file system
# (tests/shim/plainfuse --journal; the model is tests/fs/CRASH-MODEL).
# Sourced after init.sh, diff-helpers.sh and fs-helpers.sh:
#
#   crash_mount_                   mount it on ./mnt over ./mnt.back as
#                                  that directory is now (all durable),
#                                  or skip the test saying why
#   (cd mnt && ...)                the workload
#   crash_mark_                    crash_at_: the crash point after what
#                                  ran so far (just before the next call)
#   crash_unmount_                 unmount; crash_last_: the last call's
#                                  number, crash_last_ + 1 the point
#                                  after everything
#   crash_sweep_ CHECK FIRST LAST [COUNT]
#                                  for every crash point from FIRST to
#                                  LAST, or COUNT of them chosen at
#                                  random (FIRST and LAST always among
#                                  them), and each variant in
#                                  $crash_variants_ (default: lost
#                                  eager; also kill): make the state the crash
#                                  leaves in $crash_state_ (on a
#                                  tmpfs where one can be mounted, to
#                                  spare the disk) and run
#                                  CHECK $crash_state_ N VARIANT, whose
#                                  failure is a violation
#   crash_summary_                 print the count of crash points (and
#                                  states) and of violations
#
# The random choice is seeded by $CRASH_SEED, printed, so that a run
# can be repeated; a violation's state is kept (the first few) with the
# command that makes it again.  Run with KEEP=yes to keep them after
# the test.

crash_points_=0
crash_states_=0
crash_violations_=0
crash_variants_='lost eager'
crash_seed_=${CRASH_SEED-$$}
crash_state_=crash.state

crash_mount_ ()
{
  require_root_
  cm_fuse_=${abs_top_builddir-$PWD/..}/tests/shim/plainfuse
  test -x "$cm_fuse_" \
    || skip_ "tests/shim/plainfuse not built (no libfuse3 development files)"
  test -c /dev/fuse || skip_ "no /dev/fuse"
  perl -e 'require "syscall.ph"' 2>/dev/null \
    || skip_ "no perl with syscall.ph (utimensat, to set times exactly)"
  crash_tool_="$abs_srcdir/tests/fs/crash-state.pl"
  mkdir -p mnt mnt.back && rm -rf crash.journal && mkdir crash.journal \
    || framework_failure_
  "$cm_fuse_" --journal="$PWD/crash.journal" "$PWD/mnt.back" "$PWD/mnt" \
      -o default_permissions > fs.err 2>&1 \
    || skip_ "cannot mount a FUSE file system: $(head -n 1 fs.err)"
  fs_mounts_="$PWD/mnt $fs_mounts_"
  test $crash_state_ != crash.state \
    || { make_fs_ tmpfs "$PWD/crash.tmp" 2>/dev/null \
           && crash_state_=crash.tmp/state; }
}

crash_last_number_ ()
{
  tail -n 1 crash.journal/log | cut -f 1
}

crash_mark_ ()
{
  crash_at_=$(($(crash_last_number_) + 1))
}

crash_unmount_ ()
{
  umount "$PWD/mnt" || framework_failure_
  fs_mounts_=$(printf '%s\n' $fs_mounts_ | grep -vxF "$PWD/mnt")
  crash_last_=$(crash_last_number_)
}

# The crash points to sweep, one a line: all of FIRST..LAST, or COUNT.
crash_points_between_ ()
{
  awk -v first=$1 -v last=$2 -v count=${3-0} -v seed=$crash_seed_ '
    BEGIN {
      if (count == 0 || count >= last - first + 1) {
        for (n = first; n <= last; n++) print n
        exit
      }
      srand(seed)
      chosen[first]; chosen[last]; got = first < last ? 2 : 1
      while (got < count) {
        n = first + int(rand() * (last - first + 1))
        if (!(n in chosen)) { chosen[n]; got++ }
      }
      for (n = first; n <= last; n++) if (n in chosen) print n
    }'
}

crash_sweep_ ()
{
  cs_check_=$1 cs_first_=$2 cs_last_=$3 cs_count_=${4-0}
  test $cs_count_ = 0 \
    || echo "crash points: $cs_count_ of $cs_first_..$cs_last_, seed $crash_seed_" \
            "(CRASH_SEED=$crash_seed_ chooses them again)"
  for cs_n_ in $(crash_points_between_ $cs_first_ $cs_last_ $cs_count_); do
    crash_points_=$(($crash_points_ + 1))
    for cs_v_ in $crash_variants_; do
      crash_states_=$(($crash_states_ + 1))
      rm -rf $crash_state_
      perl "$crash_tool_" crash.journal $cs_n_ $cs_v_ $crash_state_ \
        || framework_failure_
      $cs_check_ $crash_state_ $cs_n_ $cs_v_ && continue
      crash_violations_=$(($crash_violations_ + 1))
      cs_kept_=crash.$cs_n_.$cs_v_
      echo "violation: crash before call $cs_n_, variant $cs_v_" >&2
      test $crash_violations_ -le 3 || continue
      mv $crash_state_ $cs_kept_ || framework_failure_
      echo "  state kept in $PWD/$cs_kept_ (with KEEP=yes, after the" \
           "test); made again by: perl $crash_tool_" \
           "$PWD/crash.journal $cs_n_ $cs_v_ OUT-DIR" >&2
    done
  done
}

crash_summary_ ()
{
  echo "crash points: $crash_points_ ($crash_states_ states)," \
       "violations: $crash_violations_"
}

# crash_digest_ DIR: DIR's tree_digest_, times to the nanosecond and
# without the sizes of directories (which differ between file systems),
# into crash.digest.DIR (made once for a DIR outside the states); print
# that file's name.  Names must not hold white space.
crash_digest_ ()
{
  cd_out_=crash.digest.$(printf '%s' "$1" | tr -c 'A-Za-z0-9' _)
  case $1 in
    $crash_state_*) rm -f "$cd_out_" ;;
  esac
  test -f "$cd_out_" \
    || DIFF_TIMES=ns tree_digest_ "$1" \
         | awk '$2 == "d" { $4 = "-" } { print }' > "$cd_out_" \
    || framework_failure_
  echo "$cd_out_"
}

# crash_same_tree_ EXPECTED ACTUAL: whether the trees are equal, data
# and attributes (times to the nanosecond) of every entry below them;
# if not, show how they differ.
crash_same_tree_ ()
{
  cst_want_=$(crash_digest_ "$1") && cst_got_=$(crash_digest_ "$2") \
    || framework_failure_
  cmp -s "$cst_want_" "$cst_got_" && return 0
  diff "$cst_want_" "$cst_got_" | head -n 8 >&2
  return 1
}
