#!/usr/bin/env bash
# fresh-debian.sh: the README's Quick start as a new user meets it. Builds a minimal Debian
# bookworm (debootstrap --variant=minbase: no compiler, no node, no git), clones the committed
# HEAD of this repository into it, and runs the two commands of the README's Quick start block
# there as root, one after the other. Each command's output is kept in the log directory, and
# so is meson's test log.
#
#   sudo tools/fresh-debian.sh [--logs DIR] [--rebuild-base]
#
#   --logs DIR       where step1.log, step2.log and testlog.txt go (default: a new folder under
#                    ${TMPDIR:-/tmp}, printed at the end)
#   --rebuild-base   debootstrap again instead of reusing the cached base system
#
# Needs root (debootstrap, chroot, mounts) and Debian's package mirror; installs debootstrap
# when it is missing. The base system is cached in ${TMPDIR:-/tmp}/srcls-fresh-debian/ (about
# 200 MB). Exit 0 when both commands exit 0; 1 when one fails; 2 when the check itself could
# not run (not root, no mirror, no Quick start block of exactly two commands).
set -uo pipefail

usage() { sed -n '2,/^set -uo/p' "$0" | sed -e '/^set -uo/d' -e 's/^# \{0,1\}//'; }

logs=""
rebuild=0
while [ $# -gt 0 ]; do
  case $1 in
    --logs) logs=${2:?--logs needs a directory}; shift 2 ;;
    --rebuild-base) rebuild=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "fresh-debian: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

project=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "fresh-debian: needs root (debootstrap, chroot)" >&2; exit 2; }

cache=${TMPDIR:-/tmp}/srcls-fresh-debian
mkdir -p "$cache"
[ -n "$logs" ] || logs=$(mktemp -d "$cache/logs.XXXXXX")
mkdir -p "$logs"
logs=$(cd "$logs" && pwd)

# The Quick start block: the first fenced block after the "Quick start" heading, its non-empty,
# non-comment lines. The check runs what the README says, not a copy of it.
mapfile -t commands < <(awk '
  /^#+ +Quick start/ { in_section = 1; next }
  in_section && /^```/ { if (in_block) exit; in_block = 1; next }
  in_section && in_block && NF && $1 !~ /^#/ { print }' "$project/README.md")
if [ "${#commands[@]}" -ne 2 ]; then
  echo "fresh-debian: README.md's Quick start block has ${#commands[@]} commands, not 2:" >&2
  printf '  %s\n' "${commands[@]}" >&2
  exit 2
fi

# ---- the base system, made once ----------------------------------------------------------------
base=$cache/bookworm-minbase.tar
if [ "$rebuild" -eq 1 ] || [ ! -s "$base" ]; then
  if ! command -v debootstrap >/dev/null; then
    echo "fresh-debian: installing debootstrap"
    apt-get install -y -qq debootstrap >/dev/null || { echo "fresh-debian: cannot install debootstrap" >&2; exit 2; }
  fi
  # the mirror this machine's apt already uses (deb822 sources, then the one-line format)
  mirror=$(awk '$1 == "URIs:" { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' \
    /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null)
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
  echo "fresh-debian: debootstrap --variant=minbase bookworm from $mirror (a few minutes, once)"
  staging=$cache/staging
  rm -rf --one-file-system "$staging"
  if ! debootstrap --variant=minbase bookworm "$staging" "$mirror" >"$logs/debootstrap.log" 2>&1; then
    tail -5 "$logs/debootstrap.log" >&2
    echo "fresh-debian: debootstrap failed (log: $logs/debootstrap.log)" >&2
    exit 2
  fi
  tar -C "$staging" -cf "$base.new" . && mv "$base.new" "$base" && rm -rf --one-file-system "$staging"
fi

# ---- a new root for this run ---------------------------------------------------------------------
root=$(mktemp -d "$cache/root.XXXXXX")
unmount_all() {
  local m
  for m in dev sys proc; do
    umount -R "$root/$m" 2>/dev/null || umount -lR "$root/$m" 2>/dev/null || true
  done
}
cleanup() {
  unmount_all
  # never remove a tree that still has a mount in it: it would reach the host's /dev or /sys
  if grep -q " $root/" /proc/mounts; then
    echo "fresh-debian: $root still has mounts; left in place" >&2
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT INT TERM
tar -C "$root" -xf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# A registry reached through a proxy with its own certificate authority: hand the host's bundle
# to npm and git by environment only, leaving the new system's own certificate store as it is.
ca_env=()
if [ -s /etc/ssl/certs/ca-certificates.crt ]; then
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/srcls-host-ca.crt"
  ca_env=(NODE_EXTRA_CA_CERTS=/etc/srcls-host-ca.crt GIT_SSL_CAINFO=/etc/srcls-host-ca.crt)
fi
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"

# the committed HEAD, as a clone would have it (no build/, no node_modules/, no ../shared)
if ! git clone -q "$project" "$root/root/srcls"; then
  echo "fresh-debian: git clone of $project failed" >&2
  exit 2
fi
echo "fresh-debian: testing $(git -C "$project" rev-parse --short HEAD) in $root"

run_step() { # N COMMAND
  local started=$SECONDS status
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${ca_env[@]}" \
    bash -c "cd /root/srcls && $2" </dev/null >"$logs/step$1.log" 2>&1
  status=$?
  echo "fresh-debian: step $1 ($2): exit $status in $((SECONDS - started)) s; log $logs/step$1.log"
  return $status
}

run_step 1 "${commands[0]}"; first=$?
run_step 2 "${commands[1]}"; second=$?
cp "$root/root/srcls/build/meson-logs/testlog.txt" "$logs/testlog.txt" 2>/dev/null || true
# what meson said, and every test that did not pass
grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|ERROR|TIMEOUT|SKIP)' "$logs/step2.log" | sed 's/^/  /'
grep -E '^(Ok|Fail|Skipped|Timeout):' "$logs/step2.log" | tr -s ' ' | paste -sd' ' | sed 's/^/  meson: /'
if [ $first -eq 0 ] && [ $second -eq 0 ]; then
  echo "fresh-debian: both Quick start commands passed on a fresh bookworm (logs: $logs)"
  exit 0
fi
echo "fresh-debian: the Quick start failed on a fresh bookworm (logs: $logs)" >&2
exit 1
