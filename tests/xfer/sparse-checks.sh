# sparse-checks.sh -- holes through every method and direct mode.
# Sourced by sparse*.sh after init.sh, with the directory to work in
# as $1.

d=$1

# put_ FILE OFFSET: write standard input into FILE at OFFSET.
put_ ()
{
  perl -e 'open F, "+<", $ARGV[0] or die; seek F, $ARGV[1], 0 or die;
           local $/; print F <STDIN> or die; close F or die' "$@"
}

# A file with holes at the start, middle and end.
truncate -s 4M "$d/holey" \
  && head -c 65536 /dev/urandom | put_ "$d/holey" 1048576 \
  && printf hello | put_ "$d/holey" 3000000 \
  || framework_failure_
# A file with no holes but long runs of zeros, ending in zeros.
{ head -c 1048576 /dev/zero && head -c 4096 /dev/urandom \
    && head -c 1048576 /dev/zero; } > "$d/zeros" || framework_failure_

blocks_ () { stat -c %b "$1"; }
test $(blocks_ "$d/holey") -lt 1024 \
  || skip_ "this file system does not keep holes"

for method in auto read mmap offload; do
  for direct in '' --direct; do
    how="$method $direct"
    out=$d/out
    rm -f "$out"
    xfer-copy --sparse=auto --io-method=$method $direct "$d/holey" "$out" \
      || fail=1
    cmp "$d/holey" "$out" || fail=1
    test $(blocks_ "$out") -le $(($(blocks_ "$d/holey") + 16)) \
      || { echo "auto lost holes: $how"; fail=1; }

    rm -f "$out"
    xfer-copy --sparse=never --io-method=$method $direct "$d/holey" "$out" \
      || fail=1
    cmp "$d/holey" "$out" || fail=1
    test $(blocks_ "$out") -ge 8192 \
      || { echo "never made holes: $how"; fail=1; }

    rm -f "$out"
    xfer-copy --sparse=always --io-method=$method $direct "$d/zeros" "$out" \
      || fail=1
    cmp "$d/zeros" "$out" || fail=1
    test $(stat -c %s "$out") = $(stat -c %s "$d/zeros") || fail=1
    test $(blocks_ "$out") -le 64 \
      || { echo "always made no holes: $how"; fail=1; }

    rm -f "$out"
    xfer-copy --sparse=auto --io-method=$method $direct "$d/zeros" "$out" \
      || fail=1
    test $(blocks_ "$out") -ge 4104 \
      || { echo "auto made holes of zeros: $how"; fail=1; }
  done
done

