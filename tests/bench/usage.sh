#!/bin/sh
# cpdd-bench: --help, --version, and GNU-style usage errors (exit 2).

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench

# --help and --version go to stdout and succeed.
cpdd-bench --help > out 2> err || fail=1
compare /dev/null err || fail=1
sed 1q out | grep '^Usage: cpdd-bench compare ' > /dev/null || fail=1
grep '^  or:  cpdd-bench sweep ' out > /dev/null || fail=1
cpdd-bench sweep --help > out2 || fail=1
compare out out2 || fail=1

cpdd-bench --version > out 2> err || fail=1
compare /dev/null err || fail=1
sed 1q out | grep '^cpdd-bench (cpdd) [0-9a-z]' > /dev/null || fail=1
grep @ out && fail=1

# A usage error: two lines on stderr, nothing on stdout, exit 2.
check_usage_error ()
{
  msg=$1
  shift
  returns_ 2 cpdd-bench "$@" > out 2> err || fail=1
  printf '%s\n' "cpdd-bench: $msg" \
    "Try 'cpdd-bench --help' for more information." > exp
  compare exp err || fail=1
  compare /dev/null out || fail=1
}

check_usage_error "missing command"
check_usage_error "unknown command 'frob'" frob
check_usage_error "invalid option -- 'x'" -x
check_usage_error "invalid option -- 'x'" compare -x
check_usage_error "invalid option -- 'q'" sweep -vq
check_usage_error "unrecognized option '--bogus'" compare --bogus
check_usage_error "unrecognized option '--bogus=1'" sweep --bogus=1
check_usage_error "unrecognized option '--file=x'" sweep --file=x
check_usage_error \
  "option '--c' is ambiguous; possibilities: '--cold' '--cp' '--csv'" \
  compare --c
check_usage_error "option '--runs' requires an argument" compare --runs
check_usage_error "option requires an argument -- 'n'" compare -n
check_usage_error "option '--cold' doesn't allow an argument" compare --cold=1
check_usage_error "option '--cold' doesn't allow an argument" sweep --cold=1
check_usage_error "invalid number of runs: '0'" compare --runs=0
check_usage_error "invalid number of runs: 'two'" compare -n two
check_usage_error "invalid size: '12Q'" compare --size 12Q
check_usage_error "invalid size: '0'" compare -s0
check_usage_error "invalid buffer size: 'big'" sweep --to big
check_usage_error "invalid number of steps: '1' (at least 2)" sweep --steps 1
check_usage_error "invalid timer: 'sundial' (use perl, time or auto)" \
  compare --timer sundial
check_usage_error "extra operand 'b'" compare a b
check_usage_error "extra operand 'g'" sweep f g
check_usage_error "--from must be smaller than --to" sweep --from 1M --to 4K
check_usage_error "--plot needs a file name ending in .svg" \
  sweep --plot p.png

# Nothing was left behind by the failed invocations.
ls -d cpdd-bench.* 2> /dev/null && fail=1

Exit $fail
