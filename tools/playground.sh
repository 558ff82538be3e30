#!/usr/bin/env bash
# Builds the browser playground into dist/playground/: a static site (index.html, style.css,
# main.js and worker.js bundled by esbuild, srcls.wasm: the language server as a WebAssembly
# reactor) that any static file server can serve, and that asks nothing of any other origin.
#
#   bash tools/playground.sh            # also run by tools/release.sh
#
# Needs node 18 or later and npm (playground/package-lock.json: CodeMirror 6, the WASI shim,
# esbuild, puppeteer-core for its test, which downloads no browser), and the WebAssembly cross
# build's packages: clang-14 lld-14 llvm-14 wasi-libc libclang-rt-14-dev-wasm32. The reactor is
# built in build-release-wasm/ (set up here as tools/release.sh does when it is missing;
# SRCLS_WASM_BUILD names another). Prints the page weight.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/dist/playground
wasm_build=${SRCLS_WASM_BUILD:-build-release-wasm}

fail() { printf 'playground: FAILED: %s\n' "$*" >&2; exit 1; }
command -v node >/dev/null 2>&1 || fail "node is not installed"
command -v npm >/dev/null 2>&1 || fail "npm is not installed"
for tool in clang-14 wasm-ld-14 llvm-strip-14; do
  command -v "$tool" >/dev/null 2>&1 ||
    fail "$tool is missing (apt-get install clang-14 lld-14 llvm-14 wasi-libc libclang-rt-14-dev-wasm32)"
done
[ -f /usr/lib/wasm32-wasi/crt1-reactor.o ] || fail "wasi-libc is not installed (apt-get install wasi-libc)"

if [ ! -f "$wasm_build/build.ninja" ]; then
  # meson 1.0 has no @DIRNAME@ in machine files: this one names tools/ for wasm32-wasi.ini.
  mkdir -p "$wasm_build"
  printf "[constants]\ntools = '%s'\n" "$root/tools" >"$wasm_build/tools.ini"
  meson setup "$wasm_build" --cross-file "$wasm_build/tools.ini" --cross-file tools/wasm32-wasi.ini \
    -Dbuildtype=release -Dtests=false -Dwerror=true >"$wasm_build/playground-setup.log" 2>&1 ||
    { cat "$wasm_build/playground-setup.log" >&2; fail "meson setup $wasm_build"; }
fi
ninja -C "$wasm_build" server/srcls-reactor.wasm >/dev/null || fail "ninja -C $wasm_build server/srcls-reactor.wasm"

# npm ci once per package-lock.json (puppeteer-core would download nothing anyway: -core).
stamp=playground/node_modules/.srcls-installed
if [ ! -f "$stamp" ] || [ playground/package-lock.json -nt "$stamp" ]; then
  (cd playground && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) ||
    fail "npm ci in playground/"
  touch "$stamp"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
llvm-strip-14 -o "$tmp/srcls.wasm" "$wasm_build/server/srcls-reactor.wasm"
node playground/build.mjs "$out" "$tmp/srcls.wasm"
