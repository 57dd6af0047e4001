package scene

import (
	"math"
	"math/rand/v2"
)

// SeedWidth and SeedHeight are the frame size the seed scene is defined at.
const SeedWidth, SeedHeight = 3840, 2160

// SeedScene is the seed benchmark scene, the one every trackink benchmark reports on: 100
// tracked objects moving smoothly, each a box of 60–240 × 150–600 px (at 3840×2160) whose
// bottom-centre is its tracked point, labelled "person" with a score. It is generated from a
// fixed seed, so every run and every machine gets the same scene; at other frame sizes it is
// scaled to fit, keeping its look. Every box stays inside the frame. Any frame number can be
// asked for, in any order.
type SeedScene struct {
	sx, sy float64
	objs   [100]seedObject
}

type seedObject struct {
	bw, bh, cx, cy, ax, ay, fx, fy, px, py, score float64
}

// NewSeed returns the seed scene for a w × h frame.
func NewSeed(w, h int) *SeedScene {
	rng := rand.New(rand.NewPCG(2026, 11))
	s := &SeedScene{sx: float64(w) / SeedWidth, sy: float64(h) / SeedHeight}
	for i := range s.objs {
		o := &s.objs[i]
		o.bw, o.bh = 60+rng.Float64()*180, 150+rng.Float64()*450
		o.ax, o.ay = 20+rng.Float64()*200, 10+rng.Float64()*60
		// Anchors leave room for the swing, so every box stays wholly inside the frame.
		o.cx = o.bw/2 + o.ax + rng.Float64()*(SeedWidth-o.bw-2*o.ax)
		o.cy = o.bh + o.ay + rng.Float64()*(SeedHeight-o.bh-2*o.ay)
		o.fx, o.fy = 0.005+rng.Float64()*0.02, 0.005+rng.Float64()*0.02
		o.px, o.py = rng.Float64()*2*math.Pi, rng.Float64()*2*math.Pi
		o.score = 0.5 + rng.Float64()*0.5
	}
	return s
}

// Frame fills f with frame n (1-based), reusing its slices.
func (s *SeedScene) Frame(n int, f *Frame) {
	f.Index = n
	f.Points = f.Points[:0]
	f.Boxes = f.Boxes[:0]
	t := float64(n - 1)
	for i, o := range s.objs {
		// The tracked point (bottom-centre) follows a Lissajous path around its anchor.
		x := o.cx + o.ax*math.Sin(o.fx*t+o.px)
		y := o.cy + o.ay*math.Sin(o.fy*t+o.py)
		f.Points = append(f.Points, Point{ID: i + 1, X: float32(x * s.sx), Y: float32(y * s.sy)})
		f.Boxes = append(f.Boxes, Box{
			ID: i + 1,
			X:  float32((x - o.bw/2) * s.sx), Y: float32((y - o.bh) * s.sy),
			W: float32(o.bw * s.sx), H: float32(o.bh * s.sy),
			Class: "person", Score: float32(math.Round(o.score*100) / 100), HasScore: true,
		})
	}
}

// Seed returns frames 1 to frames of the seed scene for a w × h frame (NewTracks makes
// Tracks of them).
func Seed(w, h, frames int) []Frame {
	s := NewSeed(w, h)
	fs := make([]Frame, frames)
	for n := range fs {
		s.Frame(n+1, &fs[n])
	}
	return fs
}
