#!/bin/sh
# mpicp names itself mpicp: in --version, and in --help, which is cp's
# otherwise; its messages start with the name it was run as, said once
# however many ranks run.  (That a rank other than 0 names itself so
# too, mpi-diff.sh checks with the name cp.)

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/diff-helpers.sh"
require_gnu_ cp
require_mpicp_

# Started without mpirun it is a job of one rank, as from a shell.
mpicp --version > version || fail=1
cp --version | sed '1s/^cp /mpicp /' > exp-version || framework_failure_
compare exp-version version || fail=1
grep '^mpicp (cpdd) ' version > /dev/null || fail=1

# cp's help with the program's name changed where it is named.
mpicp --help > help || fail=1
cp --help | sed -e 's/^Usage: cp /Usage: mpicp /' \
  -e 's/^  or:  cp /  or:  mpicp /' -e "s/ 'cp' process/ 'mpicp' process/" \
  -e 's/(cpdd) cp invocation/(cpdd) mpicp invocation/' \
  > exp-help || framework_failure_
compare exp-help help || fail=1

run_mpi_ () { mpirun_ 3 "$@"; }

# GNU's words, with mpicp's name.
mkdir d || framework_failure_
"$gnu_dir_/cp" -a missing d 2> gnu-err && framework_failure_
sed 's/^[^:]*: /mpicp: /' gnu-err > exp-err || framework_failure_
run_mpi_ mpicp -a missing d 2> err
test $? = 1 || fail=1
compare exp-err err || fail=1

run_mpi_ mpicp --no-such-option d 2> err
test $? = 1 || fail=1
cat > exp-err <<'EOF'
mpicp: unrecognized option '--no-such-option'
Try 'mpicp --help' for more information.
EOF
compare exp-err err || fail=1

Exit $fail
