#!/usr/bin/env bash
# The language-server suite (tests/lsp) against srcls built as WebAssembly, run by node through
# srcls-wasm.mjs; the native binary ($SRCLS_CLI_BINARY) is the suite's --check and --list-kinds
# oracle, independent of the build under test (tests/wasm_check.sh compares the WebAssembly
# build's --check with it).
#   tests/wasm_lsp.sh [WASM] [RUNNER]
# WASM: default $SRCLS_WASM, else the newer of dist/srcls.wasm (tools/release.sh) and
# build-wasm/server/srcls.wasm (a development build, tools/wasm32-wasi.ini).
# RUNNER: default the srcls-wasm.mjs beside WASM, else server/main's.
# SRCLS_WASM_NO_POLL=1 makes the server wait without poll(), as it must on Windows.
# Exits 77 (meson: SKIP), saying why, when there is no WebAssembly build, no node 20 or no
# `npm ci` in tests/lsp.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }

# shellcheck source=tests/wasm_find.sh
. "$root/tests/wasm_find.sh"
[ -d "$root/tests/lsp/node_modules" ] || skip "no tests/lsp/node_modules: run npm ci in tests/lsp"
cli=${SRCLS_CLI_BINARY:-$root/build/server/srcls}
[ -x "$cli" ] || skip "no native srcls at $cli for the suite's --check oracle (set SRCLS_CLI_BINARY)"

# Every file of the lsp test in tests/meson.build but sarif.test.js, which tests --check alone
# (tests/wasm_check.sh runs it against the WebAssembly build's --check).
suites=(lifecycle.test.js robustness.test.js diagnostics.test.js features.test.js
  completion.test.js navigation.test.js workspace.test.js code_actions.test.js project.test.js
  custom_kinds.test.js review.test.js)
if [ -n "${SRCLS_WASM_NO_POLL:-}" ]; then
  # Without poll() only the wait for input differs (server/platform/wasi): the files that drive
  # the transport (start, shutdown, cancellation, broken framing, hostile messages, stdin closed
  # mid-message, the workspace's watched files); the handlers behind it are the ones the run
  # with poll() tests (diagnostics.test.js alone takes a minute this way: each wait is a timer).
  suites=(lifecycle.test.js robustness.test.js workspace.test.js)
fi
echo "wasm_lsp: $wasm, run by $runner; --check by $cli${SRCLS_WASM_NO_POLL:+; SRCLS_WASM_NO_POLL=$SRCLS_WASM_NO_POLL}; ${#suites[@]} files"
cd "$root/tests/lsp"
SRCLS_START_MS=${SRCLS_START_MS:-8000} SRCLS_WASM="$wasm" SRCLS_WASM_RUNNER="$runner" SRCLS_BINARY="$root/tests/lsp/srcls-wasm.sh" \
  SRCLS_CLI_BINARY="$cli" node --require ./require-deps.js --test --test-concurrency=4 "${suites[@]}"
