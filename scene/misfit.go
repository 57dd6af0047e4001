package scene

import (
	"math"
	"slices"
)

// commonSizes are the video sizes trackers most often run at, smallest first: Misfit's
// guesses.
var commonSizes = [][2]int{{640, 360}, {640, 480}, {854, 480}, {960, 540}, {1280, 720}, {1920, 1080},
	{2560, 1440}, {3840, 2160}, {4096, 2160}, {7680, 4320}}

// upscales are the factors, as fractions, a video is most often scaled down by before
// tracks are drawn on it (a proxy of the footage the tracker ran on): Misfit's guesses of
// the picture's own aspect beside the common sizes. 768×576 tracked at 1152×864 is 3/2.
var upscales = [][2]int{{5, 4}, {4, 3}, {3, 2}, {5, 3}, {2, 1}, {5, 2}, {3, 1}, {4, 1}, {6, 1}, {8, 1}}

// Misfit describes tracks that look made on a video of another size than the one they are
// drawn on.
type Misfit struct {
	Boxes, Outside int // the boxes, and those centred outside the picture
	ReachW, ReachH int // how far right and down the boxes reach, in whole pixels
	// MadeW and MadeH are the video size the tracks were most likely made at, larger than
	// the picture and holding them: the smallest common size of the picture's aspect ratio,
	// else the picture's scaled by the smallest of upscales, else (OtherAspect, as scaling
	// to it stretches the boxes) the smallest common size of another aspect; 0 when none.
	MadeW, MadeH int
	OtherAspect  bool // MadeW × MadeH's aspect ratio is not the picture's
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
	// A box may overrun the frame it was made on by a little.
	holds := func(s [2]int) bool {
		return float32(s[0]) >= reachX*0.98 && float32(s[1]) >= reachY*0.98 && (s[0] > w || s[1] > h)
	}
	// The tracks' reach says little of the height or width they were made at (people seldom
	// reach the frame's top or bottom), the aspect ratio does: a size of the picture's
	// aspect scales the boxes unchanged in shape, any other stretches them. Common sizes
	// first (1280×720 tracked at 1920×1080, not 1600×900), then the picture's scaled.
	var common, scaled [][2]int
	for _, s := range commonSizes {
		if sameAspect(s[0], s[1], w, h) {
			common = append(common, s)
		}
	}
	for _, f := range upscales {
		s := [2]int{w * f[0] / f[1], h * f[0] / f[1]}
		if w*f[0]%f[1] == 0 && h*f[0]%f[1] == 0 && s[0]*s[1] <= 7680*4320 { // none is larger than 8K
			scaled = append(scaled, s)
		}
	}
	switch {
	case m.made(common, holds):
	case m.made(scaled, holds):
	case m.made(commonSizes, holds): // of another aspect: those of the picture's failed
		m.OtherAspect = true
	}
	return m, true
}

// made sets MadeW × MadeH to the first of sizes that holds the tracks, and reports whether
// one does.
func (m *Misfit) made(sizes [][2]int, holds func([2]int) bool) bool {
	i := slices.IndexFunc(sizes, holds)
	if i >= 0 {
		m.MadeW, m.MadeH = sizes[i][0], sizes[i][1]
	}
	return i >= 0
}

// sameAspect reports whether w × h and w2 × h2 have one aspect ratio, within 1% (854×480 is
// 16:9).
func sameAspect(w, h, w2, h2 int) bool {
	a, b := float64(w)*float64(h2), float64(w2)*float64(h)
	return math.Abs(a-b) <= 0.01*b
}
