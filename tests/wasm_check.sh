#!/usr/bin/env bash
# `srcls --check` built as WebAssembly, run by node through srcls-wasm.mjs the way the npm
# fallback runs it, against the native binary ($SRCLS_CLI_BINARY): the same stdout byte for byte,
# the same stderr and the same exit status in every format, over docs/examples/ and over one
# document per rule case (tests/rules/*.cases.json); relative and absolute paths, '-' (stdin),
# --output-file, a slow pipe, the actions (--list-kinds, --explain, --export-json-schema), --fix
# on a temporary copy, paths that cannot be read; a git work tree (what git ignores, --base
# HEAD~1 over a moved and a deleted file), git being started by the runner. Then what is
# documented to differ (docs/install.md): --jobs (one file at a time, said once), a directory in
# a git work tree without git on PATH or with a runner that cannot start it (not checked, exit 2,
# said once; --no-respect-gitignore checks it as natively; --base exit 2), --fix rewriting in
# place (said once; owner, mode and inode kept). Last, tests/lsp/sarif.test.js with the
# WebAssembly build as its --check binary.
#   tests/wasm_check.sh [WASM] [RUNNER]      (the same defaults as tests/wasm_lsp.sh)
# Exits 77 (meson: SKIP), saying why, when there is no WebAssembly build, no node 20 or no
# native binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }

# shellcheck source=tests/wasm_find.sh
. "$root/tests/wasm_find.sh"
native=${SRCLS_CLI_BINARY:-$root/build/server/srcls}
[ -x "$native" ] || skip "no native srcls at $native to compare with (set SRCLS_CLI_BINARY)"

wasm_srcls() { SRCLS_WASM="$wasm" node "$runner" "$@"; }
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0 checks=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Runs `srcls ARGS` natively and as WebAssembly (stdin from $STDIN_FILE when set, in the
# current directory) into $tmp/{native,wasm}.{out,err,status}.
run_both() {
  local which
  for which in native wasm; do
    local status=0
    if [ "$which" = native ]; then
      "$native" "$@" <"${STDIN_FILE:-/dev/null}" >"$tmp/native.out" 2>"$tmp/native.err" || status=$?
    else
      wasm_srcls "$@" <"${STDIN_FILE:-/dev/null}" >"$tmp/wasm.out" 2>"$tmp/wasm.err" || status=$?
    fi
    echo "$status" >"$tmp/$which.status"
  done
}

# Both runs gave the same stdout, stderr and exit status.
expect_same() {
  local what="$1"
  checks=$((checks + 1))
  if ! cmp -s "$tmp/native.status" "$tmp/wasm.status"; then
    fail "$what: exit $(cat "$tmp/wasm.status"), natively $(cat "$tmp/native.status")"
  elif ! cmp -s "$tmp/native.out" "$tmp/wasm.out"; then
    fail "$what: stdout differs"
    diff "$tmp/native.out" "$tmp/wasm.out" | head -c 2000
  elif ! cmp -s "$tmp/native.err" "$tmp/wasm.err"; then
    fail "$what: stderr differs"
    diff "$tmp/native.err" "$tmp/wasm.err" | head -c 2000
  fi
}

# `text` is in the file `file` exactly `count` times (a grep -F of lines).
expect_lines() {
  local file="$1" text="$2" count="$3" what="$4" found
  checks=$((checks + 1))
  found=$(grep -cF -- "$text" "$file" || true)
  [ "$found" -eq "$count" ] || fail "$what: '$text' $found times in $(basename "$file"), not $count"
}

echo "wasm_check: $wasm, run by $runner; compared with $native"
version=$(wasm_srcls --version)
checks=$((checks + 1))
[ "$version" = "$("$native" --version) (wasm32-wasi)" ] || fail "--version says '$version'"

# One document per rule case, outside any git work tree (.source.json; .job.json for jobs).
# shellcheck disable=SC2016 # JavaScript's template strings
node -e '
  const fs = require("fs"), path = require("path");
  const [dir, out] = process.argv.slice(1);
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".cases.json")).sort()) {
    const kind = file.startsWith("job") ? "job" : "source";
    JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")).forEach((c, i) => {
      const name = `${file.replace(".cases.json", "")}-${String(i).padStart(3, "0")}.${kind}.json`;
      fs.writeFileSync(path.join(out, name), JSON.stringify(c.document, null, 2) + "\n");
    });
  }' "$root/tests/rules" "$(mkdir -p "$tmp/cases" && echo "$tmp/cases")"
