# Sourced by the editor tests that drive a real editor against the server (nvim_plugin.sh,
# emacs_eglot.sh): `editor_env EDITOR "HOW TO INSTALL"` exits 77 (skipped) when the editor is
# not on PATH, 1 when the server is missing, and otherwise sets `here` (this folder), `root`
# (the repository: SRCLS_SOURCE_ROOT) and `binary` (the server: SRCLS_BINARY, made absolute).
editor_env() {
  here="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"
  root="${SRCLS_SOURCE_ROOT:-$(cd "$here/../.." && pwd)}"
  binary="${SRCLS_BINARY:-$root/build/server/srcls}"
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "SKIP: $1 is not installed ($2)"
    exit 77
  fi
  if [ ! -x "$binary" ]; then
    echo "srcls binary not found: $binary (set SRCLS_BINARY)" >&2
    exit 1
  fi
  binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
}
