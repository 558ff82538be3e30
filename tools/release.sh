#!/usr/bin/env bash
# Builds every release artefact of srcls into dist/ (Debian or Ubuntu, x86-64; installs what is
# missing with apt-get, through sudo when not root):
#   srcls-linux-x86_64, srcls-linux-aarch64   static (libuv and glibc included), stripped
#   srcls.wasm, srcls-wasm.mjs                srcls as WebAssembly (server and --check), its runner
#                                             (node srcls-wasm.mjs --stdio|--check; Node 20+)
#   playground/                               the browser playground, a static site
#                                             (tools/playground.sh)
#   srcls-linux-x64.vsix, srcls-linux-arm64.vsix   the VS Code extension with the static binary
#   srcls-universal.vsix                      ... with the WebAssembly server, for every other
#                                             platform (macOS, Windows)
#   npm/                                      the npm packages (tools/npm-pack.sh): srcls (the
#                                             launcher, with srcls.wasm as its fallback),
#                                             @srcls/linux-x64, @srcls/linux-arm64; each a folder
#                                             and its `npm pack` .tgz, for `npm publish`
#   SHA256SUMS
# Release builds go to build-release-{x86_64,aarch64,wasm}/. Each artefact is run once before it
# is kept (the aarch64 binary under qemu-user). Stops at the first failure, saying which step.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dist=$root/dist
export DEBIAN_FRONTEND=noninteractive

step() { printf '\n== release: %s\n' "$*"; }
fail() { printf 'release: FAILED: %s\n' "$*" >&2; exit 1; }
trap 'fail "the command on line $LINENO exited with status $? (see above)"' ERR

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

step "packages"
added_arch=no
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "adding the arm64 architecture (for libuv1-dev:arm64)"
  $sudo dpkg --add-architecture arm64
  added_arch=yes
fi
packages=(gcc meson ninja-build pkg-config libuv1-dev file unzip
  gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libuv1-dev:arm64 qemu-user
  clang-14 lld-14 llvm-14 wasi-libc libclang-rt-14-dev-wasm32 nodejs npm)
missing=()
for p in "${packages[@]}"; do
  if [ "$p" = nodejs ] || [ "$p" = npm ]; then
    command -v "${p/nodejs/node}" >/dev/null 2>&1 || missing+=("$p")
  else
    installed "$p" || missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ] || [ "$added_arch" = yes ]; then
  echo "installing: ${missing[*]:-(none; package lists for arm64)}"
  $sudo apt-get update -qq
  [ ${#missing[@]} -eq 0 ] || $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "all present"
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || fail "vsce and the WebAssembly runner need Node 20 or later (found $(node --version))"

rm -rf "$dist"
mkdir -p "$dist"

# build DIR MESON-ARGS...: a release build of srcls in DIR (configured once, then rebuilt).
build() {
  local dir=$1
  shift
  mkdir -p "$dir"
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" -Dbuildtype=release -Dtests=false -Dwerror=true "$@" >"$dir/release-setup.log" 2>&1 ||
      { cat "$dir/release-setup.log" >&2; fail "meson setup $dir"; }
  fi
  ninja -C "$dir" >"$dir/release-build.log" 2>&1 || { tail -40 "$dir/release-build.log" >&2; fail "ninja -C $dir"; }
  # libuv's uv_os_get_passwd (which srcls never calls) makes glibc's static link warn about
  # getpwuid_r; any other linker warning is shown.
  grep -i "warning:" "$dir/release-build.log" | grep -v "getpwuid_r" || true
}

# keep_static BUILT OUT STRIP RUNNER...: checks that BUILT is static, strips it into dist/OUT and
# runs its --version (through RUNNER: env, or qemu-aarch64).
keep_static() {
  local built=$1 out=$2 strip=$3
  shift 3
  file -b "$built" | grep -q "statically linked" || fail "$built is not statically linked: $(file -b "$built")"
  "$strip" -o "$dist/$out" "$built"
  local version
  version=$("$@" "$dist/$out" --version) || fail "$out --version"
  echo "$out: $version, $(stat -c %s "$dist/$out") bytes ($(file -b "$dist/$out" | cut -d, -f1-2))"
}

step "Linux x86-64: static build"
build build-release-x86_64 -Dstatic=true
keep_static build-release-x86_64/server/srcls srcls-linux-x86_64 strip env

step "Linux aarch64: static cross build (run under qemu-aarch64)"
build build-release-aarch64 --cross-file tools/aarch64-linux-gnu.ini -Dstatic=true
keep_static build-release-aarch64/server/srcls srcls-linux-aarch64 aarch64-linux-gnu-strip qemu-aarch64

step "WebAssembly (WASI): the language server"
if [ ! -f build-release-wasm/build.ninja ]; then
  # meson 1.0 has no @DIRNAME@ in machine files: this one names tools/ for wasm32-wasi.ini.
  mkdir -p build-release-wasm
  printf "[constants]\ntools = '%s'\n" "$root/tools" >build-release-wasm/tools.ini
fi
build build-release-wasm --cross-file build-release-wasm/tools.ini --cross-file tools/wasm32-wasi.ini
llvm-strip-14 -o "$dist/srcls.wasm" build-release-wasm/server/srcls.wasm
cp server/main/srcls-wasm.mjs "$dist/srcls-wasm.mjs"
version=$(node "$dist/srcls-wasm.mjs" --version) || fail "node dist/srcls-wasm.mjs --version"
echo "srcls.wasm: $version, $(stat -c %s "$dist/srcls.wasm") bytes"

step "browser playground: dist/playground/"
bash tools/playground.sh

step "npm packages: dist/npm/"
bash tools/npm-pack.sh "$dist/npm" "$dist/srcls.wasm" "$dist/srcls-wasm.mjs" \
  --linux-x64 "$dist/srcls-linux-x86_64" --linux-arm64 "$dist/srcls-linux-aarch64"

step "VS Code extension: .vsix per platform"
vscode=editors/vscode
if [ ! -d "$vscode/node_modules" ]; then
  (cd "$vscode" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
bundle() { node "$vscode/scripts/bundle-server.js" "$@" >/dev/null; }
package() {
  (cd "$vscode" && npx --no-install vsce package --allow-missing-repository "$@" >/dev/null) ||
    fail "vsce package $*"
}
trap 'bundle --clean' EXIT
bundle --clean
bundle "$dist/srcls-linux-x86_64" --target linux-x64
package --target linux-x64 --out "$dist/srcls-linux-x64.vsix"
bundle --clean
bundle "$dist/srcls-linux-aarch64" --target linux-arm64
package --target linux-arm64 --out "$dist/srcls-linux-arm64.vsix"
bundle --clean
bundle --wasm "$dist"
package --out "$dist/srcls-universal.vsix"
bundle --clean
for v in "$dist"/*.vsix; do
  echo "$(basename "$v"): $(stat -c %s "$v") bytes, server: $(unzip -Z1 "$v" | grep '^extension/bin/.' | grep -v '/$' | tr '\n' ' ')"
done

step "checksums"
(cd "$dist" && sha256sum srcls-linux-x86_64 srcls-linux-aarch64 srcls.wasm srcls-wasm.mjs ./*.vsix npm/*.tgz \
  | sed 's| \./| |' >SHA256SUMS)
ls -l "$dist"
echo "release: done, in dist/"
