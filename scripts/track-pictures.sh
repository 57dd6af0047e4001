#!/bin/sh
# Makes the built-in tracker's pictures for the docs: vtest.avi (pedestrians, from Debian's
# opencv-doc) tracked up to frame 300 and that frame drawn, by render --detect --frame:
#   docs/img/track-people.png  --detect people (the trained network), the hud look
#   docs/img/track-points.png  --detect points, the plexus look
# Run from the repository root after `make build`.
set -eu
bin=${TRACKINK:-bin/trackink}
in=${VTEST:-/usr/share/doc/opencv-doc/examples/data/vtest.avi}
"$bin" render -i "$in" --detect people --look hud --frame 300 -o docs/img/track-people.png -y --quiet
"$bin" render -i "$in" --detect points --look plexus --frame 300 -o docs/img/track-points.png -y --quiet
