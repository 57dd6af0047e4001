#!/usr/bin/env bash
# test.sh FAKECUDA_DIR (make dist-test) proves the portable tarball on a machine without
# FFmpeg: it unpacks dist/trackink-*-linux-ARCH.tar.gz (ARCH amd64, or arm64) in root.sh's
# minimal Debian 11 root of that architecture (no FFmpeg, x264, x265, dav1d or CUDA library
# in it; an arm64 root runs everything under qemu-user, in-root.sh) and there
#   - checks the binaries need nothing but glibc (and libcuda.so.1 for trackink-cuda);
#   - trackink doctor names the FFmpeg it carries, linked in, and finds no CUDA driver;
#   - trackink-cuda refuses to start without a libcuda.so.1, naming it;
#   - trackink demo synthesises its 4K clip with the tarball's ffmpeg and renders it: the
#     output has 60 H.264 frames at 3840x2160 (20 under qemu-user) and the AAC audio;
#   - trackink track --detect people finds the walkers of vtest.avi with the model and ONNX
#     Runtime the tarball carries;
#   - trackink-cuda renders every golden scene through the CUDA backend on the fake driver
#     (FAKECUDA_DIR/libcuda.so.1, kernels/device/testdata/fakecuda) within tolerance.
# For arm64 also (these run natively on x86-64 in make test's other steps):
#   - trackink renders every golden scene on the CPU, with the generic Go code arm64 runs;
#   - the tests of the packages with AVX2 kernels (render, composite, tracker), cross-built
#     with go test -c, pass there: on arm64 they check the generic Go twins;
#   - trackink track --detect motion and points (the tracker's own Go code) write the very
#     tracks this machine's build writes: arm64 fuses multiply-adds where Go lets it, so the
#     tracker's products are kept unfused, and this holds them to it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
fake=${1:?usage: test.sh FAKECUDA_DIR}
cd "$repo"
die() { echo "dist-test: FAIL: $*" >&2; exit 1; }
start=$(date +%s)
arch=${ARCH:-amd64}
GO=${GO:-go}

