#!/usr/bin/env bash
# The Neovim plugin in the real editor: runs nvim_plugin_test.lua in a headless Neovim against
# the real server, once with each way of detecting the filetype (autocommands, and
# vim.filetype.add, which Neovim 0.7 uses only with g:do_filetype_lua). Exit 77 (skipped)
# when nvim is not installed.
#
#   SRCLS_BINARY=build/server/srcls SRCLS_SOURCE_ROOT=. tests/editors/nvim_plugin.sh
set -uo pipefail

nvim="${NVIM:-nvim}"
. "$(dirname "$0")/editor_env.sh"
editor_env "$nvim" "apt-get install -y neovim"
"$nvim" --version | head -n 1

status=0
for mode in autocmd filetype-lua; do
  work="$(mktemp -d)"
  # A private XDG tree: no user config, shada, swap or log leaks in or out.
  export XDG_CONFIG_HOME="$work/xdg/config" XDG_DATA_HOME="$work/xdg/data" \
         XDG_STATE_HOME="$work/xdg/state" XDG_CACHE_HOME="$work/xdg/cache"
  mkdir -p "$work/project"
  echo "== filetype detection through $mode"
  SRCLS_BINARY="$binary" SRCLS_SOURCE_ROOT="$root" SRCLS_WORKDIR="$work/project" \
    SRCLS_FILETYPE_LUA="$([ "$mode" = filetype-lua ] && echo 1 || echo 0)" \
    timeout 180 "$nvim" --headless -u NONE -i NONE -n \
      -c "luafile $here/nvim_plugin_test.lua" </dev/null
  rc=$?
  # Headless Neovim leaves its last message without a newline.
  echo
  if [ "$rc" -ne 0 ]; then
    echo "nvim exited with status $rc ($mode)"
    status=1
  fi
  rm -rf "$work"
done
exit "$status"
