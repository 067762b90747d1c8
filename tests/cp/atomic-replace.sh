#!/bin/sh
# cp --atomic replaces each regular file whole by renaming a temporary
# file over it: the content and, with -a, the attributes are the
# source's; another hard link of the old file keeps the old data; a
# backup keeps the old file; a destination that -n, -i or --update
# keeps gets no temporary file at all; a leftover temporary file of an
# earlier run is removed; files that are not copied as data are made
# as without the option.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"

# No entry of DIR whose name ends in .cpdd-part.
no_temp_ ()
{
  test -z "$(find "$1" -name '*.cpdd-part')" \
    || { echo "$2: temporary file left:"; find "$1" -name '*.cpdd-part'
         fail=1; }
}

# The directory d as it was before a command that must make nothing in
# it: a file made and removed there still changes its time.
dir_stamp_ () { stat -c '%y %i' d; }
freeze_dir_ () { touch -d 2001-01-01 d || framework_failure_; }

printf 'new data\n' > src || framework_failure_
chmod 640 src && touch -d '2005-06-07 08:09:10.5' src || framework_failure_

# The content is replaced, by a new file, with the source's attributes.
rm -rf d && mkdir d && printf 'old\n' > d/f && chmod 600 d/f \
  || framework_failure_
old_ino=$(stat -c %i d/f)
cp -a --atomic src d/f || fail=1
compare src d/f || fail=1
test "$(stat -c '%a %y' d/f)" = "$(stat -c '%a %y' src)" \
  || { echo "-a --atomic: attributes differ"; stat src d/f; fail=1; }
test "$(stat -c %i d/f)" != "$old_ino" \
  || { echo "--atomic wrote in place"; fail=1; }
no_temp_ d replace

# A new destination gets the data through a temporary file too.
rm -rf d && mkdir d || framework_failure_
cp --atomic src d/new || fail=1
compare src d/new || fail=1
no_temp_ d new

# A hard link of the old file keeps the old data, as with rsync.
rm -rf d && mkdir d && printf 'old\n' > d/f && ln d/f d/other \
  || framework_failure_
cp --atomic src d/f || fail=1
compare src d/f || fail=1
printf 'old\n' > exp-old || framework_failure_
compare exp-old d/other || fail=1
test "$(stat -c %h d/other)" = 1 || { echo "link not broken"; fail=1; }

# --backup keeps the old file, under the backup name, replacing an
# older backup; the file was never without its name, so the backup is
# a link of the old file made before the rename.
for b in simple numbered; do
  rm -rf d && mkdir d && printf 'old\n' > d/f && printf 'older\n' > d/f~ \
    || framework_failure_
  cp --atomic --backup=$b src d/f || fail=1
  compare src d/f || fail=1
  case $b in
    simple) compare exp-old d/f~ || fail=1 ;;
    numbered) compare exp-old d/f.~1~ || fail=1
              printf 'older\n' > exp-older && compare exp-older d/f~ \
                || fail=1 ;;
  esac
  test "$(stat -c %h d/f)" = 1 || { echo "--backup=$b: f still linked"; fail=1; }
  no_temp_ d backup-$b
done

# The lines of --print-hash, and -v, name the destination.
rm -rf d && mkdir d && printf 'old\n' > d/f || framework_failure_
cp --atomic --print-hash -v -b src d/f > out || fail=1
printf "'src' -> 'd/f' (backup: 'd/f~')\n" > exp || framework_failure_
sed -n 1p out > out-v && compare exp out-v || fail=1
sed 1d out > sums && sha256sum -c --status sums || fail=1
grep ' d/f$' sums > /dev/null || { cat sums; fail=1; }

# A destination that is kept gets no temporary file.
for opt in -n --update=none -u -i; do
  rm -rf d && mkdir d && printf 'old\n' > d/f || framework_failure_
  test $opt = -u && touch -d 2030-01-01 d/f
  freeze_dir_
  before=$(dir_stamp_)
  echo n | cp --atomic $opt src d/f > /dev/null 2>&1
  compare exp-old d/f || fail=1
  test "$(dir_stamp_)" = "$before" \
    || { echo "$opt: something was made in the directory"; fail=1; }
done

# --remove-destination has nothing to add: the rename replaces the
# file, even one that cannot be opened for writing.
rm -rf d && mkdir d && printf 'old\n' > d/f && chmod 444 d/f \
  || framework_failure_
cp --atomic --remove-destination src d/f || fail=1
compare src d/f || fail=1
rm -rf d && mkdir d && printf 'old\n' > d/f && chmod 444 d/f \
  || framework_failure_
cp --atomic src d/f || fail=1
compare src d/f || fail=1

