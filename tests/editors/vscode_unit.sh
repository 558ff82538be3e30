#!/usr/bin/env bash
# The VS Code extension's own tests (editors/vscode/test, node's built-in runner): its logic,
# its manifest, the .vsix that vsce builds, and the settings it sends, against the real server.
# Exit 77 (skipped) when node or the extension's node_modules (npm ci) are missing.
#
#   SRCLS_BINARY=build/server/srcls SRCLS_SOURCE_ROOT=. tests/editors/vscode_unit.sh
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="${SRCLS_SOURCE_ROOT:-$(cd "$here/../.." && pwd)}"
ext="$root/editors/vscode"

if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed"
  exit 77
fi
if [ ! -d "$ext/node_modules/vscode-languageclient" ]; then
  echo "SKIP: $ext/node_modules is missing (run npm ci in editors/vscode)"
  exit 77
fi
if [ -n "${SRCLS_BINARY:-}" ]; then
  SRCLS_BINARY="$(cd "$(dirname "$SRCLS_BINARY")" && pwd)/$(basename "$SRCLS_BINARY")"
  export SRCLS_BINARY
fi
export SRCLS_SOURCE_ROOT="$root"
cd "$ext" && exec npm test --silent
