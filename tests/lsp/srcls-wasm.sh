#!/bin/sh
# The WebAssembly server as one executable, for tests that spawn SRCLS_BINARY: runs the runner
# ($SRCLS_WASM_RUNNER, default server/main/srcls-wasm.mjs) under node with the same arguments;
# the runner takes srcls.wasm from $SRCLS_WASM, else from beside itself.
here=$(dirname "$0")
exec node "${SRCLS_WASM_RUNNER:-$here/../../server/main/srcls-wasm.mjs}" "$@"
