#!/usr/bin/env bash
# fakecuda.sh builds trackink's fake CUDA driver (kernels/device/testdata/fakecuda) in
# root.sh's build root, so that it loads where the portable binaries are tested (a Debian 11
# root: a fake built on this machine would ask for this machine's newer glibc), and prints
# the folder of its libcuda.so.1 (make dist-test, make gpu-kit-test). ARCH=arm64: built for
# aarch64 with the root's cross compilers, into build/dist/fakecuda-arm64.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=env.sh
. "$here/env.sh"
out=$dist_top/fakecuda compilers=()
if [ "$dist_arch" = arm64 ]; then out=$dist_top/fakecuda-arm64 compilers=(CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++); fi
mkdir -p "$out" "$cuda_link/real"
# build.sh lists the real driver's exports (nm) to stub the rest: the library is only read.
cp "$(readlink -f /usr/lib/x86_64-linux-gnu/libcuda.so.1)" "$cuda_link/real/libcuda.so.1"
in_build_root env "${compilers[@]}" CPATH="$(root_path "$cuda_link/include")" REAL_LIBCUDA="$(root_path "$cuda_link/real/libcuda.so.1")" \
  bash kernels/device/testdata/fakecuda/build.sh "$(root_path "$out")" >&2
echo "$out"
