package scene

import "math"

// commonSizes are the video sizes trackers most often run at, smallest first: Misfit's
// guesses.
var commonSizes = [][2]int{{640, 360}, {640, 480}, {854, 480}, {960, 540}, {1280, 720}, {1920, 1080},
	{2560, 1440}, {3840, 2160}, {4096, 2160}, {7680, 4320}}

// Misfit describes tracks that look made on a video of another size than the one they are
// drawn on.
type Misfit struct {
	Boxes, Outside int // the boxes, and those centred outside the picture
	ReachW, ReachH int // how far right and down the boxes reach, in whole pixels
	// MadeW and MadeH are the common video size the tracks were most likely made at: the
	// smallest that holds them and is larger than the picture; 0 when none is.
	MadeW, MadeH int
}

// Misfit reports whether t looks made on a video of another size than the w × h one it is
// drawn on: more than one box in twenty centred outside the picture (boxes of people walking
// out of it reach past its edges; their centres rarely do).
func (t *Tracks) Misfit(w, h int) (Misfit, bool) {
	var m Misfit
	var reachX, reachY float32
	fw, fh := float32(w), float32(h)
	for f := range t.All() {
		for _, b := range f.Boxes {
			m.Boxes++
			if cx, cy := b.X+b.W/2, b.Y+b.H/2; cx < 0 || cy < 0 || cx > fw || cy > fh {
				m.Outside++
			}
			reachX, reachY = max(reachX, b.X+b.W), max(reachY, b.Y+b.H)
		}
	}
	if m.Boxes == 0 || m.Outside*20 <= m.Boxes {
		return m, false
	}
	m.ReachW, m.ReachH = int(math.Ceil(float64(reachX))), int(math.Ceil(float64(reachY)))
	for _, s := range commonSizes {
		// A box may overrun the frame it was made on by a little.
		if float32(s[0]) >= reachX*0.98 && float32(s[1]) >= reachY*0.98 && (s[0] > w || s[1] > h) {
			m.MadeW, m.MadeH = s[0], s[1]
			break
		}
	}
	return m, true
}