cases=$(find "$tmp/cases" -name '*.json' | wc -l)
echo "wasm_check: $cases rule-case documents in $tmp/cases"

cd "$root"
for format in $("$native" --generate-docs formats); do
  run_both --check --no-respect-gitignore --format "$format" docs/examples/
  expect_same "--check --format $format docs/examples/"
  run_both --check --format "$format" "$tmp/cases"
  expect_same "--check --format $format (the rule cases, an absolute path)"
done
run_both --check --no-respect-gitignore --statistics --show-source docs/examples/
expect_same "--check --statistics --show-source docs/examples/"
run_both --check --diff "$tmp/cases"
expect_same "--check --diff (the rule cases)"
run_both --check --select security --fail-on warning --format json "$tmp/cases"
expect_same "--check --select security --fail-on warning"
(cd "$tmp" && run_both --check --format sarif cases ../"$(basename "$tmp")"/cases/../cases/job-000.job.json)
expect_same "--check relative paths (with ..) from another directory"
STDIN_FILE=docs/examples/bad-syntax.source.json run_both --check --stdin-filename x.source.json -
expect_same "--check - (stdin)"
STDIN_FILE=docs/examples/bad-object-storage.source.json run_both --check --fix -
expect_same "--check --fix - (the fixed document on stdout)"
run_both --check --color always --show-source docs/examples/bad-syntax.source.json
expect_same "--check --color always --show-source"
run_both --check --config docs/examples/team-kinds/srcls.json docs/examples/team-kinds/bad-lake.source.json
expect_same "--check --config (custom kinds)"
run_both --check --no-respect-gitignore --exclude '*bad-syntax*' docs/examples
expect_same "--check --exclude"
# --output-file and --export-json-schema: each build writes its own file or folder (the same
# one for both would let the native run's stand in for a WebAssembly run that wrote nothing).
checks=$((checks + 1))
status=0
wasm_srcls --check --format json --output-file "$tmp/report-wasm.json" "$tmp/cases" || status=$?
"$native" --check --format json --output-file "$tmp/report-native.json" "$tmp/cases" || true
if [ ! -f "$tmp/report-wasm.json" ]; then
  fail "--output-file: no file written (exit $status)"
elif ! cmp -s "$tmp/report-native.json" "$tmp/report-wasm.json"; then
  fail "--output-file: the file differs from the native report"
fi
for action in --list-kinds "--list-kinds --format json" "--explain secret-not-encoded" --help \
  "--generate-docs rules"; do
  # shellcheck disable=SC2086 # the words of an action
  run_both $action
  expect_same "$action"
done
checks=$((checks + 1))
if ! wasm_srcls --export-json-schema "$tmp/schema-wasm" >/dev/null; then
  fail "--export-json-schema: the WebAssembly build failed"
else
  "$native" --export-json-schema "$tmp/schema-native" >/dev/null
  diff -r "$tmp/schema-native" "$tmp/schema-wasm" >/dev/null ||
    fail "--export-json-schema: the files differ from the native ones"
fi

# Adopting srcls: --write-baseline (the same bytes written, each build from its own directory),
# --baseline with new, unchanged and fixed entries in each format, a srcls.json's "ignore" (one
# entry used, one unused) and "baseline", and --env filling "placeholders".
adopt=$tmp/adopt
mkdir -p "$adopt/native" "$adopt/wasm"
for which in native wasm; do
  status=0
  if [ "$which" = native ]; then
    (cd "$adopt/native" && "$native" --check --write-baseline known.json ../../cases) \
      >"$tmp/native.out" 2>"$tmp/native.err" || status=$?
  else
    (cd "$adopt/wasm" && wasm_srcls --check --write-baseline known.json ../../cases) \
      >"$tmp/wasm.out" 2>"$tmp/wasm.err" || status=$?
  fi
  echo "$status" >"$tmp/$which.status"
