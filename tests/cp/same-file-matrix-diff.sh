#!/bin/sh
# Every way of naming one file twice (the same name, hard links,
# symbolic links either way, links to links, dangling links), under
# each option that changes how cp treats an existing destination: the
# copy is refused, made, linked, backed up or skipped as GNU cp does.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir fix fix/dir || framework_failure_
printf 'contents\n' > fix/foo || framework_failure_
ln fix/foo fix/hardlink || framework_failure_
printf 'other\n' > fix/other || framework_failure_
ln fix/other fix/other2 || framework_failure_
for link in symlink:foo sl1:foo sl2:foo dangling:nowhere sldir:dir; do
  ln -s "${link#*:}" "fix/${link%%:*}" || framework_failure_
done

for opts in '' -d -f -df -b -bd -bf -bdf -l -fl -bl -bfl -dl -dfl -s -sf -ds \
            -n -i -u --remove-destination '--remove-destination -d' -a \
            '-a --remove-destination' --backup=numbered -v -bv -fv -dlv; do
  for pair in 'foo foo' 'foo ./foo' 'foo hardlink' 'hardlink foo' \
              'foo symlink' 'symlink foo' 'symlink symlink' 'sl1 sl2' \
              'sl1 symlink' 'foo dangling' 'dangling foo' 'foo other' \
              'foo sldir' 'sldir dir' 'dir sldir'; do
    # shellcheck disable=SC2086
    diff_run_ "m$(printf '%s_%s' "$opts" "$pair" | tr -c 'A-Za-z0-9_\n' -)" \
      cp $opts $pair
  done
done

Exit $fail
