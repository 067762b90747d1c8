# fs-helpers.sh -- small file systems of several kinds, for the tests
# that copy on and between them.  Sourced after init.sh and
# diff-helpers.sh:
#
#   make_fs_ xfs "$PWD/x" || skip_ "no XFS here"
#
# make_fs_ KIND DIR [SOURCE-DIR] mounts a new file system of KIND on
# DIR, made for this test and gone when it ends:
#   tmpfs     memory;
#   xfs       XFS with reflink=1, on a loop device;
#   btrfs     Btrfs, on a loop device;
#   ext4-4k   ext4 on a loop device with 4096-byte logical sectors, so
#             that direct I/O must be aligned to 4 KiB, not 512 bytes;
#   squashfs  read-only, made of SOURCE-DIR; its SEEK_HOLE knows no
#             holes;
#   fuse      tests/shim/plainfuse over a directory: no O_DIRECT open,
#             no copy_file_range, no SEEK_HOLE, no extended attributes.
#   latency   the same, each call waiting $fs_delay_ microseconds
#             (default 1000), as a network file system's calls wait for
#             their server.
# Where one cannot be made (not root, no mkfs or FUSE tool, a kernel or
# container without it), make_fs_ says why on standard error and
# returns 1: a test skips, or leaves that kind out.

fs_mounts_=
fs_loops_=

# Unmount what make_fs_ mounted, newest first, and free its devices.
cleanup_ ()
{
  for fs_m_ in $fs_mounts_; do
    umount "$fs_m_" 2>/dev/null || umount -l "$fs_m_" 2>/dev/null
  done
  for fs_l_ in $fs_loops_; do
    losetup -d "$fs_l_" 2>/dev/null
  done
}

# fs_unable_ KIND WHY: say that no KIND can be made, and why; fail.
fs_unable_ ()
{
  echo "no $1 file system: $2" >&2
  return 1
}

# fs_run_ KIND CMD...: run CMD, its output kept in fs.err; on failure
# say so for KIND and fail.
fs_run_ ()
{
  fr_kind_=$1
  shift
  "$@" > fs.err 2>&1 && return 0
  fs_unable_ $fr_kind_ "$* failed: $(head -n 1 fs.err)"
}

# fs_image_ KIND SIZE: a sparse image file of SIZE for KIND; print its name.
fs_image_ ()
{
  rm -f "$1.img" && truncate -s "$2" "$1.img" || framework_failure_
  echo "$1.img"
}

