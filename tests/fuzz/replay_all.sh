#!/bin/sh
# replay_all.sh: the fuzz_replay test. Runs each TARGET_replay executable over
# REGRESSIONS/TARGET/ (every input that ever crashed the target) and over EXAMPLES.
# usage: replay_all.sh REGRESSIONS EXAMPLES TARGET_replay...
set -eu
regressions=$1
examples=$2
shift 2
status=0
for exe in "$@"; do
    target=$(basename "$exe" _replay)
    echo "== $target"
    if ! "$exe" "$regressions/$target" "$examples"; then
        echo "FAILED: $target" >&2
        status=1
    fi
done
exit $status
