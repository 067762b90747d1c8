#!/bin/sh
# When a file would replace a directory, or a file this cp has just
# made, -n, -u and -i decide first: a file kept is no error, and the
# question comes before the complaint.  A directory never replaces a
# non-directory, whatever -n, -u or -i say.  Of two complaints about
# one file, GNU's first is given.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp

mkdir -p fix/src fix/dst/src/f fix/dir/f fix/sd fix/a fix/b fix/c \
  || framework_failure_
printf 'data\n' > fix/src/f || framework_failure_
printf 'data\n' > fix/f || framework_failure_
printf 'old\n' > fix/file || framework_failure_
printf 'A\n' > fix/a/1 || framework_failure_
printf 'B\n' > fix/b/1 || framework_failure_
touch -d '2000-01-01' fix/dst/src/f fix/dir/f || framework_failure_
touch -d '2010-01-01' fix/src/f fix/f || framework_failure_
mkdir -p fix/newdst/src/f || framework_failure_
touch -d '2020-01-01' fix/newdst/src/f || framework_failure_
for t in iR-n iT-n i-newer-n i-just-made; do
  printf 'n\n' > $t.in || framework_failure_
done
for t in iR-y iT-y i-just-made-y i-same; do
  printf 'y\n' > $t.in || framework_failure_
done

# A file over a directory.
diff_run_ iR-n cp -iR src dst
diff_run_ iR-y cp -iR src dst
diff_run_ nR cp -nR src dst
diff_run_ uR-older cp -uR src dst
diff_run_ uR-newer cp -uR src newdst
diff_run_ R cp -R src dst
diff_run_ iT-n cp -iT f dir/f
diff_run_ iT-y cp -iT f dir/f
diff_run_ nT cp -nT f dir
diff_run_ uT cp -uT f newdst/src/f
# A directory over a file.
diff_run_ dir-n cp -rn sd file
diff_run_ dir-nT cp -rnT sd file
diff_run_ dir-u cp -ru sd file
cp iR-n.in dir-i.in || framework_failure_
diff_run_ dir-i cp -ri sd file
# A file over one this cp has just made.
diff_run_ i-just-made cp -i a/1 b/1 c
diff_run_ i-just-made-y cp -i a/1 b/1 c
diff_run_ n-just-made cp -n a/1 b/1 c
diff_run_ u-just-made cp -u a/1 b/1 c
# Being the same file is said before being just made.
diff_run_ same cp a/1 c/1 c
diff_run_ i-same cp -i a/1 c/1 c
diff_run_ n-same cp -n a/1 c/1 c
diff_run_ b-same cp -b a/1 c/1 c
diff_run_ f-same cp -f a/1 c/1 c

Exit $fail