make_fs_ ()
{
  mf_kind_=$1 mf_dir_=$2
  test "$(id -u)" = 0 || { fs_unable_ $mf_kind_ "not root"; return 1; }
  mkdir -p "$mf_dir_" || framework_failure_
  case $mf_kind_ in
    tmpfs)
      fs_run_ tmpfs mount -t tmpfs -o size=256m tmpfs "$mf_dir_" || return 1
      ;;
    xfs)
      command -v mkfs.xfs > /dev/null \
        || { fs_unable_ xfs "no mkfs.xfs (Debian package xfsprogs)"; return 1; }
      mf_img_=$(fs_image_ xfs 320M)
      fs_run_ xfs mkfs.xfs -q -m reflink=1 "$mf_img_" \
        && fs_run_ xfs mount -o loop "$mf_img_" "$mf_dir_" || return 1
      ;;
    btrfs)
      command -v mkfs.btrfs > /dev/null \
        || { fs_unable_ btrfs "no mkfs.btrfs (Debian package btrfs-progs)";
             return 1; }
      mf_img_=$(fs_image_ btrfs 256M)
      fs_run_ btrfs mkfs.btrfs -q "$mf_img_" \
        && fs_run_ btrfs mount -o loop "$mf_img_" "$mf_dir_" || return 1
      ;;
    ext4-4k)
      mf_img_=$(fs_image_ ext4-4k 64M)
      mf_dev_=$(losetup --sector-size 4096 -f --show "$mf_img_" 2> fs.err) \
        || { fs_unable_ ext4-4k "losetup: $(head -n 1 fs.err)"; return 1; }
      fs_loops_="$mf_dev_ $fs_loops_"
      test "$(blockdev --getss "$mf_dev_")" = 4096 \
        || { fs_unable_ ext4-4k "$mf_dev_ has no 4096-byte sectors";
             return 1; }
      fs_run_ ext4-4k mkfs.ext4 -q -F -b 4096 "$mf_dev_" \
        && fs_run_ ext4-4k mount "$mf_dev_" "$mf_dir_" || return 1
      ;;
    squashfs)
      command -v mksquashfs > /dev/null \
        || { fs_unable_ squashfs "no mksquashfs (Debian squashfs-tools)";
             return 1; }
      rm -f squashfs.img || framework_failure_
      fs_run_ squashfs mksquashfs "$3" squashfs.img -quiet -noappend \
        && fs_run_ squashfs mount -t squashfs -o loop,ro squashfs.img \
             "$mf_dir_" || return 1
      ;;
    fuse | latency)
      mf_fuse_=${abs_top_builddir-$PWD/..}/tests/shim/plainfuse
      test -x "$mf_fuse_" \
        || { fs_unable_ $1 "tests/shim/plainfuse not built (libfuse3-dev)";
             return 1; }
      test -c /dev/fuse || { fs_unable_ $1 "no /dev/fuse"; return 1; }
      mkdir -p "$mf_dir_.back" || framework_failure_
      mf_delay_=0
      test $1 = fuse || mf_delay_=${fs_delay_-1000}
      fs_run_ $1 "$mf_fuse_" --delay=$mf_delay_ "$mf_dir_.back" "$mf_dir_" \
        -o default_permissions || return 1
      ;;
    *)
      framework_failure_
      ;;
  esac
  fs_mounts_="$mf_dir_ $fs_mounts_"
}

# make_fs_kinds_ KIND...: make each KIND that can be made on ./KIND,
# and set fs_kinds_ to those made.
make_fs_kinds_ ()
{
  fs_kinds_=
  for mk_kind_; do
    make_fs_ $mk_kind_ "$PWD/$mk_kind_" && fs_kinds_="$fs_kinds_ $mk_kind_"
  done
}

# shares_extents_ FILE: whether FILE shares its data with another file
# (a clone), as FIEMAP tells through filefrag.
shares_extents_ ()
{
  filefrag -v "$1" 2>/dev/null | grep -w shared > /dev/null
}

# diff_run_into_ TAG DEST CMD...: as diff_run_, for a command that
# writes into the directory DEST, outside the fixture's copies (on
# another file system, say).  Ours and GNU's run in turn, each with
# DEST new and empty, and what they print, their exit status and what
# they leave in DEST are compared.
diff_run_into_ ()
{
  dri_tag_=$1 dri_dest_=$2
  shift 2
  test -d fix || mkdir fix || framework_failure_
  for dri_side_ in ours gnu; do
    dri_out_=$dri_tag_.$dri_side_
    rm -rf "$dri_dest_" "$dri_out_" && mkdir "$dri_dest_" \
      && "$gnu_dir_/cp" -a fix "$dri_out_" || framework_failure_
    if test $dri_side_ = ours; then dri_dir_=$ours_dir_; else dri_dir_=$gnu_dir_; fi
    ( cd "$dri_out_" && PATH="$dri_dir_:$PATH" && export PATH \
        && "$@" < /dev/null > "../$dri_out_.out" 2> "../$dri_out_.err"
      echo $? > "../$dri_out_.rc" )
    test $dri_side_ = gnu || gnu_libc_words_ "$dri_out_.err"
    tree_digest_ "$dri_dest_" > "$dri_out_.tree" || framework_failure_
  done
  for dri_what_ in rc out err tree; do
    cmp -s "$dri_tag_.gnu.$dri_what_" "$dri_tag_.ours.$dri_what_" && continue
    compare "$dri_tag_.gnu.$dri_what_" "$dri_tag_.ours.$dri_what_"
    echo "$dri_tag_: $dri_what_ differs from GNU's for: $*" >&2
    fail=1
  done
}
