package knntest

import (
	"math/rand/v2"

	"trackink/scene"
)

// Jittery returns frames 1 to frames of a w × h scene whose drawing depends on the frames
// before it, for the tests of replaying a render's state (overlay.Drawer.Advance, segments):
// 30 tracks jitter by up to ±5 px around fixed places, so near-ties between neighbours keep
// changing and which links hysteresis keeps depends on history; the tracks come and go, so
// trails break off, label ages ({age}) and label places differ by track. Each track is a
// box labelled with a class and a tracked point at its bottom centre. The same arguments
// give the same frames.
func Jittery(w, h, frames int) []scene.Frame {
	rng := rand.New(rand.NewPCG(15, uint64(w*h)))
	const tracks = 30
	type place struct{ x, y float32 }
	home := make([]place, tracks)
	for i := range home {
		home[i] = place{float32(w) * (0.1 + 0.8*rng.Float32()), float32(h) * (0.2 + 0.7*rng.Float32())}
	}
	classes := []string{"person", "car", "bike"}
	fs := make([]scene.Frame, frames)
	for n := range fs {
		f := &fs[n]
		f.Index = n + 1
		for i, p := range home {
			// Track i is away for 7 frames of every 23, each track at its own time.
			if (n+5*i)%23 < 7 {
				continue
			}
			x, y := p.x+10*(rng.Float32()-0.5), p.y+10*(rng.Float32()-0.5)
			f.Points = append(f.Points, scene.Point{ID: i + 1, X: x, Y: y})
			f.Boxes = append(f.Boxes, scene.Box{ID: i + 1, X: x - 10, Y: y - 30, W: 20, H: 30,
				Class: classes[i%len(classes)], Score: 0.9, HasScore: true})
		}
	}
	return fs
}
