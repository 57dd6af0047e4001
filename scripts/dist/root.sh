#!/usr/bin/env bash
# root.sh test|build [ARCH] makes (once) and prints a Debian 11 "bullseye" root (glibc 2.31),
# the oldest system the portable build supports, made with debootstrap's minbase variant from
# the mirror this machine's apt uses:
#   test   glibc, coreutils, bash, tar, gzip, apt and little else, no FFmpeg: where make
#          dist-test and make gpu-kit-test run the tarball and the kit, as on a user's server.
#          ARCH amd64 (the default) or arm64: an arm64 root is debootstrapped in two stages,
#          the second run under qemu-user (in-root.sh runs an arm64 root's programs through
#          a binfmt_misc mount private to its own user namespace);
#   build  the same plus the compilers and tools that build the portable binaries
#          (scripts/dist/build.sh runs in it; git too, which x265 needs to read its
#          version), bullseye's aarch64 cross compilers with arm64's zlib (multiarch), which
#          build the arm64 tarball there, with bookworm's source packages (FFmpeg 5.1, x264,
#          x265, dav1d) and bookworm's libffmpeg-nvenc-dev offered beside bullseye's own
#          packages (pinned so that nothing else is ever taken from bookworm): what is built
#          there asks for no glibc symbol newer than 2.31. The build root is amd64 only.
# A root lives in build/dist/root-KIND-KEY (root-test-arm64-KEY; KEY: this script and the
# mirror) and is reused while complete. Each call checks that it holds no FFmpeg, x264, x265, dav1d or CUDA
# library or program outside ROOT/work, where the tests copy their files (each test a folder
# of its own) and run them through in-root.sh. Needs root (debootstrap, chroot) and
# debootstrap (scripts/setup.sh --dist).
set -euo pipefail
kind=${1:-}
arch=${2:-amd64}
case "$kind $arch" in
  "test amd64" | "test arm64" | "build amd64") ;;
  *) echo "usage: root.sh test [amd64|arm64] | root.sh build" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
top=${TRACKINK_DIST_BUILD:-$repo/build/dist}
[ "$(id -u)" -eq 0 ] || { echo "root.sh: debootstrap and chroot need root" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "root.sh: debootstrap is not installed (scripts/setup.sh --dist)" >&2; exit 1; }
read -r mirror _ keyring < <(bash "$repo/scripts/apt-sources.sh" mirror)
suite=bullseye
build_pkgs=gcc,g++,make,nasm,cmake,meson,ninja-build,pkg-config,binutils,git,libgfortran-10-dev,zlib1g-dev,liblapack-dev,libblas-dev,xz-utils,dpkg-dev,ca-certificates
# The arm64 build's compilers and libraries, added after debootstrap (multiarch).
cross_pkgs=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu zlib1g-dev:arm64)
name=$kind
if [ "$arch" != amd64 ]; then name=$kind-$arch; fi
key=$( { cat "$0"; echo "$mirror $suite $kind $arch"; } | sha256sum | cut -c1-12)
root=$top/root-$name-$key

# check_clean: the root is what the tests say it is, a machine without FFmpeg and CUDA.
check_clean() {
  local found
  found=$(find "$root" -path "$root/work" -prune -o -path "$root/src" -prune -o \( -name 'libav*.so*' \
    -o -name 'libsw*.so*' -o -name 'libx26[45]*' -o -name 'libdav1d*' -o -name 'libcuda*' \
    -o -name 'libnvcuvid*' -o -name 'ffmpeg' -o -name 'ffprobe' \) -print)
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
echo "root.sh: debootstrap --variant=minbase --arch=$arch $suite ($kind) from $mirror into $root" >&2
rm -rf "$root"
mkdir -p "$top"
args=(--variant=minbase --arch="$arch")
if [ "$keyring" != - ]; then args+=(--keyring="$keyring"); fi
if [ "$kind" = build ]; then args+=(--include="$build_pkgs"); fi
# A foreign root: debootstrap unpacks it here, and its second stage (the packages'
# configuration) runs inside it, under qemu-user.
if [ "$arch" != amd64 ]; then args+=(--foreign); fi
log=$top/debootstrap-$name.log
fail() {
  tail -20 "$log" >&2
  echo "root.sh: $* (log: $log)" >&2
  exit 1
}
# In a mount namespace of its own, so that no mount debootstrap makes outlives it.
unshare --mount --propagation private debootstrap "${args[@]}" "$suite" "$root" "$mirror" >"$log" 2>&1 ||
  fail "debootstrap failed"
if [ "$arch" != amd64 ]; then
  # container=lxc: no device nodes to make (in-root.sh binds /dev, and a user namespace may
  # not make them).
  bash "$here/in-root.sh" "$root" env container=lxc /debootstrap/debootstrap --second-stage >>"$log" 2>&1 ||
    fail "debootstrap's second stage under qemu-user failed"
fi
if [ "$kind" = build ]; then
  # bookworm's sources (deps.sh builds FFmpeg 5.1 and its codecs from them) and its
  # nv-codec-headers package (headers only), pinned so that bullseye stays the system.
  signed=""
  if [ "$keyring" != - ]; then signed=" [signed-by=$keyring]"; fi
  printf 'deb%s %s bookworm main\ndeb-src%s %s bookworm main\n' "$signed" "$mirror" "$signed" "$mirror" \
    >"$root/etc/apt/sources.list.d/bookworm.list"
  printf 'Package: *\nPin: release n=bookworm\nPin-Priority: 1\n\nPackage: libffmpeg-nvenc-dev\nPin: release n=bookworm\nPin-Priority: 500\n' \
    >"$root/etc/apt/preferences.d/bookworm"
  if [ "$keyring" != - ]; then
    mkdir -p "$root$(dirname "$keyring")"
    cp "$keyring" "$root$keyring"
  fi
  bash "$here/in-root.sh" "$root" dpkg --add-architecture arm64
  bash "$here/in-root.sh" "$root" apt-get -q update >>"$log" 2>&1 || fail "apt-get update in the build root failed"
  bash "$here/in-root.sh" "$root" env DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends \
    install "${cross_pkgs[@]}" >>"$log" 2>&1 || fail "the cross compilers do not install in the build root"
fi
rm -rf "$root/var/cache/apt/archives"/*.deb
mkdir -p "$root/work"
check_clean
touch "$root/.complete"
# Older roots of this kind and architecture, and the bookworm roots of earlier versions (root-KEY).
find "$top" -maxdepth 1 \( -regex ".*/root-$name-[0-9a-f]+" ! -name "root-$name-$key" -o -regex '.*/root-[0-9a-f]+' \) -exec rm -rf {} +
echo "$root"
