#!/bin/sh
# Generated files that are committed: docs/kinds.md and docs/rules.md (from the schema and the
# code table), editors/vscode/schemas/ (--export-json-schema, the export docs/json-schema.md
# points VS Code users to) and the layer tables of docs/architecture.md (from server/layers.json);
# this test fails when they drift (the generated code lists of the man page and the bash
# completion: tests/shell_docs.py). Regenerate with:
#   build/server/srcls --generate-docs kinds > docs/kinds.md
#   python3 tests/layers.py --write-docs .
#   rm -r editors/vscode/schemas && build/server/srcls --export-json-schema editors/vscode/schemas
set -eu
srcls=$1
root=$2
status=0
for what in kinds rules; do
  if ! "$srcls" --generate-docs "$what" | diff -u "$root/docs/$what.md" - >/dev/null; then
    echo "docs/$what.md is out of date: run '$srcls --generate-docs $what > docs/$what.md'"
    status=1
  fi
done
python3 "$root/tests/layers.py" --check-docs "$root" || status=1
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
"$srcls" --export-json-schema "$fresh/schemas"
# Every exported object has each key once (JSON Schema validators keep only one of two).
python3 - "$fresh/schemas" <<'PY' || status=1
import glob, json, os, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError("keys written twice in one object: %s" % ", ".join(twice))
    return dict(pairs)
bad = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    try:
        json.load(open(path, encoding="utf-8"), object_pairs_hook=once)
    except ValueError as e:
        print("--export-json-schema: %s: %s" % (os.path.basename(path), e))
        bad = 1
sys.exit(bad)
PY
if ! diff -r "$root/editors/vscode/schemas" "$fresh/schemas" >/dev/null; then
  echo "editors/vscode/schemas is out of date: run 'rm -r editors/vscode/schemas &&" \
    "$srcls --export-json-schema editors/vscode/schemas'"
  status=1
fi
exit $status