tarballs=(dist/trackink-*-linux-"$arch".tar.gz)
[ ${#tarballs[@]} -eq 1 ] && [ -f "${tarballs[0]}" ] || die "want one dist/trackink-*-linux-$arch.tar.gz (make dist ARCH=$arch), found: ${tarballs[*]}"
tarball=${tarballs[0]}
name=$(basename "$tarball" .tar.gz)
size=$(stat -c %s "$tarball")
[ "$size" -lt 60000000 ] || die "$tarball is $size bytes, not under 60 MB"
[ -f "$fake/libcuda.so.1" ] || die "no fake driver at $fake/libcuda.so.1"
vtest=/usr/share/doc/opencv-doc/examples/data/vtest.avi
[ -f "$vtest" ] || die "no $vtest (Debian's opencv-doc: make setup-test-deps)"

root=$(bash "$here/root.sh" test "$arch")
work=$root/work/dist
rm -rf "$work"
mkdir -p "$work/fakecuda" "$work/goldens"
cp "$tarball" "$work/"
cp "$fake/libcuda.so.1" "$work/fakecuda/"
cp goldens/testdata/*.png "$work/goldens/"
# shellcheck source=fonts.sh
. "$here/fonts.sh"
copy_fonts "$work/fonts" || die "cannot copy the goldens' fonts"
scenes=$(find goldens/testdata -maxdepth 1 -name '*.png' | wc -l)
# The scenes on footage (vtest-*) are skipped there: the root has no opencv-doc clip.
footage=$(find goldens/testdata -maxdepth 1 -name 'vtest-*.png' | wc -l)
inroot() { bash "$here/in-root.sh" "$root" "$@"; }

inroot tar -C /work/dist -xzf "/work/dist/$name.tar.gz"
want="README.md ffmpeg ffprobe lib licenses man models trackink trackink-cuda"
got=$(ls "$work/$name" | tr '\n' ' ')
[ "$got" = "$want " ] || die "the tarball holds $got, want $want"
d=$work/$name
ARCH=$arch bash "$here/check-linkage.sh" "$d/trackink" "$d/ffmpeg" "$d/ffprobe"
ARCH=$arch bash "$here/check-linkage.sh" --cuda "$d/trackink-cuda"
echo "dist-test: $tarball ($size bytes) unpacked in $root, which has no FFmpeg"
[ "$(inroot uname -m)" = "$(case $arch in amd64) echo x86_64 ;; arm64) echo aarch64 ;; esac)" ] ||
  die "the $arch root runs as $(inroot uname -m)"

in=/work/dist/$name
inroot "$in/trackink" version >/dev/null
ffver=$(inroot "$in/ffmpeg" -version | sed -n '1s/^ffmpeg version \([^ ]*\).*/\1/p')
[ -n "$ffver" ] || die "the tarball's ffmpeg does not run there"
doctor=$(inroot "$in/trackink" doctor)
grep -qF "FFmpeg: $ffver, linked into this binary" <<<"$doctor" || die "doctor does not name the FFmpeg it carries ($ffver, linked in):
$doctor"
grep -q '^CUDA driver: none' <<<"$doctor" || die "doctor found a CUDA driver in a root with none: $doctor"
echo "dist-test: trackink doctor: FFmpeg $ffver linked in, no CUDA driver"

if out=$(inroot "$in/trackink-cuda" version 2>&1); then die "trackink-cuda started without libcuda.so.1: $out"; fi
grep -q 'libcuda.so.1' <<<"$out" || die "trackink-cuda without a driver says: $out"
echo "dist-test: trackink-cuda without a driver: $out"

# Under qemu-user a 4K frame takes some 5 s: arm64 renders a third of the frames, at 4K
# still (its generic Go code on frames that wide), in under two minutes.
demo_frames=60
if [ "$arch" = arm64 ]; then demo_frames=20; fi
t0=$(date +%s)
inroot "$in/trackink" demo --frames "$demo_frames" -o /work/dist/demo.mp4 >/dev/null 2>"$work/demo.log" ||
  { cat "$work/demo.log" >&2; die "trackink demo failed"; }
streams=$(inroot "$in/ffprobe" -v error -count_frames -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 /work/dist/demo.mp4)
[ "$(wc -l <<<"$streams")" -eq 2 ] && [ "$(head -1 <<<"$streams")" = "h264,3840,2160,$demo_frames" ] &&
  [[ "$(tail -1 <<<"$streams")" == aac,* ]] || die "the demo's streams are: $streams (want h264 3840x2160 with $demo_frames frames, then aac)"
echo "dist-test: trackink demo: $demo_frames frames of 3840x2160 H.264 and AAC audio in $(($(date +%s) - t0)) s"

# The detector: the model and ONNX Runtime beside the binary, loaded in a root of glibc 2.31.
# The tarball's FFmpeg decodes what cameras and encoders write today, not vtest.avi's
# MS-MPEG4: this machine's ffmpeg hands its first frames over as H.264: 30, or under qemu-user,
# where ONNX Runtime's vector code is emulated (about 7 s a frame), 20 (5 walkers in both).
frames=30
if [ "$arch" = arm64 ]; then frames=20; fi
ffmpeg -v error -y -i "$vtest" -frames:v "$frames" -c:v libx264 -crf 12 -pix_fmt yuv420p "$work/vtest.mp4"
t0=$(date +%s)
inroot "$in/trackink" track -i /work/dist/vtest.mp4 --detect people -o /work/dist/people.txt --quiet ||
  die "track --detect people failed"
people=$(cut -d, -f2 "$work/people.txt" | sort -u | wc -l)
[ "$people" -ge 4 ] || die "track --detect people found $people people in $frames frames of vtest.avi (want the walkers)"
echo "dist-test: trackink track --detect people: $people people in $frames frames of vtest.avi (as H.264) in $(($(date +%s) - t0)) s"

fakeenv=(env LD_LIBRARY_PATH=/work/dist/fakecuda TRACKINK_FONTS=/work/dist/fonts)
doctor=$(inroot "${fakeenv[@]}" "$in/trackink-cuda" doctor)
grep -q '^GPU 0: trackink fake CUDA driver' <<<"$doctor" && grep -q 'renders on: cuda' <<<"$doctor" ||
  die "trackink-cuda doctor on the fake driver: $doctor"
golden=$(inroot "${fakeenv[@]}" "$in/trackink-cuda" golden --backend cuda --dir /work/dist/goldens --out /work/dist/golden-failures) ||
  die "golden --backend cuda on the fake driver: $golden"
want="$((scenes - footage)) golden scenes passed, $footage skipped (no footage here)"
grep -qxF "$want" <<<"$golden" || die "golden --backend cuda: $golden (want: $want)"
echo "dist-test: trackink-cuda golden --backend cuda on the fake driver: $want"

if [ "$arch" = arm64 ]; then
  t0=$(date +%s)
  golden=$(inroot env TRACKINK_FONTS=/work/dist/fonts "$in/trackink" golden --dir /work/dist/goldens --out /work/dist/golden-failures-cpu) ||
    die "golden on the CPU: $golden"
  grep -qxF "$want" <<<"$golden" || die "golden on the CPU: $golden (want: $want)"
  echo "dist-test: trackink golden on the CPU (generic Go code): $want in $(($(date +%s) - t0)) s"
  t0=$(date +%s)
  $GO build -o "$work/host-trackink" .
  for mode in motion points; do
    "$work/host-trackink" track -i "$work/vtest.mp4" --detect "$mode" -o "$work/host-$mode.txt" --quiet -y
    inroot "$in/trackink" track -i /work/dist/vtest.mp4 --detect "$mode" -o "/work/dist/arm64-$mode.txt" --quiet -y ||
      die "track --detect $mode failed on arm64"
    cmp -s "$work/host-$mode.txt" "$work/arm64-$mode.txt" ||
      die "track --detect $mode: arm64's tracks differ from x86-64's: $(diff "$work/host-$mode.txt" "$work/arm64-$mode.txt" | head -4)"
  done
  echo "dist-test: trackink track --detect motion, points: the same tracks on arm64 as on x86-64 ($(wc -l <"$work/host-motion.txt") and $(wc -l <"$work/host-points.txt") lines) in $(($(date +%s) - t0)) s"
  # The SIMD packages' tests, built for arm64 (simd-tests.sh), each run in its package's
  # folder with that folder's files, as go test does.
  # failed_tests prints, from go test -v's output, each failed test whole (its lines from
  # its === RUN to its --- FAIL, its subtests' too), or where none says FAIL (a panic, a
  # timeout) the last 40 lines.
  failed_tests() {
    awk '/^ +--- FAIL: / && failed { print }
      /^=== RUN   [^\/]+$/ { buf = "" }
      { buf = buf $0 "\n"; last[NR % 40] = $0 }
      /^--- FAIL: / { printf "%s", buf; buf = ""; failed = 1 }
      END { if (!failed) for (i = NR - 39; i <= NR; i++) if (i > 0) print last[i % 40] }'
  }
  tests=$(bash "$here/simd-tests.sh")
  cp -r "$tests" "$work/simd"
  # tracker's five longest tests (290 s of its 300 natively, hours emulated) are skipped:
  # allocation counts, the accuracy of every mode on long synthetic clips, and two that need
  # footage the root lacks; the rest cover every one of its Go twins' callers (92 % of the
  # package's statements with -tags purego, measured with -coverprofile).
  skip_tracker='^(TestNoAllocationsPerFrame|TestAccuracy|TestMotionGeneralises|TestPeopleBeatsHOG|TestPeopleOnPETS09)$'
  for bin in "$work"/simd/*/*.test; do
    rel=${bin#"$work/simd/"}
    skip='^$'
    if [ "$(dirname "$rel")" = tracker ]; then skip=$skip_tracker; fi
    t0=$(date +%s)
    out=$(inroot env TRACKINK_FONTS=/work/dist/fonts bash -c 'cd "$(dirname "$1")" && "./$(basename "$1")" -test.v -test.skip "$2" 2>&1' \
      run "/work/dist/simd/$rel" "$skip") || { failed_tests <<<"$out" >&2; die "the tests of $(dirname "$rel") failed under emulation"; }
    [ "$(tail -1 <<<"$out")" = PASS ] || die "the tests of $(dirname "$rel") end: $(tail -1 <<<"$out")"
    echo "dist-test: go test ./$(dirname "$rel") on arm64: $(grep -c '^--- PASS' <<<"$out") tests passed, $(grep -c '^--- SKIP' <<<"$out" || true) skipped$([ "$skip" = '^$' ] || echo ", $(tr -cd '|' <<<"$skip" | wc -c | awk '{print $1 + 1}') not run"), in $(($(date +%s) - t0)) s"
  done
fi
echo "dist-test: ok in $(($(date +%s) - start)) s"
