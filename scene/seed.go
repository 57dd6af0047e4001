package scene

import (
	"math"
	"math/rand/v2"
)

// SeedWidth and SeedHeight are the frame size the seed scene is defined at.
const SeedWidth, SeedHeight = 3840, 2160

// Seed returns the seed benchmark scene, the one every trackink benchmark reports on: 100
// tracked objects moving smoothly over the frames, each a box of 60–240 × 150–600 px (at
// 3840×2160) whose bottom-centre is its tracked point, labelled "person" with a score.
// It is generated from a fixed seed, so every run and every machine gets the same scene.
// At other frame sizes it is scaled to fit, keeping its look.
func Seed(w, h, frames int) *Tracks {
	rng := rand.New(rand.NewPCG(2026, 11))
	sx, sy := float64(w)/SeedWidth, float64(h)/SeedHeight
	type object struct {
		bw, bh, cx, cy, ax, ay, fx, fy, px, py, score float64
	}
	objs := make([]object, 100)
	for i := range objs {
		o := &objs[i]
		o.bw, o.bh = 60+rng.Float64()*180, 150+rng.Float64()*450
		o.cx, o.cy = o.bw/2+rng.Float64()*(SeedWidth-o.bw), o.bh+rng.Float64()*(SeedHeight-o.bh)
		o.ax, o.ay = 20+rng.Float64()*200, 10+rng.Float64()*60
		o.fx, o.fy = 0.005+rng.Float64()*0.02, 0.005+rng.Float64()*0.02
		o.px, o.py = rng.Float64()*2*math.Pi, rng.Float64()*2*math.Pi
		o.score = 0.5 + rng.Float64()*0.5
	}
	t := &Tracks{Frames: make([]Frame, frames)}
	for n := range frames {
		f := &t.Frames[n]
		f.Index = n + 1
		f.Points = make([]Point, len(objs))
		f.Boxes = make([]Box, len(objs))
		for i, o := range objs {
			// The tracked point (bottom-centre) follows a Lissajous path around its anchor.
			x := o.cx + o.ax*math.Sin(o.fx*float64(n)+o.px)
			y := o.cy + o.ay*math.Sin(o.fy*float64(n)+o.py)
			f.Points[i] = Point{ID: i + 1, X: float32(x * sx), Y: float32(y * sy)}
			f.Boxes[i] = Box{
				ID: i + 1,
				X:  float32((x - o.bw/2) * sx), Y: float32((y - o.bh) * sy),
				W: float32(o.bw * sx), H: float32(o.bh * sy),
				Class: "person", Score: float32(math.Round(o.score*100) / 100), HasScore: true,
			}
		}
	}
	return t
}
