#!/bin/sh
# Backups where a directory meets a non-directory.  A directory copied
# onto a non-directory moves it aside as its backup and takes its
# place, as GNU cp 9.10 does; a non-directory copied onto a directory
# is not refused at once, but the directory is not moved aside either,
# so the copy fails the way its making of the file fails there.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/s fix/d fix/elsewhere || framework_failure_
printf 'a\n' > fix/a || framework_failure_
mkfifo fix/fifo || framework_failure_
ln -s a fix/ln || framework_failure_
ln -s elsewhere fix/dl || framework_failure_
ln -s nowhere fix/dangling || framework_failure_
for n in a fifo ln dl dangling; do
  mkdir fix/s/$n && printf '%s\n' $n > fix/s/$n/f || framework_failure_
done
for n in a fifo ln; do
  mkdir fix/d/$n || framework_failure_
done
touch -d 2000-01-01 fix/d/a && touch -d 2010-01-01 fix/a || framework_failure_
printf 'y\n' > i-yes.in && cp i-yes.in li-yes.in \
  && cp i-yes.in i-dir.in || framework_failure_

# A directory onto a file, a FIFO and links: on the command line ...
for o in -b -bv --backup=numbered -bf '-b --remove-destination' -bu -bl \
         -ab '-b --attributes-only' -bL -bH; do
  tag=dir-$(printf '%s' "$o" | tr -d ' =-')
  diff_run_ $tag-file cp -r $o s/a a
  diff_run_ $tag-fifo cp -r $o s/fifo fifo
  diff_run_ $tag-link cp -r $o s/ln ln
  diff_run_ $tag-dangling cp -r $o s/dangling dangling
  diff_run_ $tag-dir-link cp -r $o s/dl dl
  diff_run_ $tag-dir-link-T cp -rT $o s/dl dl
done
# ... and below it, where no link is followed.
diff_run_ tree cp -rTbv s .
# A directory that cannot be made, as it leads into itself, puts the
# file it was to replace back.
mkdir -p fix/cyc/c fix/to/c || framework_failure_
ln -s . fix/cyc/c/loop && printf 'kept\n' > fix/to/c/loop \
  || framework_failure_
diff_run_ unbackup cp -rLbv cyc/c to
diff_run_ tree-numbered cp -rT --backup=numbered s .
diff_run_ i-dir cp -rbi s/a a
# The links made name the copy's own fixture: once seen, they go.
diff_run_ s-dir sh -c 'cp -rsbv "$PWD/s/a" a 2>&1 | sed "s,$PWD/,,g"
                      test -L a/f && rm a/f'

# A file, a FIFO and a link onto a directory.
for o in -b -bv -bf -bvf '-b --remove-destination' -bl -blf -bu -a -ab \
         '-b --attributes-only' -bL --backup=numbered; do
  tag=onto-dir-$(printf '%s' "$o" | tr -d ' =-')
  diff_run_ $tag-file cp -r $o a d
  diff_run_ $tag-fifo cp -r $o fifo d
  diff_run_ $tag-link cp -r $o ln d
  diff_run_ $tag-T cp -rT $o a d/a
done
diff_run_ i-yes cp -bi a d
diff_run_ li-yes cp -bli a d
# No link is made here.
diff_run_ s-onto-dir sh -c 'cp -sbv "$PWD/a" d 2>&1 | sed "s,$PWD/,,g"'
diff_run_ sf-onto-dir sh -c 'cp -sbfv "$PWD/a" d 2>&1 | sed "s,$PWD/,,g"'

Exit $fail
