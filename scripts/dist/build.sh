#!/usr/bin/env bash
# build.sh (make dist) writes dist/trackink-VERSION-linux-ARCH.tar.gz (ARCH amd64, or arm64
# with ARCH=arm64: cross-compiled, env.sh): trackink (CPU, with
# the run-time CUDA probe), trackink-cuda (the CUDA backend; loads the machine's
# libcuda.so.1), and the ffmpeg and ffprobe programs of the same static FFmpeg (trackink
# demo and bench --e2e run ffmpeg; neither needs one installed), the detector's model
# (models/yolox_nano.onnx) and ONNX Runtime (lib/libonnxruntime.so.1, loaded at run time),
# with docs/gpu.md as README.md and the licences and source versions of what is in it. Every binary is
# checked to need nothing but glibc (and libcuda.so.1). VERSION: git describe, or $VERSION.
# Needs kernels/kernels.fatbin (make kernels-fatbin; the same device code for either host).
# A rerun with nothing changed leaves
# the tarball as it is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=env.sh
. "$here/env.sh"
cd "$dist_repo"
limit=60000000

[ -s kernels/kernels.fatbin ] || { echo "build.sh: kernels/kernels.fatbin is missing: make kernels-fatbin" >&2; exit 1; }
# The detector's files (--detect people, objects): the model kept beside the project, and
# ONNX Runtime for ARCH (scripts/onnxruntime/fetch.sh, kept in the build folder); the binary
# finds both beside itself.
model=${MODEL_SRC:-../shared/models/yolox_nano.onnx}
ort=$dist_top/onnxruntime-$dist_arch
[ -s "$model" ] || { echo "build.sh: no model at $model (YOLOX-Nano, kept beside the project in ../shared/models)" >&2; exit 1; }
bash scripts/onnxruntime/fetch.sh "$dist_arch" "$ort"
name=trackink-$dist_version-linux-$dist_arch
stages=$dist_top/stage/$dist_arch
stage=$stages/$name
rm -rf "$stages"
mkdir -p "$stage/licenses" "$stage/models" "$stage/lib" dist
dist_go build -o "$(root_path "$stage/trackink")" .
dist_go build -tags cuda -o "$(root_path "$stage/trackink-cuda")" .
cp "$dist_prefix/bin/ffmpeg" "$dist_prefix/bin/ffprobe" "$stage/"
cp "$dist_prefix"/share/licenses/* "$stage/licenses/"
cp "$model" "$stage/models/yolox_nano.onnx"
cp "$(dirname "$model")/LICENSE-Apache-2.0.txt" "$stage/licenses/yolox_nano.LICENSE-Apache-2.0"
cp "$ort/libonnxruntime.so.1" "$stage/lib/"
cp "$ort/onnxruntime.LICENSE" "$stage/licenses/onnxruntime.LICENSE"
cp docs/gpu.md "$stage/README.md"
run_target "$stage/trackink" man -y "$(root_path "$stage/man/man1")"
ARCH=$dist_arch bash "$here/check-linkage.sh" "$stage/trackink" "$stage/ffmpeg" "$stage/ffprobe"
ARCH=$dist_arch bash "$here/check-linkage.sh" --cuda "$stage/trackink-cuda"

tarball=dist/$name.tar.gz
sum=$(cd "$stages" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64)
stamp=$dist_top/tarball-$dist_arch.sha256
if [ -f "$tarball" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$tarball $sum" ]; then
  echo "build.sh: $tarball is up to date ($(stat -c %s "$tarball") bytes)"
  exit 0
fi
# Reproducible: sorted names, no owners, one fixed time (the commit's).
tmp=$(mktemp "dist/.$name.XXXXXX")
trap 'rm -f "$tmp"' EXIT
tar -C "$stages" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$dist_mtime" \
  -cf - "$name" | nice gzip -n -9 >"$tmp"
size=$(stat -c %s "$tmp")
if [ "$size" -ge "$limit" ]; then
  echo "build.sh: $tarball would be $size bytes, over the $limit-byte limit" >&2
  exit 1
fi
chmod 0644 "$tmp"
mv "$tmp" "$tarball"
trap - EXIT
find dist -maxdepth 1 -name "trackink-*-linux-$dist_arch.tar.gz" ! -name "$name.tar.gz" -delete
echo "$tarball $sum" >"$stamp"
echo "build.sh: wrote $tarball ($size bytes)"
