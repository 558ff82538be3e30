#!/usr/bin/env bash
# Faults of the machine other than memory (tests/faults/README.md): a full disk under --fix,
# --write-baseline and --output-file; SIGKILL at any moment of --fix on a 20 MB file; a closed
# pipe. Usage: machine.sh SRCLS EXAMPLES_DIR. Exit 0, 1 (a failure, said), or 77 (the full-disk
# part cannot run here: mounting a tmpfs needs root; said, after the other parts ran).
set -u
srcls=$1
examples=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/srcls-machine-XXXXXX")
failed=0
skipped=""
cleanup() {
  mountpoint -q "$work/full" 2>/dev/null && umount "$work/full"
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; failed=1; }

bad="$examples/bad-object-storage.source.json"

# ---- a full disk: a 64 KiB tmpfs, filled up ----
mkdir -p "$work/full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs "$work/full" 2>/dev/null; then
  full=$work/full
  cp "$bad" "$full/a.source.json"
  printf '{"version": 1, "findings": []}\n' >"$full/baseline.json"
  cp "$full/a.source.json" "$work/a.orig"
  cp "$full/baseline.json" "$work/baseline.orig"
  dd if=/dev/zero of="$full/filler" bs=1k count=64 2>/dev/null # ENOSPC from here on
  for action in fix write-baseline output-file; do
    case $action in
      fix) args=(--check --fix "$full/a.source.json") ;;
      write-baseline) args=(--check --write-baseline "$full/baseline.json" "$full/a.source.json") ;;
      output-file) args=(--check --output-file "$full/report.txt" "$full/a.source.json") ;;
    esac
    "$srcls" "${args[@]}" >"$work/out" 2>"$work/err"
    status=$?
    [ $status -eq 2 ] || fail "--$action on a full disk: exit status $status, not 2"
    grep -q "No space left on device" "$work/err" ||
      fail "--$action on a full disk: stderr does not name the error: $(cat "$work/err")"
    case $action in
      fix) grep -q "a.source.json" "$work/err" || fail "--fix: stderr does not name the file" ;;
      write-baseline) grep -q "baseline.json" "$work/err" || fail "--write-baseline: no file named" ;;
      output-file) grep -q "report.txt" "$work/err" || fail "--output-file: no file named" ;;
    esac
    cmp -s "$full/a.source.json" "$work/a.orig" || fail "--$action on a full disk changed the file"
    cmp -s "$full/baseline.json" "$work/baseline.orig" || fail "--$action changed the baseline"
    left=$(find "$full" -name '*.tmp' -o -name '.*srcls*' | head -1)
    [ -z "$left" ] || fail "--$action on a full disk left $left behind"
    rm -f "$full/report.txt"
  done
  umount "$full"
else
  skipped="the full-disk part: mounting a 64 KiB tmpfs needs root and mount(8) (uid $(id -u))"
fi

# ---- SIGKILL at any moment of --fix on a 20 MB file: the old bytes or the new, never a mix ----
# one source with fixes, then clean ones up to 20 MB
python3 - "$bad" "$examples/13-relational-db.source.json" "$work/old" <<'PY'
import json, sys
bad, good = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
out, size, i = [json.dumps(dict(bad, name="bad"))], 0, 0
while size < 20 * 1024 * 1024:
    text = json.dumps(dict(good, name="s%d" % i))
    out.append(text)
    size += len(text) + 2
    i += 1
open(sys.argv[3], "w").write("[\n" + ",\n".join(out) + "\n]\n")
PY
mkdir -p "$work/kill"
cp "$work/old" "$work/kill/big.source.json"
t0=$(date +%s%N)
"$srcls" --check --fix "$work/kill/big.source.json" >/dev/null 2>&1
full_ns=$(($(date +%s%N) - t0))
cp "$work/kill/big.source.json" "$work/new"
cmp -s "$work/old" "$work/new" && fail "--fix changed nothing in the 20 MB file: the test tests nothing"
kills=0
mixed=0
runs=10
for i in $(seq 1 $runs); do
  cp "$work/old" "$work/kill/big.source.json"
  "$srcls" --check --fix "$work/kill/big.source.json" >/dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v n="$full_ns" -v i="$i" -v r="$runs" 'BEGIN { printf "%.3f", n * i / r / 1e9 }')"
  kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
  wait "$pid" 2>/dev/null
  if ! cmp -s "$work/kill/big.source.json" "$work/old" &&
    ! cmp -s "$work/kill/big.source.json" "$work/new"; then
    mixed=$((mixed + 1))
  fi
  # a temporary file left by the kill is never checked as a document, nor fails the next run
  "$srcls" --check "$work/kill" >"$work/out" 2>"$work/err"
  status=$?
  [ $status -le 1 ] || fail "a run after a kill: exit status $status: $(cat "$work/err")"
  grep -q '\.tmp' "$work/out" && fail "a run after a kill checked a temporary file"
  rm -f "$work/kill"/.*.tmp
done
[ $mixed -eq 0 ] || fail "$mixed of $runs runs killed during --fix left a file neither old nor new"
echo "kill: $runs runs of --fix on a 20 MB file (alone: $((full_ns / 1000000)) ms) killed at 1/$runs .. $runs/$runs of that time ($kills while running): none mixed"

# ---- a closed pipe: srcls --check DIR | head -1 ends at once, at most one line on stderr ----
mkdir -p "$work/many"
for i in $(seq 1 400); do cp "$bad" "$work/many/f$i.source.json"; done
t0=$(date +%s%N)
( "$srcls" --check "$work/many" 2>"$work/err"; echo $? >"$work/status" ) | head -1 >/dev/null
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
status=$(cat "$work/status")
[ "$(wc -l <"$work/err")" -le 1 ] || fail "a closed pipe: more than one line on stderr: $(cat "$work/err")"
[ "$status" -ne 0 ] && [ "$status" -ne 1 ] || fail "a closed pipe: exit status $status as if all was written"
case $status in 2|141) ;; *) fail "a closed pipe: exit status $status (2, or SIGPIPE's 141)" ;; esac
echo "closed pipe: ended in $ms ms, exit status $status, $(wc -l <"$work/err") line(s) on stderr"

[ $failed -eq 0 ] || exit 1
if [ -n "$skipped" ]; then
  echo "SKIP: $skipped"
  exit 77
fi
echo "full disk: --fix, --write-baseline and --output-file on a full tmpfs: exit 2, file intact, no temporary file"
exit 0
