# shellcheck shell=bash disable=SC2154 # $root: the sourcing script's
# Sourced by tests/wasm_lsp.sh and tests/wasm_check.sh (with $root set and skip() defined): sets
# `wasm` to $1, else $SRCLS_WASM, else the newer of dist/srcls.wasm (tools/release.sh) and
# build-wasm/server/srcls.wasm (a development build, tools/wasm32-wasi.ini), and `runner` to $2,
# else the srcls-wasm.mjs beside it, else server/wasm's; skips (77) without one, or without
# node 20 or later.
wasm=${1:-${SRCLS_WASM:-}}
if [ -z "$wasm" ]; then
  # the newer of the two, so that a stale one is not tested by mistake
  wasm=$(ls -t "$root/dist/srcls.wasm" "$root/build-wasm/server/srcls.wasm" 2>/dev/null | head -n 1 || true)
fi
[ -n "$wasm" ] && [ -f "$wasm" ] ||
  skip "no srcls.wasm (in dist/ or build-wasm/server/): tools/release.sh builds it, or a" \
    "development build as tools/wasm32-wasi.ini says"
wasm=$(cd "$(dirname "$wasm")" && pwd)/$(basename "$wasm")
runner=${2:-$(dirname "$wasm")/srcls-wasm.mjs}
[ -f "$runner" ] || runner=$root/server/wasm/srcls-wasm.mjs
command -v node >/dev/null || skip "node is not installed"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] ||
  skip "srcls-wasm.mjs, the WebAssembly build's runner, needs node 20 or later (found $(node --version))"
