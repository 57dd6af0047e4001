#!/usr/bin/env bash
# overhead.sh: what cutting a render into segments costs (README "Render on a cluster").
#
#   bash docs/segments/overhead.sh [WORKDIR] [FRAMES] [SEGMENTS]   (from the repository root)
#
# Synthesises a 3840x2160 clip at 30 fps (FRAMES frames, default 600: 20 s; ffmpeg's testsrc2
# in H.264 with x264's default GOP of 250 frames, and AAC audio), renders the seed scene onto
# it whole and in SEGMENTS segments (default 4), one after another, and joins them. Prints
# the user+system CPU seconds of each, the ratio of the segments' sum to the whole render's,
# the frames each segment decoded (the keyframe before its first frame onwards) and of them
# those before its first frame (its preroll), from each segment's own --stats-json
# (seg-{segment}.json: seg-0000-of-0004.json, ...), and the join's wall time beside the
# time `cat` takes to read the segments and write a copy.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
W=${1:-$(mktemp -d /tmp/segments-overhead.XXXXXX)}
frames=${2:-600}
n=${3:-4}
mkdir -p "$W"
cd "$W"
(cd "$root" && go build -o "$W/trackink" .)
tk=$W/trackink
if [ ! -f src.mp4 ]; then
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=3840x2160:rate=30 \
    -f lavfi -i sine=frequency=440:sample_rate=48000 -map 0:v -map 1:a -frames:v "$frames" \
    -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -b:a 128k -shortest src.mp4
fi
look=(--scene seed --trail 20)

# cpu CMD...: run CMD, print its user+system CPU seconds: the CPU time of the children this
# shell waited for (fields 16 and 17 of /proc/PID/stat), before and after.
cpu() {
  local me=$BASHPID before after
  before=$(awk '{print $16 + $17}' "/proc/$me/stat")
  "$@" >/dev/null
  after=$(awk '{print $16 + $17}' "/proc/$me/stat")
  echo "$(( after - before ))" | awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", $1 / hz}'
}

whole=$(cpu "$tk" render -i src.mp4 "${look[@]}" -o whole.mp4 -y --quiet)
echo "whole render: ${whole} s CPU, $frames frames"
# field KEY: the number at KEY in the segment's statistics.
field() { sed -n "s/.*\"$1\": *\([0-9]*\).*/\1/p" "$stats"; }
rm -rf segs seg-*-of-*.json
sum=0
for i in $(seq 0 $((n - 1))); do
  s=$(cpu "$tk" render -i src.mp4 "${look[@]}" --segment "$i/$n" -o segs --quiet --stats-json 'seg-{segment}.json')
  # trackink fills {segment} in as it numbers the segment's file (4 digits, more past 9999).
  w=$(( ${#n} > 4 ? ${#n} : 4 ))
  stats=$(printf 'seg-%0*d-of-%0*d.json' "$w" "$i" "$w" "$n")
  echo "segment $i of $n: ${s} s CPU, $(field frames) frames rendered, $(field decoded_frames) decoded, $(field preroll_frames) of them before its first"
  sum=$(awk -v a="$sum" -v b="$s" 'BEGIN{print a + b}')
done
awk -v s="$sum" -v w="$whole" 'BEGIN{printf "segments: %.1f s CPU in all, %.3f x the whole render\n", s, s / w}'
t0=$(date +%s.%N)
"$tk" join -i src.mp4 --segments segs -o joined.mp4 -y --quiet
t1=$(date +%s.%N)
cat segs/*.mp4 >copy.bin
t2=$(date +%s.%N)
size=$(stat -c %s joined.mp4)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v s="$size" 'BEGIN{printf "join: %.2f s wall for %.1f MB (%.0f MB/s); cat of the segments: %.2f s\n", b - a, s / 1e6, s / 1e6 / (b - a), c - b}'
rm -f copy.bin
