#!/usr/bin/env bash
# build.sh compiles the kernels with nvcc into kernels.fatbin, which `go build -tags cuda`
# embeds: cubins for sm_75, sm_80, sm_86, sm_89 and sm_90, and compute_90 PTX that newer
# GPUs JIT-compile. It needs nvcc (Debian: scripts/setup.sh --cuda), not a GPU. The output
# is generated: .gitignore keeps it out of git.
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
out=kernels.fatbin
tmp=$(mktemp kernels.fatbin.XXXXXX)
trap 'rm -f "$tmp"' EXIT
# -Werror all-warnings: a kernel warning (an unused variable, a narrowing) fails CI.
# -fmad=false: no multiply-add contraction, so the GPU rounds exactly as the emulated device
# and the CPU renderer do (the kernels use only IEEE-exact operations: + - * / sqrt, floor,
# ceil, fabs; division and sqrt stay IEEE-rounded by nvcc's defaults). Their agreement is then
# bit for bit by construction, not a tolerance.
"$NVCC" -fatbin -std=c++17 -O3 -Werror all-warnings -fmad=false \
  -gencode arch=compute_75,code=sm_75 \
  -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_86,code=sm_86 \
  -gencode arch=compute_89,code=sm_89 \
  -gencode arch=compute_90,code=sm_90 \
  -gencode arch=compute_90,code=compute_90 \
  -o "$tmp" all.cu
mv "$tmp" "$out"
trap - EXIT
echo "build.sh: wrote kernels/$out ($(stat -c %s "$out") bytes)"
