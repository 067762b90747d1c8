#!/bin/sh
# "make install" with default names installs working cp and dd, their
# man pages and the info manual, as drop-in replacements.
. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/dist/install-helpers.sh"
require_build_makefile_

inst=$PWD/inst
dist_make_ install "$inst" 's,x,x,' || { cat make-install.log; fail=1; }
usr=$inst/usr/local

for f in bin/cp bin/dd share/man/man1/cp.1 share/man/man1/dd.1 \
         share/info/cpdd.info; do
  test -f "$usr/$f" || { echo "not installed: $f"; fail=1; }
done
test -x "$usr/bin/cp" && test -x "$usr/bin/dd" || fail=1

# The installed programs work and report their usual names.
"$usr/bin/cp" --version > out || fail=1
sed q out > first || framework_failure_
case $(cat first) in 'cp (cpdd) '*) ;; *) cat first; fail=1 ;; esac
"$usr/bin/dd" --version | sed q > first || fail=1
case $(cat first) in 'dd (cpdd) '*) ;; *) cat first; fail=1 ;; esac

printf 'installed copy\n' > in || framework_failure_
"$usr/bin/cp" in out-cp || fail=1
compare in out-cp || fail=1
"$usr/bin/dd" if=in of=out-dd status=none || fail=1
compare in out-dd || fail=1

returns_ 1 env PATH="$usr/bin:$PATH" cp no-such out 2> err || fail=1
echo "cp: cannot stat 'no-such': No such file or directory" > exp \
  || framework_failure_
compare exp err || fail=1

# The info directory lists the manual's entries under names that do
# not clash with coreutils' "(coreutils)cp invocation".
if test -f "$usr/share/info/dir"; then
  grep '(cpdd)cp invocation' "$usr/share/info/dir" || fail=1
fi

Exit $fail
