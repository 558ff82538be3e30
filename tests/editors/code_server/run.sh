#!/usr/bin/env bash
# The srcls extension in a real VS Code (code-server in headless Chromium): vscode.test.js.
# Exit 77 (skipped), saying why, where node >= 20, Debian's chromium or ripgrep, or this folder's
# npm install (install.sh) is missing. Builds editors/vscode/srcls.vsix (npm run package) when
# it is missing or older than the extension's files, unless SRCLS_VSIX names one.
#
#   SRCLS_BINARY=build/server/srcls SRCLS_SOURCE_ROOT=. tests/editors/code_server/run.sh
# Screenshots and code-server's log go to SRCLS_SCREENSHOTS (meson: build/meson-logs/vscode-real).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="${SRCLS_SOURCE_ROOT:-$(cd "$here/../../.." && pwd)}"
ext="$root/editors/vscode"
chromium="${SRCLS_CHROMIUM:-/usr/bin/chromium}"

skip() {
  echo "SKIP: $*"
  exit 77
}
command -v node >/dev/null 2>&1 || skip "node is not installed"
major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$major" -ge 20 ] || skip "code-server 4.100.3 needs Node 20 or later (found $(node --version))"
[ -x "$chromium" ] || skip "Debian's chromium ($chromium) is not installed"
[ -x /usr/bin/rg ] || skip "Debian's ripgrep (/usr/bin/rg) is not installed"
vscode_modules="$here/node_modules/code-server/lib/vscode/node_modules"
[ -x "$vscode_modules/@vscode/ripgrep/bin/rg" ] && [ -d "$here/node_modules/puppeteer-core" ] ||
  skip "code-server is not installed: run bash tests/editors/code_server/install.sh"

SRCLS_BINARY="$(cd "$(dirname "${SRCLS_BINARY:-$root/build/server/srcls}")" && pwd)/$(basename "${SRCLS_BINARY:-srcls}")"
[ -x "$SRCLS_BINARY" ] || { echo "no srcls binary at $SRCLS_BINARY (ninja -C build)" >&2; exit 1; }
export SRCLS_BINARY SRCLS_SOURCE_ROOT="$root"

if [ -z "${SRCLS_VSIX:-}" ]; then
  SRCLS_VSIX="$ext/srcls.vsix"
  newer=""
  # (out/ is what packaging itself builds, and the extension's own tests rebuild it)
  [ -f "$SRCLS_VSIX" ] && newer="$(find "$ext" \( -path "$ext/node_modules" -o -path "$ext/test" \
    -o -path "$ext/out" \) -prune -o -type f ! -name '*.vsix' -newer "$SRCLS_VSIX" -print -quit)"
  if [ ! -f "$SRCLS_VSIX" ] || [ -n "$newer" ]; then
    [ -x "$ext/node_modules/.bin/vsce" ] || skip "no srcls.vsix and no vsce to build it (npm ci in editors/vscode)"
    echo "building $SRCLS_VSIX (${newer:-missing})"
    (cd "$ext" && npm run package --silent >/dev/null) || { echo "npm run package failed" >&2; exit 1; }
  fi
fi
[ -f "$SRCLS_VSIX" ] || { echo "SRCLS_VSIX=$SRCLS_VSIX does not exist" >&2; exit 1; }
export SRCLS_VSIX

cd "$here" && exec node --test-reporter=spec vscode.test.js
