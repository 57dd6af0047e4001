#!/usr/bin/env bash
# qemu.sh prints the path of a static qemu-aarch64 (Debian's qemu-user-static, the version
# this machine's apt offers), which in-root.sh registers, inside a user namespace of its own,
# as the interpreter of an arm64 root's programs. The package is downloaded and unpacked into
# build/dist/qemu-VERSION, never installed: installing it would register qemu for the whole
# machine.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
top=${TRACKINK_DIST_BUILD:-$repo/build/dist}
version=$(apt-cache policy qemu-user-static | awk '/Candidate:/ {print $2}')
[ -n "$version" ] && [ "$version" != "(none)" ] || { echo "qemu.sh: apt offers no qemu-user-static" >&2; exit 1; }
dir=$top/qemu-${version//[^A-Za-z0-9.+-]/_}
bin=$dir/qemu-aarch64-static
if [ ! -x "$bin" ]; then
  tmp=$(mktemp -d "$top/.qemu.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && apt-get download -q "qemu-user-static=$version" >/dev/null 2>&1) ||
    { echo "qemu.sh: apt-get download qemu-user-static=$version failed" >&2; exit 1; }
  dpkg-deb -x "$tmp"/qemu-user-static_*.deb "$tmp/x"
  mkdir -p "$dir"
  install -m 0755 "$tmp/x/usr/bin/qemu-aarch64-static" "$bin"
  find "$top" -maxdepth 1 -name 'qemu-*' ! -name "$(basename "$dir")" -exec rm -rf {} +
fi
echo "$bin"
