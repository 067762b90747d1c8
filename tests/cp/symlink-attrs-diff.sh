#!/bin/sh
# The symbolic link cp -s makes gets the source's access and modification
# times with -a, -p or --preserve=timestamps, and its extended attributes
# with --preserve=xattr; a copied symbolic link gets its own.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_xattrs_

# Make the files to copy in DIR afresh: reading them, as copying them
# would, changes their access times.
make_fix_ ()
{
  mkdir "$1" && printf 'a\n' > "$1/src" \
    && touch -m -d '2001-02-03 04:05:06.123456789' "$1/src" \
    && touch -a -d '2002-03-04 05:06:07.987654321' "$1/src" \
    && ln -s src "$1/sl" \
    && touch -h -d '2003-04-05 06:07:08.5' "$1/sl" \
    && python3 -c '
import os, sys
os.setxattr(sys.argv[1] + "/src", "user.x", b"1")
if sys.argv[2] == "yes":
    os.setxattr(sys.argv[1] + "/sl", "trusted.cpdd", b"2",
                follow_symlinks=False)
    os.setxattr(sys.argv[1] + "/src", "trusted.cpdd", b"3")' "$1" "$trusted" \
    || framework_failure_
}

# The times and extended attributes of a link, not followed.
link_attrs_ ()
{
  stat -c '%x %y' "$1" && python3 -c '
import os, sys
print(sorted(os.listxattr(sys.argv[1], follow_symlinks=False)))' "$1"
}

# link_run_ TAG ARG...: run cp ARG... (which makes $made) as ours and as
# GNU's, each in new files to copy, and compare the exit status, standard
# error and the attributes of $made, looked at before anything reads
# the link and so changes its access time.
link_run_ ()
{
  tag=$1; shift
  for side in ours gnu; do
    if test $side = ours; then dir=$ours_dir_; else dir=$gnu_dir_; fi
    make_fix_ "$tag.$side"
    ( cd "$tag.$side" && PATH="$dir:$PATH" && export PATH \
        && cp "$@" 2> "../$tag.$side.err"; echo $? > "../$tag.$side.rc" )
    link_attrs_ "$tag.$side/$made" > "$tag.$side.attrs" 2>&1
  done
  for what in rc err attrs; do
    compare "$tag.gnu.$what" "$tag.ours.$what" \
      || { echo "$tag: $what differs from GNU's for: cp $*" >&2; fail=1; }
  done
}

trusted=no made=lnk
link_run_ s-archive -s -a src lnk
link_run_ s-p -s -p src lnk
link_run_ s-timestamps -s --preserve=timestamps src lnk
link_run_ s-all -s --preserve=all src lnk
link_run_ s-xattr -s --preserve=xattr,timestamps src lnk
link_run_ s-link -s -a sl lnk
link_run_ s-follow -s -L --preserve=timestamps sl lnk
made=sl
link_run_ s-force -s -f --preserve=timestamps src sl
made=lnk

# Only root may give a symbolic link extended attributes (trusted.*).
if python3 -c '
import os
os.symlink("x", "probe")
os.setxattr("probe", "trusted.cpdd", b"1", follow_symlinks=False)' \
     2>/dev/null; then
  trusted=yes
  link_run_ trusted-archive -a sl lnk
  link_run_ trusted-xattr --preserve=xattr,timestamps -P sl lnk
  link_run_ trusted-s -s -a src lnk
fi

Exit $fail
