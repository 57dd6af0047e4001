#!/usr/bin/env bash
# deps.sh builds, from Debian's own source packages, the static libraries the portable
# trackink links (make dist), and prints the prefix they are in:
#
#   x264    8- and 10-bit, with its assembly (nasm)
#   x265    8-bit only, with its assembly (10-bit video is coded by x264, High 10)
#   dav1d   AV1 decoding (FFmpeg 5.1's own av1 decoder only drives hardware decoders)
#   nv-codec-headers  NVDEC/NVENC: headers only, the driver is loaded at run time
#   FFmpeg  --disable-everything, then just the demuxers, decoders, parsers, encoders and
#           muxers trackink and its tests use (the list is below), plus the ffmpeg and
#           ffprobe programs, linked statically against the same libraries
#
# ARCH=arm64 cross-compiles all of it for aarch64 with the root's aarch64-linux-gnu
# compilers (bullseye's GCC 10 and glibc 2.31), into build/dist/deps-arm64-KEY: x264's and
# dav1d's NEON assembly is built, x265's is not (Debian leaves it off on arm64 too: it is
# experimental in x265 3.5).
# The result lands in build/dist/deps-KEY/prefix, KEY being a hash of this script, the
# source package versions apt offers and the compiler and assembler versions; a prefix
# that is complete for the current key is reused, so a second run only prints the path.
# Runs in root.sh's Debian 11 build root (env.sh's in_build_root), which has the deb-src
# entries and the build tools; needs no root. Fresh build time on 2 cores: see docs/gpu.md.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
top=${TRACKINK_DIST_BUILD:-$repo/build/dist}
jobs=${JOBS:-$(nproc)}
arch=${ARCH:-amd64}

die() { echo "deps.sh: $*" >&2; exit 1; }
# What the target is, for each build system: the compilers' prefix ("" for amd64), the
# multiarch triplet, and deps-NAME.
case $arch in
  amd64) cross="" triplet=x86_64-linux-gnu name=deps ;;
  arm64) cross=aarch64-linux-gnu- triplet=aarch64-linux-gnu name=deps-arm64 ;;
  *) die "ARCH=$arch: the portable build is made for amd64 or arm64" ;;
esac
cc=${cross}gcc cxx=${cross}g++
for tool in apt-get dpkg-source dpkg-deb nasm cmake meson ninja make gcc g++ "$cc" "$cxx" pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found: run this in scripts/dist/root.sh's build root"
done

# The source packages and the version of each that apt would fetch. nv-codec-headers is a
# headers-only package; its binary package carries the very files the source installs (some
# mirrors lack its source), so the binary package is what we unpack.
src_pkgs=(x264 x265 dav1d ffmpeg)
versions=""
for p in "${src_pkgs[@]}"; do
  v=$(apt-get source --print-uris --only-source "$p" 2>/dev/null | awk '$2 ~ /\.dsc$/ {print $2; exit}')
  [ -n "$v" ] || die "apt offers no source package $p: the build root offers bookworm's deb-src (scripts/dist/root.sh)"
  versions+="$v "
done
nvh=$(apt-cache policy libffmpeg-nvenc-dev | awk '/Candidate:/ {print $2}')
[ -n "$nvh" ] && [ "$nvh" != "(none)" ] || die "apt offers no libffmpeg-nvenc-dev"
versions+="libffmpeg-nvenc-dev_$nvh"

key=$( { cat "$0"; echo "$arch $versions"; $cc -dumpfullversion; $cxx -dumpfullversion; nasm -v; } | sha256sum | cut -c1-12)
dir=$top/$name-$key
prefix=$dir/prefix
if [ -f "$prefix/.complete" ]; then
  echo "$prefix"
  exit 0
fi

echo "deps.sh: building static x264, x265, dav1d and FFmpeg for $arch into $prefix ($versions)" >&2
start=$(date +%s)
rm -rf "$dir"
mkdir -p "$dir/src" "$prefix/lib/pkgconfig" "$prefix/include" "$prefix/share/licenses"
cd "$dir/src"
# Each step's output goes to a log in $dir/logs (compilers' warnings included); a failing
# step shows the end of its log. The builds run at low priority.
mkdir -p "$dir/logs"
quietly() {
  local log=$dir/logs/$1.log
  shift
  "$@" >>"$log" 2>&1 || { tail -30 "$log" >&2; die "failed: $* (log: $log)"; }
}
nicely() { nice -n 10 "$@"; }
# (apt, as root, warns that its _apt user cannot write here: harmless.)
quietly apt apt-get source --download-only "${src_pkgs[@]}"
quietly apt apt-get download "libffmpeg-nvenc-dev=$nvh"
for p in "${src_pkgs[@]}"; do
  # dpkg-source applies Debian's patches; the checksums were checked by apt against the
  # signed index, so the missing uploader keyring is no concern (--no-check).
  quietly unpack dpkg-source --no-check -x "$(ls "${p}"_*.dsc)" "$p"
