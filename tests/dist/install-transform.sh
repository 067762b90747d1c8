#!/bin/sh
# A program name transform (--program-prefix and friends) renames the
# installed programs and their man pages, and leaves the manual's name.
. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/dist/install-helpers.sh"
require_build_makefile_

inst=$PWD/inst
dist_make_ install "$inst" 's/^/my-/' || { cat make-install.log; fail=1; }
usr=$inst/usr/local

for f in bin/my-cp bin/my-dd share/man/man1/my-cp.1 share/man/man1/my-dd.1 \
         share/info/cpdd.info; do
  test -f "$usr/$f" || { echo "not installed: $f"; fail=1; }
done

# Nothing is installed under an untransformed program or page name.
for d in bin share/man/man1; do
  ls "$usr/$d" > names || framework_failure_
  grep -v '^my-' names && fail=1
done

# A renamed program reports errors under the name it was run as.
returns_ 1 env PATH="$usr/bin:$PATH" my-cp no-such out 2> err || fail=1
echo "my-cp: cannot stat 'no-such': No such file or directory" > exp \
  || framework_failure_
compare exp err || fail=1

Exit $fail
