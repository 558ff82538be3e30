#!/usr/bin/env bash
# The Linux aarch64 release binary under qemu-user: --version, --check of docs/examples/ (the
# same report, byte for byte, and the same exit status as the native build's), then the whole
# language-server suite (tests/lsp) with it as the server and as the --check oracle.
#   tests/aarch64_qemu.sh [BINARY]     (default dist/srcls-linux-aarch64, from tools/release.sh)
# Exits 77 (meson: SKIP), saying why, when the binary, qemu-aarch64, node or `npm ci` in
# tests/lsp is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }

binary=${1:-$root/dist/srcls-linux-aarch64}
[ -f "$binary" ] || skip "no $binary: tools/release.sh builds it"
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
qemu=${SRCLS_QEMU:-qemu-aarch64}
command -v "$qemu" >/dev/null || skip "$qemu is not installed (Debian: qemu-user)"
command -v node >/dev/null || skip "node is not installed"
[ -d "$root/tests/lsp/node_modules" ] || skip "no tests/lsp/node_modules: run npm ci in tests/lsp"
native=${SRCLS_CLI_BINARY:-$root/build/server/srcls}

echo "aarch64: $("$qemu" "$binary" --version) under $qemu"
cd "$root"
status=0
"$qemu" "$binary" --check --format json docs/examples/ >"${TMPDIR:-/tmp}/srcls-aarch64.json" || status=$?
[ "$status" -le 1 ] || { echo "FAIL: --check docs/examples/ exited $status"; exit 1; }
if [ -x "$native" ]; then
  native_status=0
  "$native" --check --format json docs/examples/ >"${TMPDIR:-/tmp}/srcls-native.json" || native_status=$?
  if [ "$status" -ne "$native_status" ] ||
    ! cmp -s "${TMPDIR:-/tmp}/srcls-aarch64.json" "${TMPDIR:-/tmp}/srcls-native.json"; then
    echo "FAIL: --check docs/examples/ differs from $native (status $status vs $native_status)"
    diff "${TMPDIR:-/tmp}/srcls-native.json" "${TMPDIR:-/tmp}/srcls-aarch64.json" | head -20
    exit 1
  fi
  echo "aarch64: --check docs/examples/ gives what $native gives (status $status)"
else
  echo "aarch64: --check docs/examples/ exited $status (no native build to compare with)"
fi

echo "aarch64: the language-server suite under $qemu"
cd "$root/tests/lsp"
SRCLS_START_MS=${SRCLS_START_MS:-8000} SRCLS_QEMU="$qemu" SRCLS_QEMU_TARGET="$binary" SRCLS_BINARY="$root/tests/lsp/srcls-qemu.sh" \
  node --require ./require-deps.js --test --test-concurrency=4 \
  lifecycle.test.js robustness.test.js diagnostics.test.js features.test.js completion.test.js \
  navigation.test.js workspace.test.js code_actions.test.js project.test.js sarif.test.js \
  custom_kinds.test.js
# (the files of the lsp test in tests/meson.build)