# A leftover temporary file of an interrupted run is removed and the
# copy made afresh; so is one of a name too long for the usual form,
# whose temporary name is a hash of it.
rm -rf d && mkdir d && printf 'old\n' > d/f || framework_failure_
printf 'partial garbage' > d/.f.cpdd-part || framework_failure_
cp --atomic src d/f || fail=1
compare src d/f || fail=1
no_temp_ d leftover
long=$(printf '%0250d' 0)
tmp=$(perl -MMath::BigInt -e '
  my $h = Math::BigInt->from_hex ("cbf29ce484222325");
  my $m = Math::BigInt->new (2)->bpow (64);
  for my $c (unpack "C*", $ARGV[0])
    { $h->bxor ($c)->bmul (Math::BigInt->from_hex ("100000001b3"))->bmod ($m) }
  (my $x = $h->as_hex) =~ s/^0x//;
  printf ".%016s.cpdd-part\n", $x' "$long" | tr ' ' 0) || framework_failure_
rm -rf d && mkdir d && printf 'old\n' > "d/$long" || framework_failure_
printf 'partial garbage' > "d/$tmp" || framework_failure_
cp --atomic src "d/$long" || fail=1
compare src "d/$long" || fail=1
test -e "d/$tmp" && { echo "leftover $tmp not removed"; fail=1; }
no_temp_ d long-name

# The source itself is never taken for a leftover.
rm -rf d && mkdir d && printf 'keep\n' > d/.f.cpdd-part || framework_failure_
returns_ 1 cp --atomic d/.f.cpdd-part d/f 2> err || fail=1
printf 'keep\n' > exp-keep && compare exp-keep d/.f.cpdd-part || fail=1
test -e d/f && { echo "copied over its own source"; fail=1; }
grep "not removing 'd/.f.cpdd-part', the source" err > /dev/null \
  || { cat err; fail=1; }

# A destination that is a symbolic link is not written through, nor
# replaced unless --remove-destination says so.
rm -rf d && mkdir d && printf 'old\n' > d/target && ln -s target d/f \
  || framework_failure_
returns_ 1 cp --atomic src d/f 2> err || fail=1
printf "cp: not replacing 'd/f', a symbolic link, with --atomic\n" > exp \
  && compare exp err || fail=1
test -L d/f && compare exp-old d/target || fail=1
no_temp_ d symlink
cp --atomic --remove-destination src d/f || fail=1
test ! -L d/f && compare src d/f && compare exp-old d/target || fail=1

# What is not copied as data is made as without --atomic.
rm -rf d s && mkdir d s && mkfifo s/fifo && ln -s src s/link \
  && printf 'x\n' > s/file || framework_failure_
cp -R --atomic s d/s || fail=1
test -p d/s/fifo && test -L d/s/link && compare s/file d/s/file || fail=1
cp --atomic -l src d/hard || fail=1
test "$(stat -c %i d/hard)" = "$(stat -c %i src)" || fail=1
cp --atomic -s "$PWD/src" d/soft || fail=1
test -L d/soft || fail=1
no_temp_ d special

# --attributes-only leaves the data where it is, in the same file.
rm -rf d && mkdir d && printf 'old\n' > d/f || framework_failure_
old_ino=$(stat -c %i d/f)
cp --atomic --attributes-only -p src d/f || fail=1
compare exp-old d/f || fail=1
test "$(stat -c %i d/f)" = "$old_ino" || fail=1

# With other ways of copying the data, the same; and with --jobs, many
# files replaced by the workers.
head -c 300000 /dev/urandom > big && truncate -s 2M big || framework_failure_
for opts in --verify --sparse=always --sparse=never --reflink=auto \
            --direct --jobs=2; do
  rm -rf d && mkdir d && printf 'old\n' > d/big || framework_failure_
  cp --atomic $opts big d/big 2> err || { cat err; fail=1; }
  compare big d/big || fail=1
  no_temp_ d "$opts"
done
rm -rf t d && mkdir t d || framework_failure_
for i in $(seq 60); do
  printf 'new %s\n' $i > t/f$i && printf 'old %s\n' $i > d/f$i \
    || framework_failure_
done
cp --atomic --jobs=2 t/* d || fail=1
for i in $(seq 60); do
  printf 'new %s\n' $i > exp && compare exp d/f$i || fail=1
done
rm -rf d2 && mkdir d2 || framework_failure_
for i in $(seq 60); do printf 'old %s\n' $i > d2/f$i || framework_failure_; done
cp -RT --atomic --jobs=2 t d2 || fail=1
diff -r t d2 || fail=1
no_temp_ d jobs
no_temp_ d2 jobs-tree

Exit $fail
