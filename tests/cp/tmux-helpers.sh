# Helpers for the tests that run cp in a tmux pane and read its screen.
# Sourced after tests/init.sh, by a test that has made the FIFO "go".

# Each pane in a tmux server of its own, the last one's.
panes=0
tmux_ () { tmux -S "$PWD/tmux$panes.sock" -f /dev/null "$@"; }
cleanup_ ()
{
  while test $panes -gt 0; do
    tmux_ kill-server 2> /dev/null
    panes=$((panes - 1))
  done
}

# pane_ COLUMNS SCRIPT: run the shell commands SCRIPT in a new pane of
# COLUMNS x 12, once its output is logged, byte for byte, to the file
# raw; SCRIPT's exit status goes to the file rc.
pane_ ()
{
  rm -f raw rc || framework_failure_
  cat > run.sh <<PANE_EOF || framework_failure_
PATH='$PATH' LC_ALL=C && export PATH LC_ALL && cd '$PWD' || exit
read start < go
$2
echo \$? > rc
exec cat
PANE_EOF
  panes=$((panes + 1))
  tmux_ new-session -d -x $1 -y 12 "sh '$PWD/run.sh'" \
    || framework_failure_ "tmux cannot start"
  tmux_ pipe-pane -o "cat >> '$PWD/raw'" || framework_failure_
  echo > go || framework_failure_
}
