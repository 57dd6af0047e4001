# env.sh, sourced by build.sh and gpu-kit.sh: the place and the environment in which the
# portable binaries are built. Everything that is compiled and linked is, in root.sh's build
# root (Debian 11, glibc 2.31), so that the binaries ask for no glibc symbol newer than
# 2.31 and start on Ubuntu 20.04 and 22.04, RHEL/Rocky 8 and 9, Amazon Linux 2023, Debian
# 11 and 12 alike: deps.sh's static FFmpeg, x264, x265 and dav1d, and `go build` and
# `go test -c` (dist_go, through go.sh), with this machine's Go toolchain and module cache
# bound into the root. ARCH=arm64 builds the same for linux-arm64 in the same root, with its
# aarch64 cross compilers (bullseye's, glibc 2.31) and GOARCH=arm64. Sets dist_arch,
# dist_repo, dist_top, dist_prefix (on this machine; the root sees the build folder as
# /dist-build), dist_version, dist_mtime and dist_goflags, and the functions in_build_root,
# root_path and dist_go.
dist_arch=${ARCH:-amd64}
case $dist_arch in
  amd64 | arm64) ;;
  *) echo "env.sh: ARCH=$dist_arch: the portable build is made for amd64 or arm64" >&2; exit 2 ;;
esac
dist_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dist_top=${TRACKINK_DIST_BUILD:-$dist_repo/build/dist}
mkdir -p "$dist_top"
dist_top=$(cd "$dist_top" && pwd)
# The roots hold Go files of their own (git's contrib, in the build root): a go.mod makes the
# build folder a module apart, so that the repository's `go vet ./...` and `go test ./...`
# stay out of it.
[ -f "$dist_top/go.mod" ] || printf 'module trackink.invalid/build\n' >"$dist_top/go.mod"
dist_version=${VERSION:-$(git -C "$dist_repo" describe --tags --always --dirty 2>/dev/null || echo unknown)}
# Reproducible archives: one fixed time, the commit's.
dist_mtime=$(git -C "$dist_repo" log -1 --format=%ct 2>/dev/null || echo 0)
dist_root=$(bash "$dist_repo/scripts/dist/root.sh" build)

# The CUDA build compiles against cuda.h and links against the toolkit's link stub of
# libcuda.so (the driver itself comes from the machine it runs on). Debian's toolkit here is
# x86-64's: for arm64 the stub is made from its list of functions (the driver's API is the
# same on both), compiled for aarch64 with no code in it, named libcuda.so.1 as the real one.
cuda_stub=/usr/lib/x86_64-linux-gnu/stubs/libcuda.so
cuda_link=$dist_top/cuda-link
mkdir -p "$cuda_link/include" "$cuda_link/lib"
cp /usr/include/cuda.h "$cuda_link/include/"
cp "$cuda_stub" "$cuda_link/lib/libcuda.so"

# in_build_root COMMAND...: runs COMMAND in the build root, in the repository (/src), with
# Go's toolchain (/usr/local/go), its module cache (/gomod, read from only: GOPROXY=off)
# and the build folder (/dist-build) bound in.
in_build_root() {
  bash "$dist_repo/scripts/dist/in-root.sh" --bind "$dist_repo:/src" --bind "$dist_top:/dist-build" \
    --bind "$(go env GOROOT):/usr/local/go" --bind "$(go env GOMODCACHE):/gomod" "$dist_root" \
    env -C /src PATH=/usr/local/go/bin:/usr/bin:/bin HOME=/root GOMODCACHE=/gomod \
    GOCACHE=/dist-build/gocache GOPROXY=off GOTOOLCHAIN=local GOFLAGS=-buildvcs=false \
    TRACKINK_DIST_BUILD=/dist-build "$@"
}
# root_path PATH: where PATH, on this machine, is seen from the build root.
root_path() {
  case $1 in
    "$dist_top"*) echo "/dist-build${1#"$dist_top"}" ;;
    "$dist_repo"*) echo "/src${1#"$dist_repo"}" ;;
    *) echo "env.sh: $1 is outside the repository and the build folder" >&2; return 1 ;;
  esac
}
if [ "$dist_arch" = arm64 ]; then
  cuda_link=$dist_top/cuda-link-arm64
  mkdir -p "$cuda_link/include" "$cuda_link/lib"
  cp /usr/include/cuda.h "$cuda_link/include/"
  stub_c=$(nm -D --defined-only "$cuda_stub" | awk '$2 == "T" {printf "void %s(void) {}\n", $3}')
  if [ ! -f "$cuda_link/lib/libcuda.so" ] || [ "$stub_c" != "$(cat "$cuda_link/stub.c" 2>/dev/null)" ]; then
    printf '%s\n' "$stub_c" >"$cuda_link/stub.c"
    in_build_root aarch64-linux-gnu-gcc -shared -nostdlib -Wl,-soname,libcuda.so.1 \
      -o "$(root_path "$cuda_link/lib/libcuda.so")" "$(root_path "$cuda_link/stub.c")"
  fi
fi
# TRACKINK_DIST_PREFIX: a prefix deps.sh has built (to skip even its quick check), as the
# build root sees it.
dist_prefix_root=${TRACKINK_DIST_PREFIX:-$(in_build_root env ARCH="$dist_arch" bash scripts/dist/deps.sh)}
dist_prefix=$dist_top${dist_prefix_root#/dist-build}
# dist_go ARG...: go ARG... in the build root, linking the portable way (go.sh).
dist_go() {
  in_build_root env TRACKINK_DIST_PREFIX="$dist_prefix_root" TRACKINK_CUDA_LINK="$(root_path "$cuda_link")" \
    ARCH="$dist_arch" VERSION="$dist_version" bash scripts/dist/go.sh "$@"
}
# run_target PROGRAM ARG...: runs a program built for ARCH in the build root (PROGRAM on this
# machine, the arguments as the root sees them): an arm64 one under qemu-user, with the
# cross compilers' aarch64 glibc.
run_target() {
  local prog
  prog=$(root_path "$1")
  shift
  if [ "$dist_arch" = amd64 ]; then
    in_build_root "$prog" "$@"
  else
    in_build_root "$(root_path "$(bash "$dist_repo/scripts/dist/qemu.sh")")" -L /usr/aarch64-linux-gnu "$prog" "$@"
  fi
}