done

export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_PATH=
# x265 is C++: its users link -lstdc++, and FFmpeg links -lz; this link finds both first in
# the prefix, as static archives.
ln -s "$($cxx -print-file-name=libstdc++.a)" "$prefix/lib/libstdc++.a"
ln -s "/usr/lib/$triplet/libz.a" "$prefix/lib/libz.a"
[ -f "$prefix/lib/libz.a" ] || die "zlib's static library is not in the build root (scripts/dist/root.sh)"

# nv-codec-headers: headers and their .pc, pointed at the prefix.
dpkg-deb -x libffmpeg-nvenc-dev_*.deb nvh
cp -r nvh/usr/include/ffnvcodec "$prefix/include/"
sed "s|^prefix=.*|prefix=$prefix|" nvh/usr/share/pkgconfig/ffnvcodec.pc >"$prefix/lib/pkgconfig/ffnvcodec.pc"
cp nvh/usr/share/doc/libffmpeg-nvenc-dev/copyright "$prefix/share/licenses/nv-codec-headers.copyright"

# x264: the library only, both bit depths: 10-bit video is coded H.264 High 10 by this
# build (its libx265 is 8-bit only; see below).
# Each build system's way to cross-compile (nothing for amd64).
x264_cross=() x265_cross=(-DENABLE_ASSEMBLY=ON) dav1d_cross=() ffmpeg_cross=()
if [ -n "$cross" ]; then
  x264_cross=(--host="$triplet" --cross-prefix="$cross")
  x265_cross=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DCROSS_COMPILE_ARM=1
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DENABLE_ASSEMBLY=OFF)
  printf "[binaries]\nc = '%s'\ncpp = '%s'\nar = '%s'\nstrip = '%s'\npkgconfig = 'pkg-config'\n[host_machine]\nsystem = 'linux'\ncpu_family = 'aarch64'\ncpu = 'aarch64'\nendian = 'little'\n" \
    "$cc" "$cxx" "${cross}ar" "${cross}strip" >"$dir/meson-cross.txt"
  dav1d_cross=(--cross-file="$dir/meson-cross.txt")
  ffmpeg_cross=(--enable-cross-compile --arch=aarch64 --target-os=linux --cross-prefix="$cross")
fi

(cd x264 && quietly x264 nicely ./configure --prefix="$prefix" "${x264_cross[@]}" --enable-static --enable-pic \
  --disable-cli --bit-depth=all --chroma-format=all --disable-opencl --disable-lavf \
  --disable-swscale --disable-ffms --disable-gpac --disable-lsmash &&
  quietly x264 nicely make -j"$jobs" && quietly x264 make install-lib-static)
cp x264/COPYING "$prefix/share/licenses/x264.COPYING"

# x265: 8-bit only, static, no CLI, no NUMA library (libnuma would be one more shared
# library to carry). A 10-bit x265 would be a second build linked in (x265's multilib),
# about doubling its build time; trackink's encoder auto sees that this libx265 lacks
# yuv420p10le and codes 10-bit video with libx264 (High 10) instead, saying so.
quietly x265 cmake -S x265/source -B x265/build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DENABLE_SHARED=OFF -DENABLE_CLI=OFF -DENABLE_PIC=ON \
  -DENABLE_LIBNUMA=OFF -DHIGH_BIT_DEPTH=OFF "${x265_cross[@]}"
quietly x265 nicely ninja -C x265/build -j"$jobs"
quietly x265 ninja -C x265/build install
# Its .pc may name libgcc_s (a shared library: cmake's list of implicit libraries);
# -static-libgcc covers what it is there for. It does not name libpthread, which glibc
# before 2.34 (the build root's 2.31) keeps apart from libc.
sed -i '/^Libs.private:/ s/ -lgcc_s\b//g; /^Libs.private:/ s/ -lgcc\b//g; /^Libs.private:/ s/$/ -lpthread/' "$prefix/lib/pkgconfig/x265.pc"
cp x265/COPYING "$prefix/share/licenses/x265.COPYING"

# dav1d: the library only, 8- and 16-bit (10-bit AV1 then decodes, and trackink renders it
# as it does every 10-bit input).
quietly dav1d meson setup dav1d/build dav1d "${dav1d_cross[@]}" --prefix="$prefix" --libdir=lib --buildtype=release \
  --default-library=static -Denable_tools=false -Denable_tests=false -Db_pie=true
quietly dav1d nicely ninja -C dav1d/build -j"$jobs"
quietly dav1d ninja -C dav1d/build install
cp dav1d/COPYING "$prefix/share/licenses/dav1d.COPYING"

