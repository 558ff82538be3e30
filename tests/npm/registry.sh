#!/usr/bin/env bash
# srcls's npm packages the way users get them, without the public registry: tools/npm-pack.sh
# packs them (the launcher `srcls` with the WebAssembly fallback, @srcls/linux-x64 with this
# build's binary, @srcls/linux-arm64 when dist/ has the aarch64 one), they are published to a
# local registry (verdaccio, tests/npm/node_modules, on 127.0.0.1, no uplink: nothing is looked
# up on the public registry; stopped by its PID), then in an empty folder:
#   npm install srcls                   @srcls/linux-x64 installed; `npx srcls --version` and
#                                       `--check --format json` of (a copy of) docs/examples/
#                                       give what the native binary gives (stdout and status),
#                                       no notice on stderr; a platform package of another
#                                       version refused; the language-server suite's transport
#                                       files (tests/lsp: start, framing) against it
#   npm install srcls --omit=optional   no platform package: the WebAssembly build, said on
#                                       stderr; `--version`, `--check` (compared as above) and
#                                       the transport files of the language-server suite; in a git
#                                       work tree (a .gitignore'd file, a file moved and made
#                                       insecure), `--check .` and `--check --base HEAD~1 .` in
#                                       text and json give the native binary's stdout and status,
#                                       the launcher starting git; with only node on PATH, no
#                                       directory of the work tree is checked (exit 2) and it says
#                                       git is missing
# With the argument action, after publishing, only this instead: action.yml's steps run as a
# runner runs them (tests/npm/action_runner.py: inputs, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) in a
# git repository holding a bad and a good document: the step fails with annotations on the bad
# one, the job summary counts by code, SARIF and the outputs are written; the good one passes;
# args with --format and a version not published fail with an annotation saying so.
# With the argument pre-commit, after publishing, only this instead: `pre-commit try-repo`
# (Debian's pre-commit) runs the language: node hook srcls-node of .pre-commit-hooks.yaml from this checkout
# on a git repository holding a bad and a good document, npm pointed at the registry: pre-commit
# installs srcls from it (the top package.json's dependency, @srcls/linux-x64 with it), the hook
# fails on the bad document, naming it, and passes the good one.
#   tests/npm/registry.sh [install|pre-commit|action]
#                               env: SRCLS_CLI_BINARY (the native binary; default build/'s),
#                               SRCLS_WASM (default: the newer of dist/'s and build-wasm/'s)
# Exits 77 (meson: SKIP), saying why, without node 20, `npm ci` in tests/npm and tests/lsp, or a
# WebAssembly build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:-install}
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

# wasm, runner: srcls.wasm and its runner, as the wasm suites find them (node 20 checked there).
set --
# shellcheck source=tests/wasm_find.sh
. "$root/tests/wasm_find.sh"
[ -f "$here/node_modules/verdaccio/package.json" ] || skip "no verdaccio: run npm ci in tests/npm"
[ -d "$root/tests/lsp/node_modules" ] || skip "no tests/lsp/node_modules: run npm ci in tests/lsp"
native=${SRCLS_CLI_BINARY:-$root/build/server/srcls}
[ -x "$native" ] || skip "no native srcls at $native (set SRCLS_CLI_BINARY)"

if [ "$mode" = pre-commit ]; then
  command -v pre-commit >/dev/null || skip "pre-commit is not installed (Debian: apt-get install pre-commit)"
  command -v git >/dev/null || skip "git is not installed"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/srcls-npm.XXXXXX")
