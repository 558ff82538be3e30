#!/usr/bin/env bash
# Writes srcls's npm packages (the esbuild/Biome convention: a launcher package, one package
# per platform holding its binary, chosen by npm through their `os`/`cpu` fields):
#   OUT/srcls/              `srcls`: bin/srcls.js (tools/npm/srcls.js), wasm/srcls.wasm and its
#                           runner (the fallback on every other platform), README.md, LICENSE;
#                           optionalDependencies on the platform packages written
#   OUT/linux-x64/          `@srcls/linux-x64`   (os linux, cpu x64):   srcls, the binary
#   OUT/linux-arm64/        `@srcls/linux-arm64` (os linux, cpu arm64): srcls, the binary
# and each packed by `npm pack` into OUT/*.tgz, ready for `npm publish`. One version for all:
# meson.build's.
#   tools/npm-pack.sh OUT WASM RUNNER [--linux-x64 BINARY] [--linux-arm64 BINARY]
# tools/release.sh passes the static release binaries; tests/npm/registry.sh passes build/'s
# (dynamically linked: fine for a test) and leaves out the arm64 package when there is no arm64
# build. A platform left out is left out of optionalDependencies too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: tools/npm-pack.sh OUT WASM RUNNER [--linux-x64 BINARY] [--linux-arm64 BINARY]" >&2; exit 2; }
[ $# -ge 3 ] || usage
out=$1 wasm=$2 runner=$3
shift 3
declare -A binaries=()
while [ $# -gt 0 ]; do
  case "$1" in
    --linux-x64 | --linux-arm64) [ $# -ge 2 ] || usage; binaries[${1#--}]=$2; shift 2 ;;
    *) usage ;;
  esac
done
for f in "$wasm" "$runner" "${binaries[@]}"; do
  [ -f "$f" ] || { echo "npm-pack: no such file: $f" >&2; exit 2; }
done
version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$root/meson.build" | head -n 1)
[ -n "$version" ] || { echo "npm-pack: no version in meson.build" >&2; exit 2; }
homepage=https://github.com/srcls/srcls
description="Language server and CI linter for a query engine's data-source and job JSON documents"

rm -rf "$out/srcls" "$out/linux-x64" "$out/linux-arm64"
mkdir -p "$out"
out=$(cd "$out" && pwd)

optional="" platforms=""
for platform in linux-x64 linux-arm64; do
  [ -n "${binaries[$platform]:-}" ] || continue
  name=@srcls/$platform cpu=${platform#linux-} dir=$out/$platform
  mkdir -p "$dir"
  install -m 755 "${binaries[$platform]}" "$dir/srcls"
  cp "$root/LICENSE" "$dir/"
  printf '# %s\n\nThe srcls binary for Linux %s, for the `srcls` npm package, which runs it: install\n`srcls`, not this. %s\n' \
    "$name" "$cpu" "$homepage" >"$dir/README.md"
  cat >"$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "$version",
  "description": "The srcls binary for Linux $cpu (installed by the srcls package)",
  "license": "MIT",
  "homepage": "$homepage",
  "repository": { "type": "git", "url": "git+$homepage.git" },
  "os": ["linux"],
  "cpu": ["$cpu"],
  "files": ["srcls"],
  "preferUnplugged": true,
  "publishConfig": { "access": "public" }
}
JSON
  optional+="${optional:+,}
    \"$name\": \"$version\""
  platforms+="${platforms:+,}
  \"linux $cpu\": \"$name\""
done

dir=$out/srcls
mkdir -p "$dir/bin" "$dir/wasm"
install -m 755 "$root/tools/npm/srcls.js" "$dir/bin/srcls.js"
printf '{%s\n}\n' "$platforms" >"$dir/bin/platforms.json"
install -m 644 "$wasm" "$dir/wasm/srcls.wasm"
install -m 644 "$runner" "$dir/wasm/srcls-wasm.mjs"
cp "$root/LICENSE" "$root/tools/npm/README.md" "$dir/"
cat >"$dir/package.json" <<JSON
{
  "name": "srcls",
  "version": "$version",
  "description": "$description",
  "license": "MIT",
  "homepage": "$homepage",
  "repository": { "type": "git", "url": "git+$homepage.git" },
  "keywords": ["language-server", "lsp", "linter", "json"],
  "bin": { "srcls": "bin/srcls.js" },
  "files": ["bin", "wasm"],
  "engines": { "node": ">=18" },
  "optionalDependencies": {$optional
  }
}
JSON

rm -f "$out"/*.tgz
for d in "$out"/srcls "$out"/linux-*; do
  [ -d "$d" ] || continue
  (cd "$d" && npm pack --pack-destination "$out" --loglevel=error >/dev/null)
done
for t in "$out"/*.tgz; do
  echo "npm-pack: $(basename "$t"): $(stat -c %s "$t") bytes"
done
