#!/usr/bin/env bash
# The full sweeps of tests/faults (README.md): every allocation of each run below made to fail,
# one run per allocation, then the machine faults. Prints the figures; exit 0 when all held.
# Usage: tests/faults/run.sh [BUILD_DIR]   (default build; the plain build, not a sanitized one)
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
srcls=$build/server/srcls
shim=$build/tests/faults/faultshim.so
sweep=tests/faults/sweep.py
project=tests/faults/project
[ -x "$srcls" ] && [ -f "$shim" ] || { echo "build first: ninja -C $build"; exit 2; }
status=0
run() { python3 "$sweep" "$shim" "$@" || status=1; }
for format in $("$srcls" --generate-docs formats); do
  run --name "--check docs/examples --format $format" -- "$srcls" --check --format "$format" docs/examples
done
run --name "--check docs/examples --jobs 1" -- "$srcls" --check --jobs 1 docs/examples
run --name "project --env" --cwd "$project" -- "$srcls" --check --env prod.env src
run --name "project --format sarif" --cwd "$project" -- "$srcls" --check --format sarif src
run --name "project --format json" --cwd "$project" -- "$srcls" --check --format json src
# --write-baseline writes: in a copy, one run at a time
copy=$(mktemp -d "${TMPDIR:-/tmp}/srcls-project-XXXXXX")
cp -r "$project/." "$copy/"
run --name "project --write-baseline" --jobs 1 --cwd "$copy" -- "$srcls" --check --write-baseline out.json src
rm -rf "$copy"
# --fix rewrites: each run in a fresh copy of docs/examples, one at a time
run --name "--fix docs/examples" --jobs 1 --copy docs/examples -- "$srcls" --check --fix --jobs 1 .
# --base HEAD in a git repository made once from the project
bash tests/faults/base.sh "$srcls" "$shim" || [ $? -eq 77 ] || status=1
session=$(mktemp "${TMPDIR:-/tmp}/srcls-session-XXXXXX")
python3 tests/faults/lsp_script.py docs/examples/bad-object-storage.source.json "$project" "$session"
run --name "an editor session (tests/faults/lsp_script.py)" --lsp "$session" -- "$srcls"
rm -f "$session"
bash tests/faults/machine.sh "$srcls" docs/examples || [ $? -eq 77 ] || status=1
exit $status
