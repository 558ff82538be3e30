#!/bin/sh
# Generated files that are committed: docs/kinds.md and docs/rules.md (from the schema and the
# code table) and editors/vscode/schemas/ (--export-json-schema, the export docs/json-schema.md
# points VS Code users to); this test fails when they drift (the generated code lists of the man
# page and the bash completion: tests/shell_docs.py). Regenerate with:
#   build/server/srcls --generate-docs kinds > docs/kinds.md
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
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
"$srcls" --export-json-schema "$fresh/schemas"
if ! diff -r "$root/editors/vscode/schemas" "$fresh/schemas" >/dev/null; then
  echo "editors/vscode/schemas is out of date: run 'rm -r editors/vscode/schemas &&" \
    "$srcls --export-json-schema editors/vscode/schemas'"
  status=1
fi
exit $status