done
expect_same "--check --write-baseline"
checks=$((checks + 1))
if ! cmp -s "$adopt/native/known.json" "$adopt/wasm/known.json"; then
  fail "--write-baseline: the files differ"
elif [ "$(grep -c '"code"' "$adopt/wasm/known.json")" -lt 100 ]; then
  fail "--write-baseline: fewer than 100 findings written: no test"
fi
# every third entry dropped (new findings), one hash changed (a new finding and a fixed entry)
node -e '
  const fs = require("fs");
  const b = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  b.findings = b.findings.filter((f, i) => i % 3 !== 0);
  b.findings[1].hash = "0000000000000000";
  fs.writeFileSync(process.argv[2], JSON.stringify(b, null, 2) + "\n");' \
  "$adopt/native/known.json" "$adopt/native/edited.json"
for format in text json sarif; do
  run_both --check --format "$format" --baseline "$adopt/native/edited.json" "$tmp/cases"
  expect_same "--check --baseline --format $format"
done
expect_lines "$tmp/wasm.out" '"baselineState":"absent"' 1 "--baseline: the fixed entry"
(cd "$adopt" && run_both --check --baseline native/edited.json ../cases)
expect_same "--check --baseline with relative paths from another directory"
project=$adopt/project
mkdir -p "$project"
cp docs/examples/bad-object-storage.source.json docs/examples/bad-peer-cluster.source.json "$project/"
(cd "$project" && "$native" --check --write-baseline known.json bad-peer-cluster.source.json) &>/dev/null || true
cat >"$project/srcls.json" <<'JSON'
{
  "ignore": [
    {"files": "bad-object-storage.*", "codes": ["out-of-range"], "reason": "checked upstream"},
    {"pointer": "/config/nowhere", "reason": "silences nothing"}
  ],
  "baseline": "known.json"
}
JSON
for format in sarif text; do
  (cd "$project" && run_both --check --no-respect-gitignore --format "$format" .)
  expect_same "--check of a srcls.json with \"ignore\" and \"baseline\" (--format $format)"
done
expect_lines "$tmp/wasm.out" 'silenced no finding' 1 "the unused \"ignore\" entry"
grep -q out-of-range "$tmp/wasm.out" && fail "\"ignore\": the out-of-range finding is reported"
templates=$adopt/templates
mkdir -p "$templates"
printf '{"placeholders": ["${NAME}"]}\n' >"$templates/srcls.json"
# shellcheck disable=SC2016 # placeholders, not shell variables
printf '{\n  "type": "CLOUDA_OBJECT_STORAGE",\n  "config": {\n    "credentialType": "${CRED}",\n    "accessKey": "AKIA",\n    "accessSecret": "${DB_SECRET}",\n    "rootPath": "/${ENV}/data"\n  }\n}\n' \
  >"$templates/lake.source.json"
printf '# staging\nDB_SECRET=Sup3rS3cret\nCRED=ACCESS_KEYS\n' >"$templates/staging.env"
printf 'CRED=NONE\nnot a line\n' >"$templates/bad.env"
(cd "$templates" && run_both --check --no-respect-gitignore --env staging.env --format json .)
expect_same "--check --env (a missing variable, values filled in)"
expect_lines "$tmp/wasm.out" 'unset-variable' 1 "--env: the missing variable"
grep -q Sup3rS3cret "$tmp/wasm.out" "$tmp/wasm.err" && fail "--env: a value was printed"
(cd "$templates" && run_both --check --no-respect-gitignore --env bad.env .)
expect_same "--check --env with a malformed line"
checks=$((checks + 1))
[ "$(cat "$tmp/wasm.status")" -eq 2 ] || fail "--env bad.env: exit $(cat "$tmp/wasm.status"), not 2"

