# tools-dir.sh -- sourced by tests/bench/*.sh after init.sh.

# tools_dir_ DIR PROG...: make DIR hold links to just the PROGs found
# in /bin or /usr/bin, so that a test can hide every other program
# from cpdd-bench by making DIR its whole PATH.
tools_dir_ ()
{
  tools_dir=$1
  shift
  mkdir "$tools_dir" || framework_failure_
  for prog; do
    for dir in /bin /usr/bin; do
      if test -x $dir/$prog; then
        ln -s $dir/$prog "$tools_dir/$prog" || framework_failure_
        break
      fi
    done
  done
}

# What cpdd-bench needs whatever it measures.
bench_tools_='awk sed rm mkdir cat dd cmp sort ls df sync grep dirname perl time'
