#!/usr/bin/env bash
# Every allocation of `--check --base HEAD` made to fail (sweep.py), in a git repository made
# once from tests/faults/project: a commit, then a change the gate reviews (rules weakened in
# srcls.json and in the base.json it extends, a source edited). git itself is left alone (the
# shim takes itself out of it).
# Usage: base.sh SRCLS SHIM [SWEEP OPTIONS...]
set -eu
srcls=$1 shim=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
command -v git >/dev/null || { echo "SKIP: git is not installed"; exit 77; }
repo=$(mktemp -d "${TMPDIR:-/tmp}/srcls-base-XXXXXX")
trap 'rm -rf "$repo"' EXIT
cp -r "$here/project/." "$repo/"
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name=srcls -c user.email=srcls@example.invalid commit -qm base
sed -i 's/"secure": true/"secure": false/' "$repo/src/lake.source.json"
sed -i 's/"unknown-field": "error"/"unknown-field": "warning"/' "$repo/srcls.json"
sed -i 's/"kind-inferred": "off"/"kind-inferred": "off", "missing-required": "off"/' "$repo/base.json"
python3 "$here/sweep.py" "$shim" --name "project --base HEAD" "$@" --cwd "$repo" -- \
  "$srcls" --check --base HEAD src
