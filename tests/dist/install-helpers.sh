# Helpers for the installation tests: run the build tree's "make
# install" or "make uninstall" into a staging directory.
#
# The tests set prefix and transform themselves, so they check the same
# thing whatever the build was configured with (--prefix=/usr and a
# --program-transform-name in the Debian package build, for example).

# Check that the build's Makefile and a make that can read it are there.
require_build_makefile_ ()
{
  test -f "$abs_top_builddir/Makefile" \
    || skip_ "no Makefile in $abs_top_builddir"
  # Make variables of the "make check" running this test (jobserver
  # descriptors, TESTS=...) are not meant for the sub-make.
  unset MAKEFLAGS MFLAGS MAKELEVEL
  ${MAKE-make} --version 2>/dev/null | grep -q 'GNU Make' \
    || skip_ "GNU make not found"
}

# dist_make_ TARGET DESTDIR TRANSFORM
# Run "make TARGET" in the build tree, staging under DESTDIR with
# prefix /usr/local and the sed program TRANSFORM applied to program
# and man page names.  Output goes to make-TARGET.log.
dist_make_ ()
{
  ${MAKE-make} -C "$abs_top_builddir" "$1" DESTDIR="$2" prefix=/usr/local \
    transform="$3" > "make-$1.log" 2>&1
}

# Files and links (not directories) under DIR, one path a line, sorted.
installed_files_ ()
{
  (cd "$1" && find . ! -type d | LC_ALL=C sort)
}
