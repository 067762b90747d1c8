#!/bin/sh
# cp -al of a tree of 20,000 entries needs little more memory than the
# copy of one file: GNU cp needs less than 4 MiB more.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
skip_if_emulated_ "a limit of address space would measure the emulator's"

# The smallest virtual memory limit, in KiB, under which "$@" succeeds.
min_vm_ ()
{
  lo_=1000 hi_=200000
  while test $(($hi_ - $lo_)) -gt 64; do
    mid_=$((($lo_ + $hi_) / 2))
    if (ulimit -v $mid_ && "$@") >/dev/null 2>&1; then
      hi_=$mid_
    else
      lo_=$mid_
    fi
    rm -rf f2
  done
  echo $hi_
}

touch f || framework_failure_
(ulimit -v 200000) 2>/dev/null || skip_ "this shell cannot limit memory"
vm=$(min_vm_ cp -al f f2)
# A cp built with AddressSanitizer reserves terabytes of address space
# for its shadow memory, so it cannot start under any such limit.
test "$vm" -lt 200000 \
  || skip_ "cp does not run with 200 MB of address space (a sanitizer build?)"

a=$(printf %031d 0)
b=$(printf %031d 1)
(mkdir $a && cd $a && seq --format=%031g 10000 | xargs touch \
   && seq --format=d%030g 10000 | xargs mkdir) || framework_failure_
cp -al $a $b || fail=1
mkdir e && mv $a $b e || framework_failure_

(ulimit -v $(($vm + 4000)) && cp -al e copy) || fail=1
test -d copy/$a/d$(printf %030d 10000) || fail=1

Exit $fail