# FFmpeg: everything off, then what trackink reads and writes (README: H.264, HEVC, VP9, AV1,
# MPEG-4 Part 2, MPEG-2, MJPEG in MP4/MOV/Matroska/WebM/MPEG-TS/AVI or raw streams; output
# MP4/MOV/Matroska with libx264, libx265 or NVENC; audio and other streams copied), what the
# ffmpeg program needs around it, and what the tests and the demo ask of the ffmpeg program
# (testsrc, testsrc2 and sine through lavfi, AAC and PCM audio, raw video and FFV1 (lossless
# clips), the select and copy filters, MPEG-TS output, framemd5, and -f null's
# wrapped_avframe for bench --e2e's twin). NVDEC is the nvdec hwaccel of FFmpeg's own decoders, which trackink uses. zlib:
# Matroska tracks stored compressed (mkvmerge does that to subtitles) and compressed MOV headers.
list() { local IFS=,; echo "$*"; }
demuxers=(mov matroska mpegts avi h264 hevc ivf mjpeg m4v mpegvideo)
decoders=(h264 hevc vp9 libdav1d mpeg4 mpeg2video mpeg1video mjpeg rawvideo ffv1 h264_cuvid hevc_cuvid
  aac pcm_s16le)
parsers=(h264 hevc vp9 av1 mpeg4video mpegvideo mjpeg aac aac_latm ac3 mpegaudio opus vorbis flac dca)
bsfs=(h264_mp4toannexb hevc_mp4toannexb aac_adtstoasc vp9_superframe_split extract_extradata null)
encoders=(libx264 libx265 h264_nvenc hevc_nvenc aac pcm_s16le rawvideo ffv1 wrapped_avframe)
muxers=(mp4 mov ipod matroska mpegts framemd5 rawvideo null)
hwaccels=(h264_nvdec hevc_nvdec vp9_nvdec mpeg4_nvdec mpeg2_nvdec mpeg1_nvdec mjpeg_nvdec)
# The ffmpeg program inserts scale, format, aresample, aformat, trim, atrim, null, anull
# and (autorotate) transpose, hflip, vflip by itself.
filters=(testsrc testsrc2 sine select fps scale format aformat aresample trim atrim null anull
  copy transpose hflip vflip)
# The Debian revision goes into FFmpeg's version string (as Debian's own build does it).
revision=$(awk '/^Version:/ {print $2}' ffmpeg_*.dsc)
revision=${revision##*-}
(cd ffmpeg && quietly ffmpeg nicely ./configure --prefix="$prefix" "${ffmpeg_cross[@]}" --extra-version="$revision" \
  --pkg-config=pkg-config --pkg-config-flags=--static \
  --enable-static --disable-shared --enable-pic --enable-gpl \
  --disable-autodetect --disable-everything --disable-doc --disable-network \
  --disable-ffplay --enable-ffmpeg --enable-ffprobe \
  --enable-libx264 --enable-libx265 --enable-libdav1d --enable-pthreads --enable-zlib \
  --enable-cuda --enable-ffnvcodec --enable-nvdec --enable-nvenc --enable-cuvid \
  --enable-avdevice --enable-avfilter --enable-swscale --enable-swresample --disable-postproc \
  --enable-protocol=file,pipe --enable-indev=lavfi \
  --enable-demuxer="$(list "${demuxers[@]}")" --enable-decoder="$(list "${decoders[@]}")" \
  --enable-parser="$(list "${parsers[@]}")" --enable-bsf="$(list "${bsfs[@]}")" \
  --enable-encoder="$(list "${encoders[@]}")" --enable-muxer="$(list "${muxers[@]}")" \
  --enable-hwaccel="$(list "${hwaccels[@]}")" --enable-filter="$(list "${filters[@]}")" \
  --extra-ldexeflags="-static-libgcc -static-libstdc++")
quietly ffmpeg nicely make -C ffmpeg -j"$jobs"
quietly ffmpeg make -C ffmpeg install
cp ffmpeg/COPYING.GPLv2 "$prefix/share/licenses/ffmpeg.COPYING.GPLv2"
cp ffmpeg/LICENSE.md "$prefix/share/licenses/ffmpeg.LICENSE.md"
{
  echo "Built by trackink's scripts/dist/deps.sh from Debian's source packages:"
  for v in $versions; do echo "  $v"; done
  echo "FFmpeg configuration:"
  sed -n 's/^#define FFMPEG_CONFIGURATION "\(.*\)"$/  \1/p' ffmpeg/config.h
} >"$prefix/share/licenses/SOURCES"

rm -rf "$dir/src"
touch "$prefix/.complete"
# Older keys' builds for this architecture are of no further use.
find "$top" -maxdepth 1 -regex ".*/$name-[0-9a-f]+" ! -name "$name-$key" -exec rm -rf {} +
echo "deps.sh: built in $(($(date +%s) - start)) s" >&2
echo "$prefix"
