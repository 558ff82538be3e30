#!/usr/bin/env bash
# env_cost.sh [SRCLS] [COPIES]: what srcls.json "placeholders" and --check --env cost, in
# instructions (valgrind's callgrind: the same count whatever else the machine runs), over COPIES
# (default 1,000) copies of docs/examples/03-object-storage-a.source.json, --jobs 1 -q:
#   plain              the copies, no srcls.json
#   placeholders       the same copies under a srcls.json naming two placeholder syntaxes
#   templated          accessSecret, credentialType and rootPath written as ${SECRET} ${CRED} ${ROOT}
#   templated --env    those checked as rendered with an env file that sets the three
# Prints a Markdown table (docs/performance.md, section 5).
# shellcheck disable=SC2016 # ${NAME} and the like are the placeholders, not shell
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
srcls=${1:-$root/build/server/srcls}
copies=${2:-1000}
command -v valgrind >/dev/null || { echo "env_cost: valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example=$root/docs/examples/03-object-storage-a.source.json
mkdir -p "$work/plain" "$work/placeholders" "$work/templated"
printf '{"placeholders": ["${NAME}", "{{ NAME }}"]}\n' >"$work/placeholders/srcls.json"
cp "$work/placeholders/srcls.json" "$work/templated/srcls.json"
sed -e 's|"accessSecret": "[^"]*"|"accessSecret": "${SECRET}"|' \
  -e 's|"credentialType": "[^"]*"|"credentialType": "${CRED}"|' \
  -e 's|"rootPath": "[^"]*"|"rootPath": "${ROOT}"|' "$example" >"$work/template.json"
grep -q '"${CRED}"' "$work/template.json" || { echo "env_cost: the example changed" >&2; exit 1; }
for i in $(seq 1 "$copies"); do
  cp "$example" "$work/plain/s$i.source.json"
  cp "$example" "$work/placeholders/s$i.source.json"
  cp "$work/template.json" "$work/templated/s$i.source.json"
done
printf 'SECRET=data:,bench\nCRED=ACCESS_KEY\nROOT=/\n' >"$work/prod.env"

# instructions ARGS...: srcls's instruction count for `srcls --check --jobs 1 -q ARGS`.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$srcls" --check --jobs 1 -q "$@" \
    2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
plain=$(instructions "$work/plain")
echo "| run | instructions | vs plain |"
echo "|---|---|---|"
row() { awk -v n="$2" -v p="$plain" -v w="$1" 'BEGIN { printf "| %s | %.1f M | %.2f |\n", w, n / 1e6, n / p }'; }
row "plain, no placeholders" "$plain"
row "plain files, placeholders configured" "$(instructions "$work/placeholders")"
row "templated files" "$(instructions "$work/templated")"
row "templated files, \`--env\`" "$(instructions --env "$work/prod.env" "$work/templated")"
