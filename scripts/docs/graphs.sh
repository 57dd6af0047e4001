#!/bin/sh
# Makes the link graphs' pictures for docs/links.md: the first frame of OpenCV's
# vtest.avi (Debian's opencv-doc) overlaid with 60 tracked points, a fixed pseudo-random set
# so that the pictures are reproducible, linked by each graph. Needs ffmpeg; run from the
# repository root after `go build -o bin/trackink .`.
set -eu
bin=${TRACKINK:-bin/trackink}
clip=/usr/share/doc/opencv-doc/examples/data/vtest.avi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ffmpeg -loglevel error -i "$clip" -frames:v 1 "$tmp/frame.png"
# A linear congruential generator in awk: the same points on every machine.
awk 'BEGIN {
	s = 26; printf "{\"frame\":1,\"points\":["
	for (i = 1; i <= 60; i++) {
		s = (s * 1103515245 + 12345) % 2147483648; x = 30 + int(s / 65536) % 708
		s = (s * 1103515245 + 12345) % 2147483648; y = 30 + int(s / 65536) % 516
		printf "%s{\"id\":%d,\"x\":%d,\"y\":%d}", (i > 1 ? "," : ""), i, x, y
	}
	print "]}"
}' > "$tmp/points.jsonl"
for graph in knn radius delaunay mst; do
	"$bin" render -i "$tmp/frame.png" --tracks "$tmp/points.jsonl" --frame 1 --links "$graph" --max-dist 130 \
		--line-width 2 --point-radius 4 --link-opacity 0.9 -o "docs/img/graphs-$graph.jpg" -y
done
