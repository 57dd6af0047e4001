#!/usr/bin/env bash
# draw.sh makes docs/img/draw-*.png, the pictures of docs/looks.md's drawing options: frame 240 of
# OpenCV's vtest.avi (pedestrians; Debian package opencv-doc) scaled to 1440×1080 (and once
# to 2880×2160), with trackink's own tracks of it (docs/gallery/vtest.jsonl, made by
# `trackink track --detect people`; docs/gallery/README.md), rendered by trackink in each
# look and with each drawing option; it prints the command of each. Each picture is a
# 960×540 crop at full size (where the walkers are), in a 256-colour palette (about 270 KB
# instead of 2.7 MB for the whole frame in true colour). draw-point-seed.png is of
# Megamind.avi instead, tracked by trackink itself (its last section).
# Needs bin/trackink (go build -o bin/trackink .) and ffmpeg.
#
#   scripts/docs/draw.sh [OUT_DIR]   (default docs/img)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-docs/img}
clip=/usr/share/doc/opencv-doc/examples/data/vtest.avi
tracks=docs/gallery/vtest.jsonl # made at 768×576, the clip's size: --tracks-size scales them
frames=240 first=181 # the pictures show frame 240; the renders start at 181, for 40-frame trails
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# The footage at 1080 lines (4:3, as shot), cut to frames $first to $frames: its frame 1 is
# the tracks' frame $first, so the renders take --frame-offset $((1 - first)).
ffmpeg -v error -i "$clip" -frames:v $((frames - first + 1)) -vf "select=gte(n\,$((first - 1))),setpts=PTS-STARTPTS,scale=1440:1080:flags=lanczos" -c:v libx264 -crf 12 -pix_fmt yuv420p "$tmp/v1080.mkv"
# The same tracks as points alone, each box's centre (for --box-from, which boxes points
# that have none): trackink's JSON Lines write each box as "id":N,"x":X,"y":Y,"w":W,"h":H.
awk '{
	frame = $0; sub(/^\{"frame":/, "", frame); sub(/,.*/, "", frame)
	printf "{\"frame\":%s,\"points\":[", frame
	rest = $0; n = 0
	while (match(rest, /"id":[0-9]+,"x":[-0-9.e+]+,"y":[-0-9.e+]+,"w":[-0-9.e+]+,"h":[-0-9.e+]+/)) {
		split(substr(rest, RSTART, RLENGTH), f, /[:,]/)
		printf "%s{\"id\":%s,\"x\":%g,\"y\":%g}", (n++ ? "," : ""), f[2], f[4] + f[8] / 2, f[6] + f[10] / 2
		rest = substr(rest, RSTART + RLENGTH)
	}
	print "]}"
}' "$tracks" >"$tmp/points.jsonl"

# shot NAME TRACKS ARGS...: render the clip with ARGS, keep its last frame as NAME.
shot() {
	local name=$1 tracks=$2
	shift 2
	echo "draw-$name: trackink render -i vtest-1080p.mkv --tracks $(basename "$tracks") --tracks-size 768x576 --frame-offset $((1 - first)) $*"
	render -i "$tmp/v1080.mkv" --tracks "$tracks" -o "$tmp/$name.mkv" "$@"
	still "$tmp/$name.mkv" "$out/draw-$name.png" 960:540:440:176
}

# render ARGS...: bin/trackink render of the cut clip's tracks at 768×576 with ARGS. The
# tracks run past the cut (to frame 300): the warning that says so is expected here.
render() {
	bin/trackink render --tracks-size 768x576 --frame-offset $((1 - first)) --quiet --crf 14 "$@" \
		2> >(grep -v 'the frames after it are not drawn' >&2)
}

# still VIDEO PNG CROP: the video's frame $frames (its last), cropped (w:h:x:y), in a
# 256-colour palette. (Seeking from the end, -sseof, lands a frame early.)
still() {
	ffmpeg -v error -i "$1" -frames:v 1 -y \
		-vf "select=eq(n\,$((frames - first))),crop=$3,split[a][b];[a]palettegen=max_colors=256:stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a" "$2"
}

