#!/usr/bin/env bash
# Quick start, step 1: install what is missing (Debian/Ubuntu), build srcls into build/, and run
# it on the bundled examples. Ends with status 0 when set-up worked, whatever the examples hold.
set -euo pipefail
cd "$(dirname "$0")/.."

# The build needs a compiler, meson, ninja, pkg-config, libuv and cmocka; the test suite also
# runs the language-server tests under node, the plugin test in Neovim, and the Mason package
# definition against its schema (python3-yaml, python3-jsonschema); strace counts the system
# calls per file of --check (tests/syscalls.py).
packages=(gcc meson ninja-build pkg-config libuv1-dev libcmocka-dev neovim valgrind strace python3 unzip git
  python3-yaml python3-jsonschema)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The npm client libraries the LSP tests and the VS Code extension use (lockfiles committed).
for dir in tests/lsp editors/vscode; do
  # again when the lockfile is newer than what was installed (a dependency was added)
  if [ -f "$dir/package-lock.json" ] && { [ ! -d "$dir/node_modules" ] ||
      [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; }; then
    echo "setup: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
done

if [ ! -f build/build.ninja ]; then
  meson setup build -Dwerror=true >/dev/null
fi
ninja -C build >/dev/null
echo "setup: built $(build/server/srcls --version); checking docs/examples/"
status=0
build/server/srcls --check docs/examples/ || status=$?
if [ "$status" -gt 1 ]; then
  echo "setup: srcls could not read the examples (status $status)" >&2
  exit "$status"
fi
echo "setup: done (the examples named bad-* hold mistakes on purpose)."
