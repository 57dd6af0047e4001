#!/usr/bin/env bash
# root.sh makes (once) and prints a minimal Debian 12 root with no FFmpeg in it, the place
# where make dist-test and make gpu-kit-test run the portable build: debootstrap's minbase
# variant (glibc, coreutils, bash, tar, gzip, apt and little else), from the mirror this
# machine's apt uses. It lives in build/dist/root-KEY (KEY: this script and the mirror) and
# is reused while complete. Each call checks that it holds no FFmpeg, x264, x265, dav1d or
# CUDA library or program outside ROOT/work, where the tests copy their files (each test a
# folder of its own) and run them through in-root.sh. Needs root (debootstrap, chroot) and
# debootstrap (scripts/setup.sh --dist).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
top=${TRACKINK_DIST_BUILD:-$repo/build/dist}
[ "$(id -u)" -eq 0 ] || { echo "root.sh: debootstrap and chroot need root" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "root.sh: debootstrap is not installed (scripts/setup.sh --dist)" >&2; exit 1; }
read -r mirror suite keyring < <(bash "$repo/scripts/apt-sources.sh" mirror)
key=$( { cat "$0"; echo "$mirror $suite"; } | sha256sum | cut -c1-12)
root=$top/root-$key

# check_clean: the root is what the tests say it is, a machine without FFmpeg and CUDA.
check_clean() {
  local found
  found=$(find "$root" -path "$root/work" -prune -o \( -name 'libav*.so*' -o -name 'libsw*.so*' \
    -o -name 'libx26[45]*' -o -name 'libdav1d*' -o -name 'libcuda*' -o -name 'libnvcuvid*' \
    -o -name 'ffmpeg' -o -name 'ffprobe' \) -print)
  if [ -n "$found" ]; then
    echo "root.sh: $root is not free of FFmpeg and CUDA: $found" >&2
    exit 1
  fi
}
if [ -f "$root/.complete" ]; then
  check_clean
  echo "$root"
  exit 0
fi
echo "root.sh: debootstrap --variant=minbase $suite from $mirror into $root" >&2
rm -rf "$root"
mkdir -p "$top"
args=(--variant=minbase)
if [ "$keyring" != - ]; then args+=(--keyring="$keyring"); fi
# In a mount namespace of its own, so that no mount debootstrap makes outlives it.
if ! unshare --mount --propagation private debootstrap "${args[@]}" "$suite" "$root" "$mirror" >"$top/debootstrap.log" 2>&1; then
  tail -20 "$top/debootstrap.log" >&2
  echo "root.sh: debootstrap failed (log: $top/debootstrap.log)" >&2
  exit 1
fi
rm -rf "$root/var/cache/apt/archives"/*.deb
mkdir -p "$root/work"
check_clean
touch "$root/.complete"
find "$top" -maxdepth 1 -name 'root-*' ! -name "root-$key" -exec rm -rf {} +
echo "$root"