# A report larger than a pipe's buffer, read slowly: all of it arrives.
checks=$((checks + 1))
wasm_srcls --check --format sarif "$tmp/cases" 2>/dev/null | { sleep 1; cat; } >"$tmp/wasm.out" || true
"$native" --check --format sarif "$tmp/cases" >"$tmp/native.out" 2>/dev/null || true
[ "$(stat -c %s "$tmp/native.out")" -gt 65536 ] || fail "the SARIF report is too small to fill a pipe"
cmp -s "$tmp/native.out" "$tmp/wasm.out" || fail "--format sarif through a slow pipe differs"

# What cannot be read: a missing path, a dangling link, a directory named as a file in a
# list, a file without read permission (not for root, who reads it anyway).
ln -s "$tmp/nowhere.json" "$tmp/dangling.source.json"
printf '{"type": "NETWORK_ATTACHED_STORAGE", "config": {}}\n' >"$tmp/locked.source.json"
chmod 000 "$tmp/locked.source.json"
run_both --check "$tmp/missing.source.json" "$tmp/dangling.source.json" "$tmp/locked.source.json" \
  docs/examples/bad-syntax.source.json
expect_same "--check of paths that cannot be read"
checks=$((checks + 1))
[ "$(cat "$tmp/wasm.status")" -eq 2 ] || fail "unreadable paths: exit $(cat "$tmp/wasm.status"), not 2"
chmod 644 "$tmp/locked.source.json"

