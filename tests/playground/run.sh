#!/usr/bin/env bash
# The browser playground (dist/playground/, built by tools/playground.sh) in Debian's Chromium,
# headless: playground.test.js. Exit 77 (skipped), saying why, where node, Debian's chromium, the
# built site or playground/'s npm install (tools/playground.sh does both) is missing.
#
#   SRCLS_SOURCE_ROOT=. tests/playground/run.sh
# Screenshots go to SRCLS_SCREENSHOTS (meson: build/meson-logs/playground).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="${SRCLS_SOURCE_ROOT:-$(cd "$here/../.." && pwd)}"
root="$(cd "$root" && pwd)"
site="${SRCLS_PLAYGROUND:-$root/dist/playground}"
chromium="${SRCLS_CHROMIUM:-/usr/bin/chromium}"

skip() {
  echo "SKIP: $*"
  exit 77
}
command -v node >/dev/null 2>&1 || skip "node is not installed"
[ -x "$chromium" ] || skip "Debian's chromium ($chromium) is not installed"
[ -f "$site/index.html" ] || skip "no playground at $site: run bash tools/playground.sh"
[ -d "$root/playground/node_modules/puppeteer-core" ] || skip "puppeteer-core is not installed: run bash tools/playground.sh"
newer="$(find "$root/playground/src" "$root/docs/examples" -newer "$site/index.html" -type f -print -quit)"
[ -z "$newer" ] || echo "warning: $newer is newer than $site: bash tools/playground.sh rebuilds it" >&2

export SRCLS_SOURCE_ROOT="$root" SRCLS_PLAYGROUND="$(cd "$site" && pwd)" SRCLS_CHROMIUM="$chromium"
cd "$here" && exec node --test-reporter=spec --test playground.test.js
