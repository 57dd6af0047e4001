#!/bin/sh
# Makes the built-in tracker's pictures for the docs: vtest.avi (pedestrians, from Debian's
# opencv-doc) tracked and drawn in one pass by render --detect, frame 300 of each:
#   docs/img/25track-motion.png  --detect people (motion), the hud look
#   docs/img/25track-points.png  --detect points, the plexus look
# Run from the repository root after `go build -o bin/trackink .`.
set -eu
bin=${TRACKINK:-bin/trackink}
in=${VTEST:-/usr/share/doc/opencv-doc/examples/data/vtest.avi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" render -i "$in" --detect people --look hud --end 300 --lossless -o "$tmp/motion.mkv" --quiet
"$bin" render -i "$in" --detect points --look plexus --end 300 --lossless -o "$tmp/points.mkv" --quiet
for look in motion points; do
	ffmpeg -v error -y -i "$tmp/$look.mkv" -vf "select=eq(n\,299)" -frames:v 1 "docs/img/25track-$look.png"
done