# --fix on two copies of the rule cases: the same files, report and status; in place, said once.
cp -r "$tmp/cases" "$tmp/fix-native"
cp -r "$tmp/cases" "$tmp/fix-wasm"
chmod 600 "$tmp/fix-wasm"/*.json
owner=$(id -u)
if [ "$owner" -eq 0 ] && id nobody >/dev/null 2>&1; then
  chown nobody "$tmp/fix-wasm"/*.json # root: a file of another user keeps its owner
  owner=$(id -u nobody)
fi
inodes_before=$(stat -c %i "$tmp/fix-wasm"/*.json | sort | md5sum)
(cd "$tmp/fix-native" && "$native" --check --fix . >"$tmp/native.out" 2>"$tmp/native.err") &&
  echo 0 >"$tmp/native.status" || echo $? >"$tmp/native.status"
(cd "$tmp/fix-wasm" && wasm_srcls --check --fix . >"$tmp/wasm.out" 2>"$tmp/wasm.err") &&
  echo 0 >"$tmp/wasm.status" || echo $? >"$tmp/wasm.status"
checks=$((checks + 1))
diff -r "$tmp/fix-native" "$tmp/fix-wasm" >/dev/null || fail "--fix: the fixed files differ"
checks=$((checks + 1))
diff -r "$tmp/cases" "$tmp/fix-wasm" >/dev/null && fail "--fix changed nothing: no test"
note="the WebAssembly build rewrites files in place"
expect_lines "$tmp/wasm.err" "$note" 1 "--fix"
grep -vF "$note" "$tmp/wasm.err" >"$tmp/wasm.err.rest" || true
mv "$tmp/wasm.err.rest" "$tmp/wasm.err"
expect_same "--check --fix (but the one line on rewriting in place)"
checks=$((checks + 1))
[ "$(stat -c '%a %u' "$tmp/fix-wasm"/*.json | sort -u)" = "600 $owner" ] ||
  fail "--fix: mode or owner changed: $(stat -c '%a %u' "$tmp/fix-wasm"/*.json | sort -u | tr '\n' ' ')"
checks=$((checks + 1))
[ "$(stat -c %i "$tmp/fix-wasm"/*.json | sort | md5sum)" = "$inodes_before" ] ||
  fail "--fix: files were replaced, not rewritten in place"

# --jobs: one file at a time, said once; the same report.
run_both --check --jobs 4 "$tmp/cases"
expect_lines "$tmp/wasm.err" "--jobs 4: the WebAssembly build checks one file at a time" 1 "--jobs 4"
grep -vF -- "--jobs 4:" "$tmp/wasm.err" >"$tmp/wasm.err.rest" || true
mv "$tmp/wasm.err.rest" "$tmp/wasm.err"
expect_same "--check --jobs 4 (but the line on --jobs)"
run_both --check --jobs 1 "$tmp/cases"
expect_same "--check --jobs 1"

# A git work tree (.gitignore'd files, a file moved and made insecure, a source deleted): the
# runner starts git for the WebAssembly build, so a scan and --base HEAD~1 give what the native
# binary gives in every format, from the top and from a subdirectory. Without git on PATH (PATH
# holds only node) a directory of the work tree is not checked (exit 2), said once, and --base
# fails (exit 2) saying why; the same with a runner that gives the module no git (only WASI, as
# one from before this or a browser worker has).
if command -v git >/dev/null; then
  repo=$tmp/repo
  git_in() { git -C "$repo" -c user.name=srcls -c user.email=srcls@example.com "$@"; }
  storage() {
    printf '{\n  "name": "%s",\n  "type": "CLOUDA_OBJECT_STORAGE",\n  "config": {\n    "secure": %s,\n    "whitelistedBuckets": ["b"],\n    "accessKey": "k",\n    "accessSecret": "data:,s",\n    "rootPath": "/data"\n  }\n}\n' "$1" "$2"
  }
  mkdir -p "$repo/ignored" "$repo/kept/deep" "$repo/build"
  git_in init -q
  cp docs/examples/bad-syntax.source.json "$repo/ignored/"
  cp docs/examples/bad-syntax.source.json "$repo/build/"
  cp docs/examples/bad-object-storage.source.json "$repo/kept/"
  printf 'ignored/\n/build\n*.local.json\n' >"$repo/.gitignore"
  storage lake true >"$repo/kept/lake.source.json"
  storage gone true >"$repo/kept/gone.source.json"
  git_in add -A && git_in commit -qm one
  cp docs/examples/01-search-service.source.json "$repo/kept/second.source.json"
  git_in add -A && git_in commit -qm two
  git_in mv kept/lake.source.json kept/deep/lake.source.json
  storage lake false >"$repo/kept/deep/lake.source.json"
  git_in rm -q kept/gone.source.json
  storage local false >"$repo/kept/mine.local.json"
  for format in json sarif github gitlab text; do # text last, for what follows
    (cd "$repo" && run_both --check --format "$format" .)
    expect_same "--check --format $format in a git work tree"
    (cd "$repo" && run_both --check --base HEAD~1 --format "$format" .)
    expect_same "--check --base HEAD~1 --format $format"
  done
  expect_lines "$tmp/wasm.out" "insecure-transport since HEAD~1" 1 "--base HEAD~1: the moved file"
  expect_lines "$tmp/wasm.out" "and with it the source \"gone\"" 1 "--base HEAD~1: the deleted file"
  (cd "$repo/kept" && run_both --check --base HEAD~1 .)
  expect_same "--check --base HEAD~1 from a subdirectory"
  expect_lines "$tmp/wasm.out" "[risky-change]" 2 "--base HEAD~1 from a subdirectory"
  checks=$((checks + 1))
  grep -q 'bad-syntax\|mine.local' "$tmp/wasm.out" && fail "a file git ignores was checked"
  (cd "$repo" && STDIN_FILE=$repo/kept/deep/lake.source.json run_both --check --base HEAD~1 \
    --stdin-filename kept/deep/lake.source.json -)
  expect_same "--check --base HEAD~1 of standard input (--stdin-filename)"
  expect_lines "$tmp/wasm.out" "[risky-change]" 1 "--base HEAD~1 of standard input"
  (cd "$repo" && run_both --check ignored/bad-syntax.source.json)
  expect_same "--check of a file named in a work tree"
  (cd "$repo" && run_both --check --base no-such-ref kept)
  expect_same "--check --base of an unknown commit"
  (cd "$repo/.git" && run_both --check --base HEAD ../kept)
  expect_same "--check --base from inside .git"
  (cd "$tmp/cases" && run_both --check --base HEAD .)
  expect_same "--check --base outside a work tree"

  nogit=$tmp/nogit # PATH without git
  mkdir -p "$nogit"
  ln -s "$(command -v node)" "$nogit/node"
  plain=$tmp/plain-runner.mjs # a runner that gives the module nothing but WASI
  cat >"$plain" <<'JS'
import fs from 'node:fs';
import { WASI } from 'node:wasi';
const wasi = new WASI({ version: 'preview1', args: ['srcls', ...process.argv.slice(2)],
  env: { ...process.env, PWD: process.cwd() }, preopens: { '/': '/' }, returnOnExit: false });
const module = await WebAssembly.compile(fs.readFileSync(process.env.SRCLS_WASM));
wasi.start(await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport }));
JS
  for without in "git is not on PATH" "its runner cannot start git"; do
    if [ "$without" = "git is not on PATH" ]; then
      no_git() { PATH=$nogit node "$runner" "$@"; }
    else
      no_git() { node --no-warnings "$plain" "$@"; }
    fi
    status=0
    (cd "$repo" && SRCLS_WASM="$wasm" no_git --check . kept ignored) \
      >"$tmp/wasm.out" 2>"$tmp/wasm.err" || status=$?
    checks=$((checks + 1))
    [ "$status" -eq 2 ] || fail "$without: a scan in a work tree: exit $status, not 2"
    checks=$((checks + 1))
    grep -q json "$tmp/wasm.out" && fail "$without: a scan in a work tree: a file was checked"
    expect_lines "$tmp/wasm.err" "not checked: it is in a git work tree" 3 "$without: three directories"
    expect_lines "$tmp/wasm.err" "cannot read what git ignores ($without" 1 "$without: said once"
    expect_lines "$tmp/wasm.err" "pass --no-respect-gitignore" 1 "$without: what to do, said once"
    status=0
    (cd "$repo" && SRCLS_WASM="$wasm" no_git --check --base HEAD kept) \
      >"$tmp/wasm.out" 2>"$tmp/wasm.err" || status=$?
    checks=$((checks + 1))
    if [ "$status" -ne 2 ] || [ -s "$tmp/wasm.out" ]; then
      fail "$without: --base: exit $status and a report, not 2 and none"
    fi
    expect_lines "$tmp/wasm.err" "srcls: --base HEAD: git cannot be run ($without" 1 "$without: --base"
    status=0
    (cd "$repo" && SRCLS_WASM="$wasm" no_git --check --no-respect-gitignore .) \
      >"$tmp/wasm.out" 2>"$tmp/wasm.err" || status=$?
    echo "$status" >"$tmp/wasm.status"
    (cd "$repo" && "$native" --check --no-respect-gitignore .) >"$tmp/native.out" 2>"$tmp/native.err" &&
      echo 0 >"$tmp/native.status" || echo $? >"$tmp/native.status"
    expect_same "$without: --check --no-respect-gitignore in a work tree"
  done
else
  echo "wasm_check: git is not installed: the work-tree cases are left out"
fi

# The SARIF tests of the language-server suite (SARIF 2.1.0's schema, GitHub's and GitLab's
# rules for their reports) with the WebAssembly build as the --check binary.
if [ -d "$root/tests/lsp/node_modules" ]; then
  checks=$((checks + 1))
  (cd "$root/tests/lsp" && SRCLS_WASM="$wasm" SRCLS_WASM_RUNNER="$runner" \
    SRCLS_CLI_BINARY="$root/tests/lsp/srcls-wasm.sh" node --require ./require-deps.js --test \
    sarif.test.js >"$tmp/sarif.log" 2>&1) || { fail "tests/lsp/sarif.test.js"; tail -40 "$tmp/sarif.log"; }
else
  echo "wasm_check: no tests/lsp/node_modules (npm ci in tests/lsp): sarif.test.js left out"
fi

echo "wasm_check: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
