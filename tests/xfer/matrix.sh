# matrix.sh -- round trips through every method and direct mode.
# Sourced by round-trip*.sh after init.sh, with the directory to copy
# in as $1.  Sizes sit on each side of the direct I/O alignments (512
# on ext4, 4096 by default), of the 64 KiB buffer and mmap window used
# here, and past three windows.

matrix_dir_=$1

# Without direct I/O compiled in, --direct copies through the page cache
# after a warning; those cases are left out.
. "$abs_srcdir/tests/diff-helpers.sh"
matrix_directs_='none --direct=in --direct=out --direct'
cpdd_has_ HAVE_O_DIRECT || matrix_directs_=none

matrix_sizes_='0 1 511 512 513 1537 4095 4096 4097 12289
  65535 65536 65537 196609'

head -c 196609 /dev/urandom > "$matrix_dir_/pool" || framework_failure_
for size in $matrix_sizes_; do
  head -c $size "$matrix_dir_/pool" > "$matrix_dir_/in.$size" \
    || framework_failure_
done

for method in auto read mmap offload; do
  for direct in $matrix_directs_; do
    for size in $matrix_sizes_; do
      in=$matrix_dir_/in.$size out=$matrix_dir_/out
      rm -f "$out" || framework_failure_
      test $direct = none && direct=
      cp --io-method=$method $direct --buffer-size=64K "$in" "$out" \
        2> err || { fail=1; cat err; }
      cmp "$in" "$out" || { echo "differs: $method $direct $size"; fail=1; }
      compare /dev/null err || fail=1
    done
  done
done
