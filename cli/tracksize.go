package cli

import (
	"fmt"
	"math"

	"trackink/scene"
)

// commonSizes are the video sizes trackers most often run at, smallest first: the guesses
// of sizeHint.
var commonSizes = [][2]int{{640, 360}, {640, 480}, {854, 480}, {960, 540}, {1280, 720}, {1920, 1080},
	{2560, 1440}, {3840, 2160}, {4096, 2160}, {7680, 4320}}

// parseSize reads WxH (1920x1080, or with ×).
func parseSize(s string) (w, h int, err error) {
	var x string
	if _, err := fmt.Sscanf(s, "%d%1s%d", &w, &x, &h); err != nil || x != "x" && x != "X" || w < 1 || h < 1 {
		if _, err2 := fmt.Sscanf(s, "%d×%d", &w, &h); err2 != nil || w < 1 || h < 1 {
			return 0, 0, fmt.Errorf("%q: want WIDTHxHEIGHT, like 1920x1080", s)
		}
	}
	return w, h, nil
}

// scaleTracks applies --tracks-size: the tracks were made on a video of that size and are
// drawn on one of w × h.
func (t *trackFlags) scaleTracks(tr *scene.Tracks, w, h int) error {
	sw, sh, err := parseSize(t.size)
	switch {
	case err != nil:
		return usageError{fmt.Errorf("--tracks-size %w", err)}
	case w == 0 || h == 0:
		return usageError{fmt.Errorf("--tracks-size: give the video's size too (-i, or --width and --height)")}
	case tr.Format() == scene.FormatYOLO:
		return usageError{fmt.Errorf("--tracks-size: YOLO's coordinates are fractions of the frame, whatever its size")}
	}
	tr.Scale(float32(w)/float32(sw), float32(h)/float32(sh))
	return nil
}

// sizeHint returns a warning when the tracks look made on a video of another size than the
// w × h one they are drawn on: more than one box in twenty is centred outside the picture
// (boxes of people walking out of it reach past its edges; their centres rarely do). It
// says how far the tracks reach and guesses the common size they were made at; "" when
// they fit.
func sizeHint(tr *scene.Tracks, w, h int) string {
	var boxes, out int
	var reachX, reachY float32
	fw, fh := float32(w), float32(h)
	for f := range tr.All() {
		for _, b := range f.Boxes {
			boxes++
			if cx, cy := b.X+b.W/2, b.Y+b.H/2; cx < 0 || cy < 0 || cx > fw || cy > fh {
				out++
			}
			reachX, reachY = max(reachX, b.X+b.W), max(reachY, b.Y+b.H)
		}
	}
	if boxes == 0 || out*20 <= boxes {
		return ""
	}
	rx, ry := int(math.Ceil(float64(reachX))), int(math.Ceil(float64(reachY)))
	msg := fmt.Sprintf("tracks reach %d×%d, past the %d×%d picture (%d of %d boxes centred outside it)", rx, ry, w, h, out, boxes)
	for _, s := range commonSizes {
		// A box may overrun the frame it was made on by a little.
		if float32(s[0]) >= reachX*0.98 && float32(s[1]) >= reachY*0.98 && (s[0] > w || s[1] > h) {
			return msg + fmt.Sprintf(": made at %d×%d? --tracks-size %dx%d scales them to the picture", s[0], s[1], s[0], s[1])
		}
	}
	return msg + ": --tracks-size WxH, the size they were made at, scales them to the picture"
}
