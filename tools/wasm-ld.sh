#!/bin/sh
# wasm-ld for meson's wasm32-wasi cross build (tools/wasm32-wasi.ini): meson 1.0 takes clang's lld
# for the ELF ld.lld and passes it ELF-only options (--start-group, --as-needed, ...) that
# wasm-ld 14 refuses; they mean nothing for WebAssembly, so they are dropped here.
for arg in "$@"; do
  shift
  case "$arg" in
    --start-group|--end-group|--as-needed|--no-as-needed|--no-undefined|--allow-shlib-undefined) ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec wasm-ld-14 "$@"
