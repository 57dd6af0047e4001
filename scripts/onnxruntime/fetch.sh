#!/usr/bin/env bash
# fetch.sh [--current] ARCH DIR installs ONNX Runtime's CPU library for linux ARCH (amd64 or arm64) as
# DIR/libonnxruntime.so.1, with its MIT licence as DIR/onnxruntime.LICENSE, from npm's
# onnxruntime-node, which ships it for linux x64 and arm64 (its postinstall, which fetches a
# CUDA provider from elsewhere, is not run). DIR/onnxruntime.version records what is there;
# a DIR that already holds this version for ARCH is left as it is. --current only says, by
# its exit status, whether DIR holds it. scripts/setup.sh puts the
# machine's own in trackink's data directory, where the binary looks (detect/locate.go);
# scripts/dist/build.sh takes the other architecture's for its tarball. Needs npm.
set -euo pipefail
version=1.30.0
current=0
if [ "${1:-}" = --current ]; then current=1; shift; fi
arch=${1:?usage: fetch.sh [--current] amd64|arm64 DIR}
dir=${2:?usage: fetch.sh [--current] amd64|arm64 DIR}
case $arch in
  amd64) npm_arch=x64 ;;
  arm64) npm_arch=arm64 ;;
  *) echo "fetch.sh: ARCH is amd64 or arm64, not $arch" >&2; exit 2 ;;
esac
stamp="onnxruntime-node@$version $npm_arch"
[ "$(cat "$dir/onnxruntime.version" 2>/dev/null)" != "$stamp" ] || exit 0
[ "$current" -eq 0 ] || exit 1
command -v npm >/dev/null 2>&1 || { echo "fetch.sh: npm is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
echo "fetch.sh: installing ONNX Runtime $version for linux-$arch (npm's onnxruntime-node) into $dir" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm install --prefix "$work" --ignore-scripts --no-audit --no-fund --loglevel=error "onnxruntime-node@$version" >/dev/null
mkdir -p "$dir"
install -m 0644 "$work/node_modules/onnxruntime-node/bin/napi-v6/linux/$npm_arch/libonnxruntime.so.1" "$dir/libonnxruntime.so.1"
install -m 0644 "$(dirname "$0")/LICENSE" "$dir/onnxruntime.LICENSE"
echo "$stamp" >"$dir/onnxruntime.version"