shot default "$tracks"
shot default-no-halo "$tracks" --halo 0
shot default-before "$tracks" --point-radius 2.5 --line-width 1 --box-stroke 1.5 --link-reach 0
shot plexus "$tracks" --look plexus
shot neon "$tracks" --look neon
shot hud "$tracks" --look hud
shot clean "$tracks" --look clean
shot blend-add "$tracks" --blend add --no-labels --fill-opacity 0.3
shot blend-screen "$tracks" --blend screen --no-labels --fill-opacity 0.3
shot blend-multiply "$tracks" --blend multiply --no-labels --fill-opacity 0.3
shot blend-lighten "$tracks" --blend lighten --no-labels --fill-opacity 0.3
shot blend-darken "$tracks" --blend darken --no-labels --fill-opacity 0.3
shot point-styles "$tmp/points.jsonl" --point-style diamond --point-radius 9 --box-from radius --box-style corners --no-labels
shot box-from-age "$tmp/points.jsonl" --box-from age --box-radius 40 --trail 30 --trail-smooth 3
shot box-size "$tmp/points.jsonl" --box-from radius --box-size 60x150 --box-style corners --no-labels
shot box-from-sort "$tmp/points.jsonl" --box-from radius --box-radius 56 --box-effect sort --sort-columns --fill-opacity 0 --label 'x{cx} y{cy}' --trail 30 --trail-smooth 3
# Box blur and Gaussian blur of the same variance (radius 24: sigma sqrt((49² − 1)/12) ≈ 14).
shot blur-box "$tracks" --no-labels --box-effect blur --effect-strength 24 --fill-opacity 0 --roundness 0.3
shot blur-gaussian "$tracks" --no-labels --box-effect gaussian --effect-strength 14 --fill-opacity 0 --roundness 0.3
shot link-fade "$tracks" --no-labels --link-fade -1 --link-reach 0.5 --line-width 3 --link-opacity 1
shot electric "$tracks" --look neon --link-style electric --link-reach 0.4 --line-width 3
shot sparkle "$tracks" --no-labels --palette neon --link-style sparkle --line-width 3 --link-opacity 1 --link-reach 0.5
shot link-wave "$tracks" --no-labels --palette neon --link-shape wave --line-width 3 --link-opacity 1 --link-reach 0.5
shot link-s "$tracks" --no-labels --palette neon --link-shape s --line-width 3 --link-opacity 1 --link-reach 0.5
shot link-spiral "$tracks" --no-labels --palette neon --link-shape spiral --line-width 3 --link-opacity 1 --link-reach 0.5
shot link-swirl "$tracks" --no-labels --palette neon --link-shape swirl --line-width 3 --link-opacity 1 --link-reach 0.5
shot label-outline "$tracks" --label-opacity 0 --label-outline 2
shot trail-raw "$tracks" --no-labels --trail 40
shot trail-smooth "$tracks" --no-labels --trail 40 --trail-smooth 4
shot glow "$tracks" --no-labels --palette neon --blend screen --glow 10 --glow-opacity 0.7 --box-stroke 3 --fill-opacity 0 --trail 30 --trail-smooth 3
shot link-gradient "$tracks" --no-labels --link-color gradient --palette neon --line-width 3 --link-opacity 1 --link-reach 0.4
shot camera-tint "$tracks" --look cctv --camera-tint lime
shot camera-grain-color "$tracks" --look cctv --grain-color 0.06

# The default look at 2160 lines, a 960×540 crop at full size.
ffmpeg -v error -i "$tmp/v1080.mkv" -vf scale=2880:2160:flags=lanczos -c:v libx264 -crf 12 -pix_fmt yuv420p "$tmp/v2160.mkv"
echo "draw-default-4k: trackink render -i vtest-2160p.mkv --tracks $(basename "$tracks") --tracks-size 768x576 --frame-offset $((1 - first))"
render -i "$tmp/v2160.mkv" --tracks "$tracks" -o "$tmp/4k.mkv"
still "$tmp/4k.mkv" "$out/draw-default-4k.png" 960:540:1340:815

# Points seeded on corners (left) and on edges (right, --point-seed edges), each joined by
# its minimum spanning tree in the plexus look: frame 40 of OpenCV's Megamind.avi (an
# animated face, a lamp: clean outlines) at 1080 lines, tracked by render --detect, the two
# halved side by side.
mm=/usr/share/doc/opencv-doc/examples/data/Megamind.avi
ffmpeg -v error -i "$mm" -an -frames:v 40 -vf scale=-2:1080:flags=lanczos -c:v libx264 -crf 12 -pix_fmt yuv420p "$tmp/mm1080.mkv"
for seed in corners edges; do
	echo "draw-point-seed ($seed): trackink render -i megamind-1080p.mkv --detect points --point-seed $seed --look plexus --links mst --frame 40"
	bin/trackink render -i "$tmp/mm1080.mkv" --detect points --point-seed $seed --look plexus --links mst --frame 40 --quiet -o "$tmp/seed-$seed.png"
done
ffmpeg -v error -y -i "$tmp/seed-corners.png" -i "$tmp/seed-edges.png" \
	-filter_complex "[0]scale=736:-2:flags=lanczos[a];[1]scale=736:-2:flags=lanczos[b];[a][b]hstack,split[c][d];[c]palettegen=max_colors=256:stats_mode=full[p];[d][p]paletteuse=dither=sierra2_4a" \
	"$out/draw-point-seed.png"
