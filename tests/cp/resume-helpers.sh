# resume-helpers.sh -- an interrupted copy and its resumption, for the
# tests of cp --resume.  Sourced after init.sh, diff-helpers.sh and
# rel-helpers.sh (require_faultshim_ called).

# resume_tree_ DIR: a tree with a bit of everything cp -a keeps: files
# large and small, empty, sparse, hard links, symbolic links, a FIFO,
# modes, and times set apart from now.
resume_tree_ ()
{
  mkdir -p "$1/sub/deeper" || framework_failure_
  head -c 5000000 /dev/urandom > "$1/big" || framework_failure_
  head -c 3000000 /dev/urandom > "$1/sub/mid" || framework_failure_
  for i in 1 2 3 4 5; do
    echo "small $i" > "$1/sub/s$i" || framework_failure_
  done
  : > "$1/empty" || framework_failure_
  truncate -s 3M "$1/sparse" \
    && printf 'tail' | dd of="$1/sparse" bs=1 seek=2500000 conv=notrunc \
         status=none || framework_failure_
  ln "$1/sub/mid" "$1/sub/deeper/mid-link" || framework_failure_
  ln -s ../big "$1/sub/to-big" || framework_failure_
  mkfifo "$1/sub/fifo" || framework_failure_
  chmod 640 "$1/sub/s2" && chmod 750 "$1/sub/deeper" || framework_failure_
  find "$1" -exec touch -h -d '2001-02-03 04:05:06.123456789' {} + \
    || framework_failure_
}

# same_tree_ A B: whether the trees A and B are alike, every entry's
# kind, mode, owner, size, links, data and time to the nanosecond;
# show how they differ if not.
same_tree_ ()
{
  DIFF_TIMES=ns tree_digest_ "$1" > tree-a || framework_failure_
  DIFF_TIMES=ns tree_digest_ "$2" > tree-b || framework_failure_
  compare tree-a tree-b
}

# kill_at_ OFFSET GLOB CMD...: run CMD with the write that reaches
# OFFSET of the file whose name matches GLOB stalled, then kill it with
# SIGKILL there: the copy is cut short at a known point, whatever the
# machine's speed.  Fail the test if it never gets there.
kill_at_ ()
{
  ka_at_=$1 ka_glob_=$2
  shift 2
  rm -f stalled || framework_failure_
  ( LD_PRELOAD=$faultshim_ FAULT_OP=$rel_write_ops_ FAULT_FD_PATH=$ka_glob_ \
      FAULT_AT=$ka_at_ FAULT_MODE=pause FAULT_FLAG="$PWD/stalled" \
      FAULT_DISABLE=copy_file_range \
    && export LD_PRELOAD FAULT_OP FAULT_FD_PATH FAULT_AT FAULT_MODE \
         FAULT_FLAG FAULT_DISABLE \
    && exec "$@" ) > killed.out 2> killed.err < /dev/null &
  ka_pid_=$!
  wait_until_ 600 stalled_or_ended_ $ka_pid_
  test -e stalled || { echo "never stalled at $ka_at_: $*"; fail=1; }
  kill -KILL $ka_pid_ 2>/dev/null
  wait $ka_pid_
  rm -f stalled
}

# stat_figure_ WHAT FILE: the number --stats printed in FILE before
# WHAT ("copied" or "skipped"), 0 if none.
stat_figure_ ()
{
  sed -n "s/^\([0-9][0-9]*\) bytes.* $1[ ,].*/\1/p" "$2" | grep . || echo 0
}
