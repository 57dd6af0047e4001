#!/usr/bin/env bash
# gpu-kit.sh (make gpu-kit, after make dist) writes dist/gpu-kit/ (ARCH=arm64, after make dist
# ARCH=arm64: dist/gpu-kit-arm64/), everything a GPU machine needs to validate trackink's
# CUDA path with one command, where nothing of ours and no Go or FFmpeg is installed:
#   run.sh          the one command (scripts/dist/kit/run.sh): run.sh [--budget S] [--quick] REPORT_DIR
#   README.md       how to copy and run it, what the report holds (docs/gpu.md)
#   GLIBC           the newest glibc version its programs ask for (run.sh checks it first)
#   ARCH            the machine it is for, as uname -m names it (x86_64, aarch64: run.sh
#                   refuses any other first)
#   payload.tar.gz  bin/: the portable trackink-cuda, ffmpeg, ffprobe (the tarball's);
#                   src/: `go test -c -tags cuda` of every package that has CUDA tests, each in
#                   its package's directory with that directory's other files, the fatbin at
#                   src/kernels/kernels.fatbin, and every testdata directory (the golden
#                   pictures among them), so the tests find their files as in the
#                   repository; clip.mp4: 3 s of 1080p H.264 with AAC audio, made by the
#                   portable ffmpeg.
# The binaries are compressed (about 110 MB as they are) to keep the kit within 56 MiB, which
# leaves room under a GPU lease's 64 MiB for what travels beside it;
# run.sh unpacks them into a temporary directory. A rerun with nothing changed leaves the
# kit as it is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=env.sh
. "$here/env.sh"
cd "$dist_repo"
limit=$((56 * 1024 * 1024))
name=trackink-$dist_version-linux-$dist_arch
dist_stage=$dist_top/stage/$dist_arch/$name
[ -x "$dist_stage/trackink-cuda" ] || { echo "gpu-kit.sh: no portable build at $dist_stage: make dist ARCH=$dist_arch" >&2; exit 1; }
kit=dist/gpu-kit stamp=$dist_top/kit.sha256 clip=$dist_top/kit-clip.mp4 machine=x86_64
if [ "$dist_arch" = arm64 ]; then
  kit=dist/gpu-kit-arm64 stamp=$dist_top/kit-arm64.sha256 clip=$dist_top/kit-clip-arm64.mp4 machine=aarch64
fi

stage=$dist_top/kit-stage-$dist_arch
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/src"
cp "$dist_stage/trackink-cuda" "$dist_stage/ffmpeg" "$dist_stage/ffprobe" "$stage/bin/"

# Packages with CUDA tests: those whose test files change under -tags cuda.
fmt='{{.ImportPath}} {{.Dir}} {{join .TestGoFiles ","}} {{join .XTestGoFiles ","}}'
mapfile -t pkgs < <(comm -13 <(go list -f "$fmt" ./... | sort) <(go list -tags cuda -f "$fmt" ./... | sort) | awk '{print $1 " " $2}')
[ ${#pkgs[@]} -gt 0 ] || { echo "gpu-kit.sh: no package has CUDA tests" >&2; exit 1; }
for p in "${pkgs[@]}"; do
  read -r path dir <<<"$p"
  rel=${dir#"$dist_repo"/}
  mkdir -p "$stage/src/$rel"
  find "$dir" -maxdepth 1 -type f ! -name '*.go' -exec cp {} "$stage/src/$rel/" \;
  dist_go test -c -tags cuda -o "$(root_path "$stage/src/$rel/$(basename "$rel").test")" "$path"
  ARCH=$dist_arch bash "$here/check-linkage.sh" --cuda "$stage/src/$rel/$(basename "$rel").test"
done
# The fatbin where kernels/gpu's TestFatbinEntryPoints reads it (../kernels.fatbin, outside
# the package's own directory): run.sh has that test check its entry points wherever
# cuobjdump is, and without the file it fails. 0644: build.sh's is mktemp's 0600.
install -D -m 0644 kernels/kernels.fatbin "$stage/src/kernels/kernels.fatbin"
# shellcheck source=fonts.sh
. "$here/fonts.sh"
copy_fonts "$stage/fonts"
# Not the pictures of scenes on footage (vtest-*) or of goldens' own effects test: the kit
# carries no footage, so run.sh skips those scenes.
git ls-files -z '*testdata/*' ':!goldens/testdata/vtest-*' ':!goldens/testdata/effects/*' | while IFS= read -r -d '' f; do
  mkdir -p "$stage/src/$(dirname "$f")"
  cp "$f" "$stage/src/$f"
done

# The clip, made once for a given ffmpeg and these arguments (x264's output depends on
# nothing else here), so that a rerun packs the same bytes; an arm64 ffmpeg runs under
# qemu-user in the build root.
clipargs=(-f lavfi -i testsrc2=size=1920x1080:rate=30 -f lavfi -i sine=frequency=440:sample_rate=48000:duration=3
  -map 0:v -map 1:a -frames:v 90 -c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p
  -c:a aac -b:a 128k -fflags +bitexact)
clipkey=$( { sha256sum <"$stage/bin/ffmpeg"; echo "${clipargs[*]}"; } | sha256sum | cut -c1-16)
if [ ! -f "$clip" ] || [ "$(cat "$clip.key" 2>/dev/null)" != "$clipkey" ]; then
  run_target "$stage/bin/ffmpeg" -hide_banner -nostdin -loglevel error -y "${clipargs[@]}" "$(root_path "$clip")"
  echo "$clipkey" >"$clip.key"
fi
cp "$clip" "$stage/clip.mp4"
echo "$dist_version" >"$stage/VERSION"

sum=$( { (cd "$stage" && find . -type f -print0 | sort -z | xargs -0 sha256sum); sha256sum "$here/kit/run.sh" docs/gpu.md; } | sha256sum | cut -c1-64)
if [ -f "$kit/payload.tar.gz" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
  echo "gpu-kit.sh: $kit is up to date ($(du -sb "$kit" | cut -f1) bytes)"
  exit 0
fi
rm -rf "$kit.tmp"
mkdir -p "$kit.tmp"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$dist_mtime" -cf - . |
  nice gzip -n -9 >"$kit.tmp/payload.tar.gz"
install -m 0755 "$here/kit/run.sh" "$kit.tmp/run.sh"
# The newest glibc any of the kit's programs asks for: run.sh says at once when the machine's
# is older (check-linkage.sh has held each to 2.31).
find "$stage" -type f \( -name '*.test' -o -path '*/bin/*' \) -exec readelf -V -W {} + | grep -o 'Name: GLIBC_[0-9.]*' |
  sed 's/.*GLIBC_//' | sort -uV | tail -1 >"$kit.tmp/GLIBC"
echo "$machine" >"$kit.tmp/ARCH"
install -m 0644 docs/gpu.md "$kit.tmp/README.md"
size=$(du -sb "$kit.tmp" | cut -f1)
if [ "$size" -gt "$limit" ]; then
  rm -rf "$kit.tmp"
  echo "gpu-kit.sh: the kit would be $size bytes, over 56 MiB" >&2
  exit 1
fi
rm -rf "$kit"
mv "$kit.tmp" "$kit"
echo "$sum" >"$stamp"
echo "gpu-kit.sh: wrote $kit ($size bytes; packages with CUDA tests: $(printf '%s ' "${pkgs[@]%% *}"))"
