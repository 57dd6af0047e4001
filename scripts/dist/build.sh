#!/usr/bin/env bash
# build.sh (make dist) writes dist/trackink-VERSION-linux-amd64.tar.gz: trackink (CPU, with
# the run-time CUDA probe), trackink-cuda (the CUDA backend; loads the machine's
# libcuda.so.1), and the ffmpeg and ffprobe programs of the same static FFmpeg (trackink
# demo and bench --e2e run ffmpeg; neither needs one installed), with docs/gpu.md as
# README.md and the licences and source versions of what is linked in. Every binary is
# checked to need nothing but glibc (and libcuda.so.1). VERSION: git describe, or $VERSION.
# Needs kernels/kernels.fatbin (make kernels-fatbin). A rerun with nothing changed leaves
# the tarball as it is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=env.sh
. "$here/env.sh"
cd "$dist_repo"
limit=60000000

[ -s kernels/kernels.fatbin ] || { echo "build.sh: kernels/kernels.fatbin is missing: make kernels-fatbin" >&2; exit 1; }
name=trackink-$dist_version-linux-amd64
stage=$dist_top/stage/$name
rm -rf "$dist_top/stage"
mkdir -p "$stage/licenses" dist
dist_go build -o "$(root_path "$stage/trackink")" .
dist_go build -tags cuda -o "$(root_path "$stage/trackink-cuda")" .
cp "$dist_prefix/bin/ffmpeg" "$dist_prefix/bin/ffprobe" "$stage/"
cp "$dist_prefix"/share/licenses/* "$stage/licenses/"
cp docs/gpu.md "$stage/README.md"
"$stage/trackink" man "$stage/man/man1"
bash "$here/check-linkage.sh" "$stage/trackink" "$stage/ffmpeg" "$stage/ffprobe"
bash "$here/check-linkage.sh" --cuda "$stage/trackink-cuda"

tarball=dist/$name.tar.gz
sum=$(cd "$dist_top/stage" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64)
stamp=$dist_top/tarball.sha256
if [ -f "$tarball" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$tarball $sum" ]; then
  echo "build.sh: $tarball is up to date ($(stat -c %s "$tarball") bytes)"
  exit 0
fi
# Reproducible: sorted names, no owners, one fixed time (the commit's).
tmp=$(mktemp "dist/.$name.XXXXXX")
trap 'rm -f "$tmp"' EXIT
tar -C "$dist_top/stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$dist_mtime" \
  -cf - "$name" | nice gzip -n -9 >"$tmp"
size=$(stat -c %s "$tmp")
if [ "$size" -ge "$limit" ]; then
  echo "build.sh: $tarball would be $size bytes, over the $limit-byte limit" >&2
  exit 1
fi
chmod 0644 "$tmp"
mv "$tmp" "$tarball"
trap - EXIT
find dist -maxdepth 1 -name 'trackink-*-linux-amd64.tar.gz' ! -name "$name.tar.gz" -delete
echo "$tarball $sum" >"$stamp"
echo "build.sh: wrote $tarball ($size bytes)"
