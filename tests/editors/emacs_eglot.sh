#!/usr/bin/env bash
# The Emacs set-up of docs/editors.md in the real editor: runs emacs_eglot_test.el in a batch
# Emacs that loads the doc's own elisp block (copied out of the doc, not written again here),
# with eglot talking to the real server. Exit 77 (skipped) when emacs or eglot is missing
# (Debian: apt-get install -y emacs-nox elpa-eglot).
#
#   SRCLS_BINARY=build/server/srcls SRCLS_SOURCE_ROOT=. tests/editors/emacs_eglot.sh
set -uo pipefail

emacs="${EMACS:-emacs}"
. "$(dirname "$0")/editor_env.sh"
editor_env "$emacs" "apt-get install -y emacs-nox elpa-eglot"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A private home: no user init, packages or state in or out. Batch Emacs reads no init file but
# does load the site start-up files, which make Debian's elpa-eglot loadable on Emacs 28.
export HOME="$work/home"
mkdir -p "$HOME" "$work/bin" "$work/project"

if ! "$emacs" --batch --eval "(kill-emacs (if (require 'eglot nil t) 0 1))" >/dev/null 2>&1; then
  echo "SKIP: eglot is not available to $("$emacs" --version | head -n 1) (apt-get install -y elpa-eglot, or Emacs 29+)"
  exit 77
fi

# The doc's lines, exactly: the first elisp block of the "Emacs (eglot)" section.
awk '/^### Emacs \(eglot\)/ { section = 1 }
     section && /^```elisp$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside { print }' "$root/docs/editors.md" >"$work/init.el"
if ! grep -q eglot-server-programs "$work/init.el"; then
  echo "no eglot set-up block found in docs/editors.md" >&2
  exit 1
fi

# The doc runs "srcls" from PATH.
ln -s "$binary" "$work/bin/srcls"
cp "$root/docs/examples/bad-object-storage.source.json" "$work/project/"

"$emacs" --version | head -n 1
PATH="$work/bin:$PATH" SRCLS_INIT="$work/init.el" SRCLS_WORKDIR="$work/project" \
  timeout 120 "$emacs" --batch -l "$here/emacs_eglot_test.el" </dev/null
rc=$?
[ "$rc" -eq 124 ] && echo "emacs did not finish within 120 s"
exit "$rc"
