#!/bin/bash
# run.sh: runs every fuzz target for a while, as many at once as there are cores (each target is
# one process on one core), and says what each did.
# usage: tests/fuzz/run.sh [SECONDS_PER_TARGET (60)] [BUILD_DIR (build-fuzz)] [TARGET=SECONDS...]
# A TARGET=SECONDS argument gives that target its own time (CI gives the slow targets more).
# SRCLS_FUZZ_JOBS=N runs N targets at once (default: the number of cores, `nproc`); the longest
# targets start first. The summary is printed in the targets' order whatever finishes first.
#
# BUILD_DIR must be configured for fuzzing (clang, libFuzzer, sanitizers):
#   CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false
# It builds the targets, regenerates the seeds and dictionaries (make_corpus.py) into
# BUILD_DIR/fuzz/, and keeps each target's growing corpus in BUILD_DIR/fuzz/corpus/TARGET across
# runs; each run starts by running that corpus, the seeds and tests/fuzz/regressions/TARGET/
# (a target runs all of them however short its time). Per target it prints executions, exec/s,
# coverage (cov, ft) and corpus size; it exits non-zero when any target crashed, leaked, timed
# out or ran out of memory, and prints the file that reproduces it (copy it into
# tests/fuzz/regressions/TARGET/ once the bug is fixed).
set -u

seconds=${1:-60}
build=${2:-build-fuzz}
here=$(cd "$(dirname "$0")" && pwd)
targets=(fuzz_parse fuzz_analysis fuzz_lsp fuzz_framing fuzz_update fuzz_kind_file fuzz_project)
declare -A own_seconds=()
for spec in "${@:3}"; do
    name=${spec%%=*}
    value=${spec#*=}
    if [[ " ${targets[*]} " != *" $name "* || ! $value =~ ^[0-9]+$ ]]; then
        echo "run.sh: '$spec' is not TARGET=SECONDS (targets: ${targets[*]})" >&2
        exit 2
    fi
    own_seconds[$name]=$value
done

# Longest input per target: enough for documents with several kinds of trouble in them, small
# enough that each input stays fast (fuzz_analysis probes every offset of small inputs).
max_len() {
    case $1 in
    fuzz_analysis | fuzz_update) echo 4096 ;;
    *) echo 16384 ;;
    esac
}

dictionary() {
    case $1 in
    fuzz_parse | fuzz_analysis | fuzz_update | fuzz_kind_file | fuzz_project) echo json.dict ;;
    *) echo lsp.dict ;;
    esac
}

if [ ! -f "$build/build.ninja" ]; then
    echo "run.sh: $build is not a meson build directory; set it up with" >&2
    echo "  CC=clang meson setup $build -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false" >&2
    exit 2
fi
if ! ninja -C "$build" "${targets[@]/#/tests/fuzz/}" >/dev/null; then
    echo "run.sh: building the fuzz targets failed (is $build configured with -Dfuzz=true?)" >&2
    ninja -C "$build" "${targets[@]/#/tests/fuzz/}" | tail -20 >&2
    exit 2
fi

work=$build/fuzz
rm -rf "$work/seeds"
python3 "$here/make_corpus.py" "$work/seeds" || exit 2

# UBSan must stop at the first finding, as ASan does, or libFuzzer never sees it.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}

# run_target TARGET: fuzzes TARGET for its time; writes its summary line into
# $work/logs/TARGET.summary and, when it failed, what reproduces it into $work/logs/TARGET.failure.
run_target() {
    local target=$1
    corpus=$work/corpus/$target
    artifacts=$work/artifacts/$target/
    log=$work/logs/$target.log
    # The target's regression inputs run first with the seeds (libFuzzer writes only into the
    # first directory, the corpus).
    regressions=()
    [ -d "$here/regressions/$target" ] && regressions=("$here/regressions/$target")
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    target_seconds=${own_seconds[$target]:-$seconds}
    rm -f "$work/logs/$target.failure"
    echo "== $target: ${target_seconds}s (log: $log)"
    "$build/tests/fuzz/$target" \
        -dict="$work/seeds/$(dictionary "$target")" \
        -max_len="$(max_len "$target")" \
        -timeout=10 -rss_limit_mb=2048 \
        -max_total_time="$target_seconds" -print_final_stats=1 \
        -artifact_prefix="$artifacts" \
        "$corpus" "$work/seeds/$target" "${regressions[@]}" >"$log" 2>&1
    status=$?
    # The last status line ("#N DONE cov: C ft: F corp: U/S ...") or, after a crash, the last
    # progress line; then the final stats.
    line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|INITED|NEW|REDUCE|pulse)' "$log" | tail -1)
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$line")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$line")
    corp=$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$line")
    execs=$(sed -nE 's/^stat::number_of_executed_units: ([0-9]+)/\1/p' "$log")
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
    files=$(find "$corpus" -type f | wc -l)
    result=ok
    if [ "$status" -ne 0 ]; then
        result="FAILED (status $status)"
        {
            echo "== $target failed:"
            grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error|invariant broken|SUMMARY' "$log" | head -5
            grep -E 'Test unit written to|artifact_prefix' "$log" | sed 's/^/  /'
        } >"$work/logs/$target.failure"
    fi
    printf '%-14s %5ss  execs %-10s exec/s %-7s cov %-6s ft %-7s corpus %s (%s files)  %s\n' \
        "$target" "$target_seconds" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" \
        "$files" "$result" >"$work/logs/$target.summary"
}

jobs=${SRCLS_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1
# Longest first, so the short ones fill in beside them.
order=$(for target in "${targets[@]}"; do
    echo "${own_seconds[$target]:-$seconds} $target"
done | sort -s -k1,1nr | cut -d' ' -f2)
mkdir -p "$work/logs"
rm -f "$work"/logs/*.summary "$work"/logs/*.failure
running=0
for target in $order; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    run_target "$target" &
    running=$((running + 1))
done
wait

failed=0
summary=()
for target in "${targets[@]}"; do
    if [ -f "$work/logs/$target.failure" ]; then
        failed=1
        cat "$work/logs/$target.failure"
    fi
    summary+=("$(cat "$work/logs/$target.summary" 2>/dev/null ||
        echo "$target: no summary (the run stopped before it ended)")")
done

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $failed