pid=""
cleanup() {
  [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
  [ -z "$pid" ] || wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== packages: tools/npm-pack.sh, $native and $wasm"
arm64=()
[ ! -f "$root/dist/srcls-linux-aarch64" ] || arm64=(--linux-arm64 "$root/dist/srcls-linux-aarch64")
bash "$root/tools/npm-pack.sh" "$work/packages" "$wasm" "$runner" --linux-x64 "$native" "${arm64[@]}"

echo "== verdaccio on 127.0.0.1"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
registry=http://127.0.0.1:$port/
mkdir -p "$work/storage"
cat >"$work/verdaccio.yaml" <<YAML
storage: $work/storage
uplinks: {}
packages:
  '**':
    access: \$all
    publish: \$anonymous
    unpublish: \$anonymous
log: { type: file, path: $work/verdaccio.log, level: warn }
web: { enable: false }
YAML
node "$here/node_modules/verdaccio/bin/verdaccio" --config "$work/verdaccio.yaml" \
  --listen "127.0.0.1:$port" >"$work/verdaccio.out" 2>&1 &
pid=$!
for _ in $(seq 100); do
  curl -fsS "${registry}-/ping" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/verdaccio.out"; fail "verdaccio exited"; }
  sleep 0.2
done
curl -fsS "${registry}-/ping" >/dev/null || { cat "$work/verdaccio.out"; fail "verdaccio did not answer on $registry"; }

# npm's own settings for everything below: the local registry, a cache of its own.
export npm_config_userconfig=$work/npmrc npm_config_cache=$work/npm-cache
export npm_config_registry=$registry npm_config_audit=false npm_config_fund=false
export npm_config_update_notifier=false
printf '//127.0.0.1:%s/:_authToken=anonymous\n' "$port" >"$npm_config_userconfig"
for t in "$work"/packages/srcls-linux-*.tgz "$work"/packages/srcls-[0-9]*.tgz; do
  npm publish "$t" --loglevel=error >/dev/null || fail "npm publish $(basename "$t")"
  echo "published $(basename "$t")"
done

if [ "$mode" = pre-commit ]; then
  echo "== pre-commit try-repo $root srcls-node (language: node)"
  export PRE_COMMIT_HOME=$work/pre-commit-home
  project=$work/project
  mkdir -p "$project/sources"
  cp "$root/docs/examples/01-search-service.source.json" "$project/sources/good.source.json"
  cp "$root/docs/examples/bad-object-storage.source.json" "$project/sources/bad.source.json"
  cd "$project"
  git init -q . && git add sources
  # The hook's srcls can come from nowhere but the package pre-commit installs from the registry.
  ! command -v srcls >/dev/null ||
    skip "a srcls on PATH ($(command -v srcls)) would hide whether pre-commit installed one"
  status=0
  pre-commit try-repo "$root" srcls-node --all-files >"$work/out" 2>&1 || status=$?
  cat "$work/out"
  [ "$status" -eq 1 ] || fail "the hook on a bad and a good document: status $status, not 1"
  # pre-commit shows the hook's stderr: the launcher's notice would be there had it fallen back.
  ! grep -q "running the WebAssembly build" "$work/out" ||
    fail "the hook ran the WebAssembly build, not @srcls/linux-x64"
  grep -q "^sources/bad.source.json:[0-9]*:[0-9]*: error: " "$work/out" ||
    fail "the hook's output names no error in sources/bad.source.json"
  ! grep -q "good.source.json:[0-9]" "$work/out" || fail "the hook reported on the good document"
  status=0
  pre-commit try-repo "$root" srcls-node --files sources/good.source.json >"$work/out" 2>&1 || status=$?
  cat "$work/out"
  [ "$status" -eq 0 ] || fail "the hook on the good document alone: status $status, not 0"
  echo "pre-commit: all passed"
  exit 0
fi

if [ "$mode" = action ]; then
  echo "== the GitHub Action: action.yml's steps run as a runner runs them (tests/npm/action_runner.py)"
  project=$work/project
  mkdir -p "$project/sources"
  cp "$root/docs/examples/01-search-service.source.json" "$project/sources/good.source.json"
  cp "$root/docs/examples/bad-object-storage.source.json" "$project/sources/bad.source.json"
  (cd "$project" && git init -q . && git add sources)
  act() { python3 "$here/action_runner.py" "$root" "$project" "$@"; }
  status=0
  act "$work/run-bad" sarif-file=results/srcls.sarif >"$work/out" 2>&1 || status=$?
  cat "$work/out"
  [ "$status" -eq 1 ] || fail "the action on a bad and a good document: status $status, not 1"
  grep -q "^::error file=sources/bad.source.json,line=[0-9]*," "$work/out" ||
    fail "no annotation on sources/bad.source.json"
  ! grep -q "file=sources/good.source.json" "$work/out" || fail "an annotation on the good document"
  ! grep -q "running the WebAssembly build" "$work/out" || fail "the action ran the WebAssembly build"
  grep -q "^## srcls: [1-9][0-9]* errors\?, " "$work/run-bad/summary.md" ||
    fail "the job summary does not count the errors: $(head -3 "$work/run-bad/summary.md")"
  grep -q '^| `secret-not-encoded` | error | 1 |$' "$work/run-bad/summary.md" ||
    fail "the job summary has no row for secret-not-encoded"
  grep -q "^| sources/bad.source.json | [0-9]* | error | " "$work/run-bad/summary.md" ||
    fail "the job summary lists no finding of sources/bad.source.json"
  python3 - "$project/results/srcls.sarif" <<'PY' || fail "the SARIF file"
import json, sys
sarif = json.load(open(sys.argv[1]))
run = sarif["runs"][0]
assert run["tool"]["driver"]["name"] == "srcls", run["tool"]["driver"]["name"]
files = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
assert files == {"sources/bad.source.json"}, files
PY
  grep -q "^errors=[1-9][0-9]*$" "$work/run-bad/outputs" || fail "outputs: $(cat "$work/run-bad/outputs")"
  grep -q "^sarif-file=results/srcls.sarif$" "$work/run-bad/outputs" || fail "outputs: no sarif-file"
  echo "a bad document: status 1, annotations, summary, SARIF and outputs written"

  status=0
  act "$work/run-good" "args=--check sources/good.source.json" >"$work/out" 2>&1 || status=$?
  [ "$status" -eq 0 ] || { cat "$work/out"; fail "the action on the good document: status $status, not 0"; }
  ! grep -q "^::" "$work/out" || fail "annotations on the good document: $(grep "^::" "$work/out")"
  grep -q "^## srcls: 0 errors, 0 warnings, 0 information, 0 hints in 1 file$" "$work/run-good/summary.md" ||
    fail "the good document's summary: $(head -1 "$work/run-good/summary.md")"
  grep -q "^errors=0$" "$work/run-good/outputs" || fail "outputs: $(cat "$work/run-good/outputs")"
  echo "a good document: status 0, summary written"

  status=0
  act "$work/run-format" "args=--check --format sarif ." >"$work/out" 2>&1 || status=$?
  [ "$status" -eq 2 ] && grep -q "^::error title=srcls action::args take no --format" "$work/out" ||
    { cat "$work/out"; fail "args with --format: status $status"; }
  status=0
  act "$work/run-version" version=0.0.0-none >"$work/out" 2>&1 || status=$?
  [ "$status" -eq 2 ] && grep -q "^::error title=srcls action::npm install srcls@0.0.0-none failed" "$work/out" ||
    { cat "$work/out"; fail "a version that is not published: status $status"; }
  echo "args with --format, and an unpublished version: status 2, said as an annotation"
  echo "action: all passed"
  exit 0
fi

# The size of what npm installed, for docs/install.md.
installed_size() {
  echo "$1: node_modules holds $(find node_modules -type f | wc -l) files, $(du -sb node_modules | cut -f1) bytes" \
    "($(du -sk node_modules | cut -f1) KiB on disk: du -sk node_modules)"
}

# same OUT ERR STATUS OUT2 STATUS2 WHAT: stdout and status equal, or FAIL.
same() {
  if [ "$3" -ne "$5" ] || ! cmp -s "$1" "$4"; then
    diff "$4" "$1" | head -20
    cat "$2"
    fail "$6: status $3 and its output differ from the native binary's (status $5)"
  fi
}

# The examples are checked in a copy outside any git work tree; the work tree comes last.
cp -r "$root/docs/examples" "$work/examples"
"$native" --version >"$work/native.version"
native_status=0
"$native" --check --format json "$work/examples/" >"$work/native.json" || native_status=$?

# lsp_suite SERVER CLI FILE...: the language-server suite's FILEs (those that drive the server
# through its pipes: start, shutdown, exit codes, cancellation, broken framing, hostile messages,
# stdin closed; for the WebAssembly build also published and pulled diagnostics and the
# workspace) against SERVER, the installed launcher, with CLI as its --check oracle. The launcher
# passes stdin and stdout through; the request handlers behind them are the same binary's and
# module's, which the lsp and wasm_lsp tests run in full.
lsp_suite() {
  local server=$1 cli=$2
  shift 2
  (cd "$root/tests/lsp" && SRCLS_START_MS=${SRCLS_START_MS:-8000} SRCLS_BINARY="$server" SRCLS_CLI_BINARY="$cli" \
    SRCLS_SUITE_WASM="${suite_wasm:-}" \
    node --require ./require-deps.js --test --test-concurrency=4 "$@" \
      >"$work/lsp.log" 2>&1) || {
    grep -A30 "^ *not ok" "$work/lsp.log" | head -150
    grep -E '^# (tests|pass|fail|cancelled)' "$work/lsp.log"
    fail "the language-server suite against $server"
  }
  grep -E '^# (tests|pass|fail)' "$work/lsp.log" | tr '\n' ' '
  echo
}

echo "== npm install srcls"
mkdir "$work/app"
cd "$work/app"
npm install srcls --loglevel=error >/dev/null || fail "npm install srcls"
[ -x node_modules/@srcls/linux-x64/srcls ] || fail "npm install srcls did not install @srcls/linux-x64"
installed_size "npm install srcls"
npx --no-install srcls --version >"$work/out" 2>"$work/err" || fail "npx srcls --version: $(cat "$work/err")"
same "$work/out" "$work/err" 0 "$work/native.version" 0 "npx srcls --version"
[ ! -s "$work/err" ] || fail "npx srcls --version said on stderr: $(cat "$work/err")"
echo "npx srcls --version: $(cat "$work/out")"
status=0
npx --no-install srcls --check --format json "$work/examples/" >"$work/out" 2>"$work/err" || status=$?
same "$work/out" "$work/err" "$status" "$work/native.json" "$native_status" "npx srcls --check --format json (docs/examples/)"
echo "npx srcls --check (docs/examples/): the native binary's report, status $status"

manifest=node_modules/@srcls/linux-x64/package.json
cp "$manifest" "$work/manifest"
sed -i 's/"version": "[^"]*"/"version": "0.0.1-other"/' "$manifest"
status=0
npx --no-install srcls --version >"$work/out" 2>"$work/err" || status=$?
[ "$status" -eq 2 ] && grep -q "@srcls/linux-x64 is version 0.0.1-other, but this srcls is" "$work/err" ||
  fail "a platform package of another version: status $status, stderr: $(cat "$work/err")"
[ ! -s "$work/out" ] || fail "a platform package of another version was run: $(cat "$work/out")"
echo "refused: $(cat "$work/err")"
cp "$work/manifest" "$manifest"

# The suite's --check oracle is the native binary itself (as for the WebAssembly server): the
# launcher's --check was compared with it above, and a node start-up per oracle call (~40 in one
# test) made that test time out on a loaded 2-core machine.
echo "language-server suite against $work/app/node_modules/.bin/srcls (--check oracle: $native):"
lsp_suite "$work/app/node_modules/.bin/srcls" "$native" lifecycle.test.js robustness.test.js

echo "== npm install srcls --omit=optional: the WebAssembly build"
mkdir "$work/app-wasm"
cd "$work/app-wasm"
npm install srcls --omit=optional --loglevel=error >/dev/null || fail "npm install srcls --omit=optional"
[ ! -e node_modules/@srcls ] || fail "--omit=optional installed $(ls node_modules/@srcls)"
installed_size "npm install srcls --omit=optional"
npx --no-install srcls --version >"$work/out" 2>"$work/err" || fail "npx srcls --version: $(cat "$work/err")"
grep -qx "$(cat "$work/native.version") (wasm32-wasi)" "$work/out" || fail "npx srcls --version: $(cat "$work/out")"
grep -q "^srcls: running the WebAssembly build (@srcls/linux-x64 is not installed" "$work/err" ||
  fail "no notice of the WebAssembly build on stderr: $(cat "$work/err")"
[ "$(wc -l <"$work/err")" -eq 1 ] || fail "more than one line on stderr: $(cat "$work/err")"
echo "npx srcls --version: $(cat "$work/out"); stderr: $(cat "$work/err")"
status=0
npx --no-install srcls --check --format json "$work/examples/" >"$work/out" 2>"$work/err" || status=$?
same "$work/out" "$work/err" "$status" "$work/native.json" "$native_status" \
  "npx srcls --check --format json (docs/examples/, WebAssembly)"
echo "npx srcls --check (docs/examples/, WebAssembly): the native binary's report, status $status"
echo "language-server suite against $work/app-wasm/node_modules/.bin/srcls (--check oracle: $native):"
suite_wasm=1 # the tests that need git or a second thread know it is the WebAssembly build
lsp_suite "$work/app-wasm/node_modules/.bin/srcls" "$native" \
  lifecycle.test.js robustness.test.js diagnostics.test.js workspace.test.js
suite_wasm=

if command -v git >/dev/null; then
  echo "== the WebAssembly build in a git work tree (git started by the launcher)"
  repo=$work/app-wasm/repo
  git_in() { git -C "$repo" -c user.name=srcls -c user.email=srcls@example.com "$@"; }
  mkdir -p "$repo/sources/moved" "$repo/generated"
  cp "$root/docs/examples/bad-syntax.source.json" "$repo/generated/"
  cp "$root/docs/examples/03-object-storage-a.source.json" "$repo/sources/lake.source.json"
  cp "$root/docs/examples/bad-peer-cluster.source.json" "$repo/sources/"
  printf 'generated/\n' >"$repo/.gitignore"
  git_in init -q && git_in add -A && git_in commit -qm one
  cp "$root/docs/examples/01-search-service.source.json" "$repo/sources/"
  git_in add -A && git_in commit -qm two
  git_in mv sources/lake.source.json sources/moved/lake.source.json
  sed -i 's/"secure": true/"secure": false/' "$repo/sources/moved/lake.source.json"
  grep -q '"secure": false' "$repo/sources/moved/lake.source.json" || fail "no insecure change to test"
  cd "$repo"
  # text and json: the launcher's part (git's answers handed to the module) is the same for every
  # format; tests/wasm_check.sh compares every format of the module with the native binary's.
  for format in text json; do
    for base in "" "--base HEAD~1"; do
      native_status=0
      # shellcheck disable=SC2086 # no --base, or --base and its commit
      "$native" --check $base --format "$format" . >"$work/native.out" 2>/dev/null || native_status=$?
      status=0
      # shellcheck disable=SC2086
      npx --no-install srcls --check $base --format "$format" . >"$work/out" 2>"$work/err" || status=$?
      same "$work/out" "$work/err" "$status" "$work/native.out" "$native_status" \
        "npx srcls --check $base --format $format . (a git work tree, WebAssembly)"
      [ "$(grep -vc "^srcls: running the WebAssembly build" "$work/err")" -eq 0 ] ||
        fail "npx srcls --check $base --format $format: stderr: $(cat "$work/err")"
    done
  done
  grep -q "insecure-transport since HEAD~1" "$work/out" || fail "--base HEAD~1: no risky change: $(cat "$work/out")"
  ! grep -q "bad-syntax" "$work/out" || fail "the file git ignores was checked"
  echo "npx srcls --check [--base HEAD~1] . in a work tree, text and json: the native binary's report"
  nogit=$work/nogit
  mkdir -p "$nogit"
  ln -s "$(command -v node)" "$nogit/node"
  status=0
  PATH=$nogit "$work/app-wasm/node_modules/.bin/srcls" --check . >"$work/out" 2>"$work/err" || status=$?
  [ "$status" -eq 2 ] && ! grep -q '\.json' "$work/out" ||
    fail "without git on PATH: status $status, stdout: $(cat "$work/out")"
  grep -q "^srcls: \.: not checked: it is in a git work tree, and the WebAssembly build cannot read what git ignores (git is not on PATH)" "$work/err" ||
    fail "without git on PATH: stderr: $(cat "$work/err")"
  echo "without git on PATH: status 2, $(grep -c . "$work/err") lines on stderr: $(tail -1 "$work/err")"
  cd "$work"
fi

echo "npm: all passed"
