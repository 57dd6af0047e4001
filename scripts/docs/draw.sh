#!/usr/bin/env bash
# draw.sh makes docs/img/draw-*.png, the pictures of docs/looks.md's drawing options: frame 240 of
# OpenCV's vtest.avi (pedestrians; Debian package opencv-doc) scaled to 1440×1080 (and once
# to 2880×2160), with tracks from scripts/docs/vtest_tracks.py, rendered by trackink in each
# look and with each drawing option; it prints the command of each. Each picture is a
# 960×540 crop at full size (where the walkers are), in a 256-colour palette (about 270 KB
# instead of 2.7 MB for the whole frame in true colour).
# Needs bin/trackink (go build -o bin/trackink .), ffmpeg and python3-opencv.
#
#   scripts/docs/draw.sh [OUT_DIR]   (default docs/img)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-docs/img}
clip=/usr/share/doc/opencv-doc/examples/data/vtest.avi
frames=240 first=181 # the pictures show frame 240; the renders start at 181, for 40-frame trails
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# The footage at 1080 lines (4:3, as shot), and its tracks scaled alike.
ffmpeg -v error -i "$clip" -frames:v $((frames - first + 1)) -vf "select=gte(n\,$((first - 1))),setpts=PTS-STARTPTS,scale=1440:1080:flags=lanczos" -c:v libx264 -crf 12 -pix_fmt yuv420p "$tmp/v1080.mkv"
/usr/bin/python3 scripts/docs/vtest_tracks.py --frames $frames --first $first --scale 1.875 >"$tmp/t1080.jsonl"
/usr/bin/python3 scripts/docs/vtest_tracks.py --frames $frames --first $first --scale 1.875 --points >"$tmp/p1080.jsonl"

# shot NAME TRACKS ARGS...: render the clip with ARGS, keep the last frame as NAME.
shot() {
	local name=$1 tracks=$2
	shift 2
	echo "draw-$name: trackink render -i vtest-1080p.mkv --tracks $(basename "$tracks") $*"
	bin/trackink render -i "$tmp/v1080.mkv" --tracks "$tracks" -o "$tmp/$name.mkv" --quiet --crf 14 "$@"
	still "$tmp/$name.mkv" "$out/draw-$name.png" 960:540:440:200
}

# still VIDEO PNG CROP: the video's last frame, cropped (w:h:x:y), in a 256-colour palette.
still() {
	ffmpeg -v error -sseof -0.2 -i "$1" -frames:v 1 -update 1 -y \
		-vf "crop=$3,split[a][b];[a]palettegen=max_colors=256:stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a" "$2"
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
shot glow "$tmp/t1080.jsonl" --no-labels --palette neon --blend screen --glow 10 --glow-opacity 0.7 --box-stroke 3 --fill-opacity 0 --trail 30 --trail-smooth 3
shot link-gradient "$tmp/t1080.jsonl" --no-labels --link-color gradient --palette neon --line-width 3 --link-opacity 1 --link-reach 0.4

# The default look at 2160 lines, a 960×540 crop at full size.
ffmpeg -v error -i "$tmp/v1080.mkv" -vf scale=2880:2160:flags=lanczos -c:v libx264 -crf 12 -pix_fmt yuv420p "$tmp/v2160.mkv"
/usr/bin/python3 scripts/docs/vtest_tracks.py --frames $frames --first $first --scale 3.75 >"$tmp/t2160.jsonl"
echo "draw-default-4k: trackink render -i vtest-2160p.mkv --tracks t2160.jsonl"
bin/trackink render -i "$tmp/v2160.mkv" --tracks "$tmp/t2160.jsonl" -o "$tmp/4k.mkv" --quiet --crf 14
still "$tmp/4k.mkv" "$out/draw-default-4k.png" 960:540:1640:760
