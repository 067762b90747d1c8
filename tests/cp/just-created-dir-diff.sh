#!/bin/sh
# A later operand may not replace what an earlier operand's copy made:
# a directory (reached through -H) onto a just-created file is refused
# with every kind of backup but numbered, whatever -f, -u or
# --remove-destination say, since --update never spares a directory.
# GNU knows an earlier copy by its name as written, so --parents
# spellings of one name ("s/l", "s/./l") are different destinations.
# And -s with a relative source tries the link wherever the directory
# it goes into cannot be looked at, so its failure says why.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/one fix/two/dir fix/out fix/sp fix/here/sub || framework_failure_
printf 'first\n' > fix/one/n && printf 'inside\n' > fix/two/dir/y \
  && ln -s dir fix/two/n && printf 'spelt\n' > fix/sp/l \
  && printf 'target\n' > fix/here/t && ln -s nowhere fix/here/dl \
  || framework_failure_

for b in -b --backup=simple --backup=existing '-b -S .old' --backup=numbered
do
  for o in '' -f -u --update=older --remove-destination; do
    tag=$(printf '%s' "dir$b$o" | tr -c 'a-z0-9' '_')
    diff_run_ "$tag" cp -rH $b $o one/n two/n out
  done
done
diff_run_ dir-nobackup cp -rH one/n two/n out

for spelling in sp/./l ./sp/l sp//l sp/l; do
  tag=$(printf 'parents%s' "$spelling" | tr -c 'a-z0-9' '_')
  diff_run_ "$tag" cp --parents -b sp/l $spelling out
done

for dst in nodir/x nodir/../x sub/nodir/x dl/x sub/x ./x; do
  tag=$(printf 'symlink%s' "$dst" | tr -c 'a-z0-9' '_')
  diff_run_ "$tag" sh -c "cd here && cp -s t $dst"
  diff_run_ "$tag-f" sh -c "cd here && cp -sf t $dst"
done

Exit $fail
