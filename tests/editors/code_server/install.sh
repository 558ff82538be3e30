#!/usr/bin/env bash
# Installs what tests/editors/code_server/run.sh drives: code-server (VS Code in a browser) and
# puppeteer-core, from package-lock.json, with nothing downloaded from outside the npm registry.
#
# code-server's postinstall runs `npm install` in its lib/vscode, which builds VS Code's native
# modules against this Node's headers (/usr/include/node, so node-gyp fetches none) and runs
# @vscode/ripgrep's postinstall, which would download rg from GitHub. That postinstall first
# looks in its download cache ($TMPDIR/vscode-ripgrep-cache-VERSION/ripgrep-TAG-TARGET.tar.gz):
# we put Debian's /usr/bin/rg there, in a TMPDIR of our own, so it unpacks that and asks nothing
# of the network. puppeteer-core never downloads a browser (the test drives Debian's chromium).
#
#   bash tests/editors/code_server/install.sh     # needs node >= 20, npm, g++, make, python3, rg
# Exit 0 when installed (or already up to date), 77 when this machine cannot (says why), else
# npm's status.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

# What code-server 4.100.3's lib/vscode/npm-shrinkwrap.json pins, and the release tag that
# @vscode/ripgrep 1.15.11's lib/postinstall.js asks for.
ripgrep_package=1.15.11
ripgrep_tag=v13.0.0-10

skip() { echo "SKIP: $*"; exit 77; }
command -v node >/dev/null 2>&1 || skip "node is not installed"
command -v npm >/dev/null 2>&1 || skip "npm is not installed"
major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$major" -ge 20 ] || skip "code-server 4.100.3 needs Node 20 (found $(node --version))"
[ -x /usr/bin/rg ] || skip "Debian's ripgrep (/usr/bin/rg) is not installed"
for tool in g++ make python3; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is missing (VS Code's native modules are built)"
done

stamp=node_modules/.srcls-installed
if [ -f "$stamp" ] && [ ! package-lock.json -nt "$stamp" ]; then
  echo "code_server: node_modules is up to date"
  exit 0
fi

case "$(node -p process.arch)" in
  x64) target=x86_64-unknown-linux-musl ;;
  arm64) target=aarch64-unknown-linux-musl ;;
  *) skip "no ripgrep cache name known for $(node -p process.arch)" ;;
esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cache="$tmp/vscode-ripgrep-cache-$ripgrep_package"
mkdir -p "$cache/rg"
cp /usr/bin/rg "$cache/rg/rg"
tar -C "$cache/rg" -czf "$cache/ripgrep-$ripgrep_tag-$target.tar.gz" rg

# code-server's postinstall insists on Node 20 unless told otherwise, and (as root) on
# unsafe-perm; node-gyp builds against the installed headers instead of downloading them; node-pty's
# install script runs `npx node-gyp`, which may fetch node-gyp from the npm registry without asking.
env_args=(TMPDIR="$tmp" npm_config_nodedir=/usr npm_config_unsafe_perm=true npm_config_yes=true)
[ "$major" -eq 20 ] || env_args+=(FORCE_NODE_VERSION="$major")
start=$(date +%s)
env "${env_args[@]}" npm ci --no-audit --no-fund --loglevel=error
rg_bin=node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg
if ! cmp -s "$rg_bin" /usr/bin/rg; then
  echo "code_server: $rg_bin is not Debian's rg" >&2
  exit 1
fi
touch "$stamp"
echo "code_server: installed in $(( $(date +%s) - start )) s"
