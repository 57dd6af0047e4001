#!/usr/bin/env bash
# 26draw.sh makes docs/img/26draw-*.png, the pictures of docs/new/26draw.md: frame 240 of
# OpenCV's vtest.avi (pedestrians; Debian package opencv-doc) scaled to 1440×1080 (and one
# crop at 2880×2160), with tracks from scripts/docs/vtest_tracks.py, rendered by trackink
# in each look and with each drawing option, every picture with the command that made it.
# Needs bin/trackink (go build -o bin/trackink .), ffmpeg and python3-opencv.
#
#   scripts/docs/26draw.sh [OUT_DIR]   (default docs/img)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-docs/img}
clip=/usr/share/doc/opencv-doc/examples/data/vtest.avi
frames=240
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# The footage at 1080 lines (4:3, as shot), and its tracks scaled alike.
ffmpeg -v error -i "$clip" -frames:v $frames -vf scale=1440:1080:flags=lanczos -c:v libx264 -crf 12 -pix_fmt yuv420p "$tmp/v1080.mkv"
/usr/bin/python3 scripts/docs/vtest_tracks.py --frames $frames --scale 1.875 >"$tmp/t1080.jsonl"
/usr/bin/python3 scripts/docs/vtest_tracks.py --frames $frames --scale 1.875 --points >"$tmp/p1080.jsonl"

# shot NAME TRACKS ARGS...: render the clip with ARGS, keep the last frame as NAME.
shot() {
	local name=$1 tracks=$2
	shift 2
	echo "26draw-$name: trackink render -i vtest-1080p.mkv --tracks $(basename "$tracks") $*"
	bin/trackink render -i "$tmp/v1080.mkv" --tracks "$tracks" -o "$tmp/$name.mkv" --quiet --crf 14 "$@"
	ffmpeg -v error -sseof -0.2 -i "$tmp/$name.mkv" -frames:v 1 -update 1 -y "$out/26draw-$name.png"
}

shot default "$tmp/t1080.jsonl"
shot default-before "$tmp/t1080.jsonl" --point-radius 2.5 --line-width 1 --box-stroke 1.5 --link-reach 0
shot plexus "$tmp/t1080.jsonl" --look plexus
shot neon "$tmp/t1080.jsonl" --look neon
shot hud "$tmp/t1080.jsonl" --look hud
shot clean "$tmp/t1080.jsonl" --look clean
shot blend-add "$tmp/t1080.jsonl" --blend add --no-labels --fill-opacity 0.3
shot blend-screen "$tmp/t1080.jsonl" --blend screen --no-labels --fill-opacity 0.3
shot point-styles "$tmp/p1080.jsonl" --point-style diamond --point-radius 9 --box-from radius --box-style corners
shot box-from-age "$tmp/p1080.jsonl" --box-from age --box-radius 40 --trail 30 --trail-smooth 3
shot link-fade "$tmp/t1080.jsonl" --no-labels --link-fade -1 --link-reach 0.5 --line-width 3 --link-opacity 1
shot electric "$tmp/t1080.jsonl" --look neon --link-style electric --link-reach 0.4 --line-width 3
shot trail-raw "$tmp/t1080.jsonl" --no-labels --trail 40
shot trail-smooth "$tmp/t1080.jsonl" --no-labels --trail 40 --trail-smooth 4

# The default look at 2160 lines, its top-left quarter at full size.
ffmpeg -v error -i "$tmp/v1080.mkv" -vf scale=2880:2160:flags=lanczos -c:v libx264 -crf 12 -pix_fmt yuv420p "$tmp/v2160.mkv"
/usr/bin/python3 scripts/docs/vtest_tracks.py --frames $frames --scale 3.75 >"$tmp/t2160.jsonl"
echo "26draw-default-4k: trackink render -i vtest-2160p.mkv --tracks t2160.jsonl (crop)"
bin/trackink render -i "$tmp/v2160.mkv" --tracks "$tmp/t2160.jsonl" -o "$tmp/4k.mkv" --quiet --crf 14
ffmpeg -v error -sseof -0.2 -i "$tmp/4k.mkv" -frames:v 1 -update 1 -vf crop=1440:1080:1440:540 -y "$out/26draw-default-4k.png"
