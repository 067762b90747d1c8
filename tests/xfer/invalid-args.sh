#!/bin/sh
# Invalid values of the engine's options are refused as GNU refuses an
# invalid --reflink: the argmatch list and the Try line, exit 1; a bad
# --buffer-size gets one line.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src

echo data > in || framework_failure_

# expect_ OPTION VALUE VALID...: cp --OPTION=VALUE is refused so.
# An empty VALUE is a prefix of every valid one, so "ambiguous".
expect_ ()
{
  opt=$1 val=$2; shift 2
  what=invalid; test -z "$val" && what=ambiguous
  { printf "cp: %s argument '%s' for '--%s'\n" $what "$val" "$opt"
    echo 'Valid arguments are:'
    for v; do printf "  - '%s'\n" "$v"; done
    echo "Try 'cp --help' for more information."; } > exp
  returns_ 1 cp --$opt="$val" in out 2> err || fail=1
  compare exp err || fail=1
  test -e out && { echo "out was created"; fail=1; }
}

expect_ io-method foo auto read mmap offload
expect_ io-method mmapp auto read mmap offload
expect_ direct sideways in out both
expect_ direct '' in out both
expect_ progress sometimes auto always never
expect_ stats xml human json

for bad in 8Q 0 -1 '' 1Mi 99999999999999999999; do
  returns_ 1 cp --buffer-size="$bad" in out 2> err || fail=1
  printf "cp: invalid buffer size: '%s'\n" "$bad" > exp
  compare exp err || fail=1
done

# --io-method and --buffer-size need their argument.
returns_ 1 cp in out --io-method 2> err || fail=1
printf '%s\n' "cp: option '--io-method' requires an argument" \
  "Try 'cp --help' for more information." > exp
compare exp err || fail=1

Exit $fail
