#!/usr/bin/env bash
# The one step of the GitHub Action (action.yml at the repository root), as a runner runs it:
# installs srcls from npm (the version asked, else the action's own), then runs it with the
# user's arguments three ways — `--format github` (annotations on the files, and the step's exit
# status), `--format json` (the job summary: tools/action/summary.js), and `--format sarif` when
# a sarif-file is asked — and writes the outputs errors, warnings and sarif-file.
# Environment (action.yml sets it): SRCLS_ACTION_ARGS, SRCLS_ACTION_VERSION,
# SRCLS_ACTION_SARIF_FILE; the runner's GITHUB_ACTION_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
# RUNNER_TEMP. Exit status: srcls's (0 clean, 1 findings at the failing severity, 2 it could not
# check), 2 when srcls cannot be installed or the arguments are wrong.
set -uo pipefail
root=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
die() {
  echo "::error title=srcls action::$*"
  exit 2
}

version=${SRCLS_ACTION_VERSION:-}
# the action's own: meson.build's, which tools/npm-pack.sh gives every package it packs
[ -n "$version" ] || version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$root/meson.build" | head -n 1)
[ -n "$version" ] || die "cannot tell the action's own srcls version: set the version input"

# The arguments split as xargs splits them (quotes and backslashes), never run through a shell.
args_text=${SRCLS_ACTION_ARGS:---check .}
args=()
if [ -n "${args_text//[[:space:]]/}" ]; then
  split=$(printf '%s' "$args_text" | xargs printf '%s\0' 2>&1 >/dev/null) ||
    die "args cannot be split: ${split:-an unmatched quote?} (args: $args_text)"
  mapfile -d '' args < <(printf '%s' "$args_text" | xargs printf '%s\0')
fi
for a in "${args[@]}"; do
  case "$a" in
  --format | --format=* | --output-file | --output-file=*)
    die "args take no ${a%%=*}: the action chooses the formats (annotations, the job summary, and SARIF with the sarif-file input)" ;;
  esac
done

install=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/srcls-action
mkdir -p "$install" || die "cannot create $install"
echo "srcls action: npm install srcls@$version"
npm install --prefix "$install" --no-save --no-audit --no-fund --loglevel=error "srcls@$version" >&2 ||
  die "npm install srcls@$version failed (see the log above)"
srcls=$install/node_modules/.bin/srcls
[ -x "$srcls" ] || die "npm installed no srcls command in $install"

echo "srcls action: srcls ${args[*]}"
status=0
"$srcls" "${args[@]}" --format github || status=$?

report=$install/report.json
"$srcls" "${args[@]}" --format json --output-file "$report" 2>/dev/null
if [ -s "$report" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  node "$root/tools/action/summary.js" "$report" "$version" "$status" >>"$GITHUB_STEP_SUMMARY" ||
    echo "::warning title=srcls action::the job summary could not be written"
fi

sarif=${SRCLS_ACTION_SARIF_FILE:-}
if [ -n "$sarif" ]; then
  mkdir -p "$(dirname "$sarif")" || die "cannot create the directory of $sarif"
  "$srcls" "${args[@]}" --format sarif --output-file "$sarif" 2>/dev/null
  [ -s "$sarif" ] || die "no SARIF was written to $sarif"
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  # shellcheck disable=SC2016 # a JavaScript template string, not a shell expansion
  counts=$(node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).summary;
    console.log(`errors=${s.errors}\nwarnings=${s.warnings}`)' "$report" 2>/dev/null) ||
    counts=$'errors=\nwarnings='
  printf '%s\nsarif-file=%s\n' "$counts" "$sarif" >>"$GITHUB_OUTPUT"
fi
exit "$status"
