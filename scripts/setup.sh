#!/usr/bin/env bash
# setup.sh installs, idempotently, everything trackink's build and tests need on a fresh
# Debian 12 (bookworm) machine: FFmpeg 5.1 development libraries, ffmpeg/ffprobe, FAISS with
# its C API (built from Debian's own faiss source package, since libfaiss-dev ships no
# libfaiss_c), and, with --cuda, Debian's CUDA 11.8 toolkit for the kernel compile checks.
# Facts behind each step: ../shared/deps.md. Re-running it is cheap: each step checks first.
set -euo pipefail

want_cuda=0
for arg in "$@"; do
  case "$arg" in
    --cuda) want_cuda=1 ;;
    *) echo "setup.sh: unknown argument $arg (known: --cuda)" >&2; exit 2 ;;
  esac
done

if ! command -v go >/dev/null 2>&1; then
  echo "setup: Go is not installed; trackink needs Go 1.26 or newer (https://go.dev/dl)" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

# apt_install retries once: Debian's apt can fail mid-way with "cannot access archive"
# and a second run completes it (deps.md).
apt_install() {
  $SUDO apt-get install -y --no-install-recommends "$@" || $SUDO apt-get install -y --no-install-recommends "$@"
}

have_pkgs() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || return 1
  done
}

updated=0
apt_update() {
  if [ "$updated" -eq 0 ]; then $SUDO apt-get update -q; updated=1; fi
}

base_pkgs=(pkg-config gcc g++ make ca-certificates
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev
  libavfilter-dev libavdevice-dev ffmpeg
  libfaiss-dev liblapack-dev libblas-dev libgomp1 dpkg-dev)
if ! have_pkgs "${base_pkgs[@]}"; then
  echo "setup: installing Debian packages (FFmpeg 5.1 dev, FAISS)"
  apt_update
  apt_install "${base_pkgs[@]}"
fi

# FAISS C API: compile the c_api sources of Debian's faiss 1.7.3 into libfaiss_c.a.
if [ ! -f /usr/local/lib/libfaiss_c.a ]; then
  echo "setup: building the FAISS C API (libfaiss_c.a) from Debian's faiss source"
  src_list=/etc/apt/sources.list.d/trackink-src.sources
  if [ ! -f "$src_list" ]; then
    $SUDO tee "$src_list" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    updated=0
  fi
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

if [ "$want_cuda" -eq 1 ] && ! command -v nvcc >/dev/null 2>&1; then
  echo "setup: installing Debian's CUDA 11.8 toolkit (non-free; about 1.6 GB)"
  nf=/etc/apt/sources.list.d/trackink-nonfree.sources
  if [ ! -f "$nf" ]; then
    $SUDO tee "$nf" >/dev/null <<'NF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
NF
    updated=0
  fi
  apt_update
  apt_install nvidia-cuda-toolkit nvidia-cuda-dev libcuda1
fi
echo "setup: ok"
