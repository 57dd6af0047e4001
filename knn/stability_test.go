package knn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"trackink/scene"
)

// edgeChurn runs frames through a Graph with the given options and returns the mean number of
// links added plus removed per frame, compared with the frame before.
func edgeChurn(t *testing.T, o Options, frames [][]scene.Point) float64 {
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	prev := map[[2]int]bool{}
	changes := 0
	for f, pts := range frames {
		cur := map[[2]int]bool{}
		for _, e := range links(t, g, pts) {
			cur[e] = true
		}
		if f > 0 {
			for e := range cur {
				if !prev[e] {
					changes++
				}
			}
			for e := range prev {
				if !cur[e] {
					changes++
				}
			}
		}
		prev = cur
	}
	return float64(changes) / float64(len(frames)-1)
}

// jitterScene makes 100 points in a 1280×720 frame, each jittering uniformly by ±jitter px per
// axis around a position that is fixed (speed 0) or drifts at speed px/frame along a circle.
func jitterScene(rng *rand.Rand, frames int, speed, jitter float64) [][]scene.Point {
	const n = 100
	type track struct{ x, y, r, phase, dir float64 }
	tr := make([]track, n)
	for i := range tr {
		tr[i] = track{rng.Float64() * 1280, rng.Float64() * 720, 20 + rng.Float64()*60, rng.Float64() * 2 * math.Pi, float64(1 - 2*rng.IntN(2))}
	}
	out := make([][]scene.Point, frames)
	for f := range out {
		for i, t := range tr {
			a := t.phase + t.dir*speed*float64(f)/t.r // arc length speed·f
			x := t.x + t.r*math.Cos(a) + (rng.Float64()*2-1)*jitter
			y := t.y + t.r*math.Sin(a) + (rng.Float64()*2-1)*jitter
			out[f] = append(out[f], scene.Point{ID: i + 1, X: float32(x), Y: float32(y)})
		}
	}
	return out
}

// TestHysteresisStability measures link churn on jittering points with and without
// hysteresis. On fixed and slowly drifting (0.1 px/frame) points it requires at least 10 times
// fewer changes with hysteresis. Faster drift changes the links for real, so there it requires
// that hysteresis removes all the churn jitter adds: fewer changes than plain k-NN has on the
// same motion without any jitter.
func TestHysteresisStability(t *testing.T) {
	caps := Options{MaxDist: 110, MaxDY: 80, MaxDegree: 4}
	for _, c := range []struct {
		speed float64
		caps  Options
		ratio bool // require ≥ 10×
	}{
		{0, Options{}, true},
		{0, caps, true},
		{0.1, Options{}, true},
		{0.1, caps, true},
		{0.3, Options{}, false},
		{1, Options{}, false},
	} {
		frames := jitterScene(rand.New(rand.NewPCG(42, 7)), 500, c.speed, 1)
		o := c.caps
		o.K = 5
		without := edgeChurn(t, o, frames)
		clean := edgeChurn(t, o, jitterScene(rand.New(rand.NewPCG(42, 7)), 500, c.speed, 0))
		o.Hysteresis = DefaultHysteresis
		with := edgeChurn(t, o, frames)
		name := fmt.Sprintf("drift %.1f px/frame, caps %v", c.speed, c.caps != Options{})
		t.Logf("%-30s link changes per frame: %.3f without hysteresis, %.3f with (h=%g), %.0f× fewer; %.3f without jitter or hysteresis",
			name, without, with, DefaultHysteresis, without/with, clean)
		switch {
		case without < 1:
			t.Errorf("%s: only %.3f changes per frame without hysteresis: the scene does not test anything", name, without)
		case c.ratio && with*10 > without:
			t.Errorf("%s: %.3f changes per frame with hysteresis, %.3f without: want ≥ 10× fewer", name, with, without)
		case !c.ratio && with > clean:
			t.Errorf("%s: %.3f changes per frame with hysteresis, more than the %.3f of unjittered motion", name, with, clean)
		}
	}
}
