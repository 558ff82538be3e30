#!/bin/sh
# docs/kinds.md and docs/rules.md are generated from the schema and the code table; this test
# fails when they drift. Regenerate with: build/server/srcls --generate-docs kinds > docs/kinds.md
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
exit $status
