package scene

import "math/rand/v2"

// Street returns frames 1 to n of a street scene like a MOT17 sequence on a w × h frame,
// from a fixed seed: about 20 pedestrians at a time walking across at different depths
// (nearer ones lower, taller and faster; boxes 0.41 as wide as tall, 0.11 to 0.35 of the
// frame height), each replaced by a newcomer with a new id when it walks out; detections of
// class pedestrian with scores. Each box's tracked point is the middle of its bottom edge,
// where MOTChallenge readers put it.
func Street(w, h, n int) []Frame {
	const walkers = 20
	rng := rand.New(rand.NewPCG(17, 2026))
	fw, fh := float64(w), float64(h)
	type walker struct {
		id              int
		x, foot, bh, vx float64
		score           float32
	}
	next := 1
	spawn := func(anywhere bool) walker {
		depth := rng.Float64()
		wk := walker{id: next, bh: (0.11 + 0.24*depth) * fh, foot: (0.45 + 0.53*depth) * fh,
			vx: (0.6 + 0.8*rng.Float64()) * (0.4 + depth) * fh / 540, score: float32(0.5 + 0.5*rng.Float64())}
		next++
		bw := 0.41 * wk.bh
		switch {
		case anywhere:
			wk.x = rng.Float64() * (fw - bw)
			if rng.IntN(2) == 0 {
				wk.vx = -wk.vx
			}
		case rng.IntN(2) == 0: // from the left edge, walking right
			wk.x = -bw
		default: // from the right edge, walking left
			wk.x, wk.vx = fw, -wk.vx
		}
		return wk
	}
	ws := make([]walker, walkers)
	for i := range ws {
		ws[i] = spawn(true)
	}
	frames := make([]Frame, n)
	for f := range frames {
		fr := &frames[f]
		fr.Index = f + 1
		for i := range ws {
			wk := &ws[i]
			bw := 0.41 * wk.bh
			if wk.x+bw < 0 || wk.x > fw {
				*wk = spawn(false)
				bw = 0.41 * wk.bh
			}
			// A walker sways a little as it steps.
			foot := wk.foot + 0.01*wk.bh*float64(f%8-4)/4
			fr.Boxes = append(fr.Boxes, Box{ID: wk.id, X: float32(wk.x), Y: float32(foot - wk.bh), W: float32(bw), H: float32(wk.bh),
				Class: "pedestrian", Score: wk.score, HasScore: true})
			fr.Points = append(fr.Points, Point{ID: wk.id, X: float32(wk.x + bw/2), Y: float32(foot)})
			wk.x += wk.vx
		}
	}
	return frames
}
