#!/bin/sh
# cpdd-bench compare with stand-ins for cpdd's cp: variants whose
# options are rejected are skipped with a note; a variant that copies
# wrongly or fails is an error (exit 1) that does not stop the others.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src ./bench

# A cp that takes cpdd's options, except --io-method=offload, and
# --uncached when $FAKE_CP_OLD is set (as a cp older than that option),
# and misbehaves as the words of $FAKE_CP_BREAK tell it to: HOW:METHOD.
cat > fake-cp <<'EOF_' || framework_failure_
#!/bin/sh
case $1 in --version) echo 'cp (cpdd) 0-test'; exit 0 ;; esac
method=
while test $# -gt 2; do
  case $1 in
    --io-method=offload) echo "cp: unsupported method" >&2; exit 1 ;;
    --io-method=*) method=${1#*=} ;;
    --uncached)
      if test -n "$FAKE_CP_OLD"; then
        echo "cp: unrecognized option '--uncached'" >&2; exit 1
      fi ;;
    --direct | --buffer-size=*) ;;
    *) echo "cp: bad option $1" >&2; exit 1 ;;
  esac
  shift
done
big=false
test $(wc -c < "$1") -gt 100000 && big=true
case " $FAKE_CP_BREAK " in
  *" short:$method "*) head -c 1000 "$1" > "$2"; exit 0 ;;
  *" short-big:$method "*) $big && { head -c 1000 "$1" > "$2"; exit 0; } ;;
  *" fail-big:$method "*) $big && { echo "cp: boom" >&2; exit 3; } ;;
esac
exec /bin/cp "$1" "$2"
EOF_
chmod +x fake-cp || framework_failure_

common='--size 1M --runs 2 --pretouch 0 --no-syscalls --tools cp,cpdd-*'

cpdd-bench compare $common --cp fake-cp -o ok.csv . > out 2> err || fail=1
for m in read mmap auto; do
  for v in cpdd-$m cpdd-$m-direct cpdd-$m-8M; do
    grep "^hot,$v,2," ok.csv > /dev/null || { echo "no $v"; fail=1; }
  done
done
grep '^hot,cpdd-cp,2,' ok.csv > /dev/null || fail=1
grep "^hot,cpdd-direct,2,.*fake-cp' --direct '" ok.csv > /dev/null || fail=1
grep "^hot,cpdd-uncached,2,.*fake-cp' --uncached '" ok.csv > /dev/null \
  || fail=1
grep 'not run: cpdd-uncached' out && fail=1
grep offload ok.csv && fail=1
for v in cpdd-offload cpdd-offload-direct cpdd-offload-8M; do
  grep "^cpdd-bench: note: $v: failed on a small file: cp: unsupported method; skipped\$" \
    err > /dev/null || fail=1
  grep "^not run: $v: " out > /dev/null || fail=1
done
# The command column shows how each variant was run.
grep '^hot,cpdd-read-8M,.*fake-cp'"'"' --io-method=read --buffer-size=8M ' \
  ok.csv > /dev/null || fail=1

# A cp that does not know --uncached: only that variant is skipped.
FAKE_CP_OLD=1 cpdd-bench compare $common --cp fake-cp \
  --tools 'cpdd-uncached,cpdd-direct' -o old.csv . > out 2> err || fail=1
grep "^cpdd-bench: note: cpdd-uncached: failed on a small file: cp: unrecognized option '--uncached'; skipped\$" \
  err > /dev/null || fail=1
grep "^not run: cpdd-uncached: failed on a small file: " out > /dev/null \
  || fail=1
grep cpdd-uncached, old.csv && fail=1
grep '^hot,cpdd-direct,2,' old.csv > /dev/null || fail=1

# A wrong copy, found on the small probe file.
FAKE_CP_BREAK=short:mmap returns_ 1 cpdd-bench compare $common --cp fake-cp \
  --tools 'cpdd-read,cpdd-mmap' -o short.csv . > out 2> err || fail=1
grep '^cpdd-bench: cpdd-mmap: its copy of a small test file differs from the source$' \
  err > /dev/null || fail=1
grep cpdd-mmap, short.csv && fail=1
grep '^hot,cpdd-read,2,' short.csv > /dev/null || fail=1

# A failure in a timed run, and a wrong copy of the big file; each tool
# is dropped after its first failure.
FAKE_CP_BREAK='fail-big:auto short-big:read' returns_ 1 cpdd-bench compare \
  $common --cp fake-cp --tools 'cpdd-mmap,cpdd-auto,cpdd-read' -o big.csv . \
  > out 2> err || fail=1
grep '^cpdd-bench: cpdd-auto failed (exit status 3) in run 1: cp: boom$' \
  err > /dev/null || fail=1
grep '^cpdd-bench: cpdd-read: its copy differs from the source$' err \
  > /dev/null || fail=1
test "$(grep -c 'cpdd-auto failed' err)" = 1 || fail=1
grep 'cpdd-auto,\|cpdd-read,' big.csv && fail=1
grep '^hot,cpdd-mmap,2,' big.csv > /dev/null || fail=1

# CPDD_CP names the cp when --cp does not.
CPDD_CP=$PWD/fake-cp cpdd-bench compare $common --tools cpdd-read \
  -o env.csv . > out 2> err || fail=1
grep "^hot,cpdd-read,2,.*fake-cp' --io-method=read " env.csv > /dev/null \
  || fail=1

Exit $fail
