#!/bin/sh
# A symbolic link in the destination is never followed to put a
# directory's copy elsewhere: a directory does not replace it, and a
# file replaces it when it is moved aside (-b), removed first, or
# made a link; otherwise a regular file's data goes through it.  -u
# compares the time of whatever the copy replaces: the link itself
# where it replaces the link.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/s/d fix/elsewhere fix/t || framework_failure_
printf 'f\n' > fix/s/d/f || framework_failure_
printf 'x\n' > fix/s/x || framework_failure_
printf 'old\n' > fix/t/file || framework_failure_
ln -s ../elsewhere fix/t/d || framework_failure_
ln -s ../elsewhere fix/t/x || framework_failure_
ln -s ../nowhere fix/t/dangling || framework_failure_
ln -s ../s/x fix/t/to-file || framework_failure_
printf 'y\n' > dir-i.in || framework_failure_
cp dir-i.in file-i.in || framework_failure_

# A directory over a link to a directory, or to anything.
for o in '' -T -b -bT --remove-destination -a -L -H -P -f -n -u -i -l; do
  tag=dir$o
  case $o in -T|-bT) set -- s/d t/d;; *) set -- s/d t;; esac
  diff_run_ $tag cp -r $o "$@"
done
diff_run_ dir-t cp -r -t t s/d
diff_run_ dir-s sh -c 'cp -rs "$PWD/s/d" t 2>&1 | sed "s,$PWD/,,"'
diff_run_ dir-dangling cp -r s/d t/dangling
diff_run_ dir-dangling-T cp -rT s/d t/dangling
diff_run_ dir-to-file cp -r s/d t/to-file
# Named with a trailing slash, the link is followed, as GNU does.
diff_run_ dir-slash cp -r s/d/ t/d
diff_run_ dir-slash-T cp -rT s/d t/d/

# A file over a link to a directory.
for o in '' -T -b -bT --remove-destination --remove-destination=T -a -aT \
         -f -fT -n -nT -u -i -l -lT -lf; do
  tag=file$o
  case $o in
    *=T) o=${o%=T}; set -- -T s/x t/x;;
    *T) set -- s/x t/x;;
    *) set -- s/x t;;
  esac
  diff_run_ $tag cp $o "$@"
done
diff_run_ file-sf sh -c 'cd t && cp -sfT ../s/x x'
diff_run_ file-s sh -c 'cd t && cp -sT ../s/x x'

# -u against a link newer than its target, and one older.
mkdir fix2 || framework_failure_
printf 'x\n' > fix2/x || framework_failure_
printf 'old\n' > fix2/target || framework_failure_
touch -d '2010-01-01' fix2/x || framework_failure_
for age in old new; do
  rm -rf fix && cp -a fix2 fix || framework_failure_
  if test $age = old; then
    touch -d '2000-01-01' fix/target && ln -s target fix/l \
      && touch -h -d '2020-01-01' fix/l || framework_failure_
  else
    touch -d '2020-01-01' fix/target && ln -s target fix/l \
      && touch -h -d '2000-01-01' fix/l || framework_failure_
  fi
  for o in -u -ub -u=r -ua -uf -ul -ulf; do
    case $o in -u=r) set -- -u --remove-destination;; *) set -- $o;; esac
    diff_run_ target-$age$o cp "$@" x l
  done
done

Exit $fail
