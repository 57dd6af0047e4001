#!/usr/bin/env bash
# setup.sh installs, idempotently, what trackink's build and tests need on a fresh Debian 12
# (bookworm) machine. Without arguments, what the default build needs (make build, make
# demo): a C compiler, pkg-config, FFmpeg 5.1 development libraries and ffmpeg/ffprobe, and
# ONNX Runtime for the detector (from npm, into ~/.local/share/trackink/lib).
# --faiss adds FAISS with its C API (built from Debian's own faiss source package, since
# libfaiss-dev ships no libfaiss_c), which only `go build -tags faiss` needs. --test adds
# what the tests need beyond that: FAISS (make test builds the faiss tag), the fonts the
# label tests and golden scenes set labels in (fonts-dejavu-core, fonts-droid-fallback:
# internal/fonts), the real footage the tests, goldens and the docs' pictures use
# (opencv-doc's vtest.avi, tree.avi, Megamind.avi), and OpenCV's Python binding with SciPy,
# the baseline the tracker's tests and bench compare with, and an aarch64 cross compiler with
# qemu-user (the kernels' half conversions are checked for arm64: kernels/device). --cuda adds Debian's CUDA 11.8
# toolkit for the kernel compile checks, and --dist what the portable build (make dist:
# scripts/dist/) needs on this machine: debootstrap, which makes the Debian 11 root where
# everything of it is compiled (its compilers, tools and source packages come into that root,
# not onto this machine: scripts/dist/root.sh).
# The deb-src and non-free entries copy this machine's own Debian entries (mirror, suites,
# keyring: scripts/apt-sources.sh). Re-running it is cheap: each step checks first.
set -euo pipefail

want_cuda=0
want_dist=0
want_faiss=0
want_test=0
for arg in "$@"; do
  case "$arg" in
    --cuda) want_cuda=1 ;;
    --dist) want_dist=1 ;;
    --faiss) want_faiss=1 ;;
    --test) want_test=1 want_faiss=1 ;;
    *) echo "setup.sh: unknown argument $arg (known: --cuda, --dist, --faiss, --test)" >&2; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v go >/dev/null 2>&1; then
  echo "setup: Go is not installed; trackink needs Go 1.26 or newer (https://go.dev/dl)" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

# apt_install retries once: Debian's apt can fail mid-way with "cannot access archive"
# and a second run completes it (deps.md). Both wait up to 5 minutes for another apt or
# dpkg to finish instead of failing at once.
apt_install() {
  local a=(apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends)
  $SUDO "${a[@]}" "$@" || $SUDO "${a[@]}" "$@"
}

have_pkgs() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || return 1
  done
}

updated=0 # apt-get update has run in this invocation
stale=0   # this invocation changed the apt entries
apt_update() {
  if [ "$updated" -eq 0 ]; then $SUDO apt-get -o DPkg::Lock::Timeout=300 update -q; updated=1; fi
}

# apt_entries KIND FILE writes scripts/apt-sources.sh's KIND entries (deb-src, non-free) to
# FILE in /etc/apt/sources.list.d when they differ from what is there (an older setup.sh
# wrote deb.debian.org whatever the machine used), and removes FILE when nothing is missing.
apt_entries() {
  local want=$1 file=/etc/apt/sources.list.d/$2 text
  text=$(bash "$here/apt-sources.sh" "$want")
  if [ -z "$text" ]; then
    if [ -f "$file" ]; then $SUDO rm -f "$file"; updated=0; stale=1; fi
    return
  fi
  if [ ! -f "$file" ] || [ "$(cat "$file")" != "$text" ]; then
    printf '%s\n' "$text" | $SUDO tee "$file" >/dev/null
    updated=0
    stale=1
  fi
}

base_pkgs=(pkg-config gcc g++ make ca-certificates
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev
  libavfilter-dev libavdevice-dev ffmpeg)
faiss_pkgs=(libfaiss-dev liblapack-dev libblas-dev libgomp1 dpkg-dev)
test_pkgs=(fonts-dejavu-core fonts-droid-fallback
  opencv-doc python3-opencv python3-scipy python3-numpy
  g++-aarch64-linux-gnu qemu-user)
pkgs=("${base_pkgs[@]}")
if [ "$want_faiss" -eq 1 ]; then pkgs+=("${faiss_pkgs[@]}"); fi
if [ "$want_test" -eq 1 ]; then pkgs+=("${test_pkgs[@]}"); fi
if ! have_pkgs "${pkgs[@]}"; then
  echo "setup: installing Debian packages (FFmpeg 5.1 dev$([ "$want_faiss" -eq 0 ] || echo ', FAISS')$([ "$want_test" -eq 0 ] || echo ', fonts, real footage, OpenCV, an aarch64 cross compiler'))"
  apt_update
  apt_install "${pkgs[@]}"
fi

# FAISS C API: compile the c_api sources of Debian's faiss 1.7.3 into libfaiss_c.a.
if [ "$want_faiss" -eq 1 ] && [ ! -f /usr/local/lib/libfaiss_c.a ]; then
  echo "setup: building the FAISS C API (libfaiss_c.a) from Debian's faiss source"
  apt_entries deb-src trackink-src.sources
  apt_update
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get source --download-only faiss >/dev/null)
  tar -C "$work" -xzf "$work"/faiss_*.orig.tar.gz
  srcdir=$(find "$work" -maxdepth 1 -mindepth 1 -type d -name 'faiss*' | head -1)
  files=$(sed -n '/set(FAISS_C_SRC/,/)/p' "$srcdir/c_api/CMakeLists.txt" | grep -o '[A-Za-z_/]*\.cpp')
  objs=()
  for f in $files; do
    o="$work/$(echo "$f" | tr / _).o"
    g++ -O2 -fPIC -std=c++17 -fopenmp -I"$srcdir" -c "$srcdir/c_api/$f" -o "$o"
    objs+=("$o")
  done
  $SUDO mkdir -p /usr/local/lib
  ar rcs "$work/libfaiss_c.a" "${objs[@]}"
  $SUDO install -m 0644 "$work/libfaiss_c.a" /usr/local/lib/libfaiss_c.a
fi

# ONNX Runtime, the library --detect people and objects run YOLOX-Nano with, for this
# machine's architecture, from npm (scripts/onnxruntime/fetch.sh), into trackink's data
# directory, where the binary looks for it (detect/locate.go), with its MIT licence.
case "$(uname -m)" in aarch64 | arm64) ort_arch=arm64 ;; *) ort_arch=amd64 ;; esac
ort_dir=${XDG_DATA_HOME:-$HOME/.local/share}/trackink/lib
if ! bash "$here/onnxruntime/fetch.sh" --current "$ort_arch" "$ort_dir"; then
  if ! command -v npm >/dev/null 2>&1; then
    apt_update
    apt_install npm
  fi
  bash "$here/onnxruntime/fetch.sh" "$ort_arch" "$ort_dir"
fi

if [ "$want_cuda" -eq 1 ] && ! command -v nvcc >/dev/null 2>&1; then
  echo "setup: installing Debian's CUDA 11.8 toolkit (non-free; about 1.6 GB)"
  apt_entries non-free trackink-nonfree.sources
  apt_update
  apt_install nvidia-cuda-toolkit nvidia-cuda-dev libcuda1
fi

# The portable build: debootstrap, for the Debian 11 roots it is built and tested in.
if [ "$want_dist" -eq 1 ] && ! have_pkgs debootstrap; then
  echo "setup: installing debootstrap (the portable build's Debian 11 roots)"
  apt_update
  apt_install debootstrap
fi
echo "setup: ok"
