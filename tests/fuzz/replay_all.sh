#!/bin/sh
# replay_all.sh: the fuzz_replay and fuzz_corpus tests. Runs each target over every input kept
# for it: REGRESSIONS/TARGET/ (every input that ever crashed it or broke one of its invariants),
# its seeds, which make_corpus.py generates into SEEDS/TARGET/ (as run.sh does), and EXAMPLES.
# usage: replay_all.sh [--libfuzzer] REGRESSIONS EXAMPLES SEEDS EXECUTABLE...
# An EXECUTABLE is TARGET_replay (replay_main.c, any build) or, with --libfuzzer, the libFuzzer
# target itself (-Dfuzz=true), which runs the inputs once (-runs=0) and fuzzes nothing.
set -eu
libfuzzer=0
if [ "${1:-}" = --libfuzzer ]; then
    libfuzzer=1
    shift
fi
regressions=$1
examples=$2
seeds=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$seeds"
python3 "$here/make_corpus.py" "$seeds" >/dev/null
status=0
for exe in "$@"; do
    target=$(basename "$exe" _replay)
    inputs="$seeds/$target $examples"
    [ -d "$regressions/$target" ] && inputs="$regressions/$target $inputs"
    started=$(date +%s)
    echo "== $target: $(find $inputs -type f | wc -l) files ($inputs)"
    if [ $libfuzzer = 1 ]; then
        # shellcheck disable=SC2086 # the directories are separate arguments
        "$exe" -runs=0 -artifact_prefix="$seeds/$target-" $inputs >"$seeds/$target.log" 2>&1 || {
            tail -40 "$seeds/$target.log" >&2
            echo "FAILED: $target (log: $seeds/$target.log)" >&2
            status=1
        }
    elif ! "$exe" $inputs 2>"$seeds/$target.log"; then
        tail -40 "$seeds/$target.log" >&2
        echo "FAILED: $target (log: $seeds/$target.log)" >&2
        status=1
    fi
    echo "   $(( $(date +%s) - started )) s"
done
exit $status
